import { CodedError, fail, ok, type Result } from '../result';
import type { RequestHandlers } from './api';
import { requestSchemas, type RequestName } from './requests';

export function isRequestName(name: unknown): name is RequestName {
  return typeof name === 'string' && Object.hasOwn(requestSchemas, name);
}

export interface DispatchOptions {
  readonly readOnly: boolean;
}

/**
 * Validates a request at the boundary and runs its handler; every outcome is a Result, never a throw.
 * Shared by the Electron IPC binding and the web shell so both refuse bad input the same way.
 */
export async function dispatchRequest(
  handlers: RequestHandlers,
  name: unknown,
  rawArgs: unknown,
  options: DispatchOptions,
): Promise<Result<unknown>> {
  if (!isRequestName(name)) return fail('INVALID_INPUT', `Unknown request: ${String(name).slice(0, 100)}`);
  const spec = requestSchemas[name];
  let parsed: ReturnType<typeof spec.args.safeParse>;
  try {
    parsed = spec.args.safeParse(rawArgs ?? {});
  } catch {
    // zod can throw instead of failing (`.readonly()` freezes a typed array it was handed): still bad input, not a crash.
    return fail('INVALID_INPUT', `Invalid arguments for ${name}: a value of a kind this request does not take`);
  }
  if (!parsed.success) {
    return fail(
      'INVALID_INPUT',
      `Invalid arguments for ${name}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'} ${i.message}`).join('; ')}`,
    );
  }
  if (spec.mutates && options.readOnly) return fail('READ_ONLY', `${name} changes files, and this window is read-only`);
  try {
    const handler = handlers[name] as (args: unknown) => Promise<unknown>;
    return ok(await handler(parsed.data));
  } catch (error) {
    if (error instanceof CodedError) return fail(error.code, error.message, error.details);
    return fail('INTERNAL', error instanceof Error ? error.message : String(error));
  }
}
