import { CodedError, fail, ok, type Result } from '../result';
import type { RequestHandlers } from './api';
import { CAPABILITY_REFUSALS, type ShellCapability } from './capabilities';
import { requestSchemas, type RequestName } from './requests';

export function isRequestName(name: unknown): name is RequestName {
  return typeof name === 'string' && Object.hasOwn(requestSchemas, name);
}

export interface DispatchOptions {
  readonly readOnly: boolean;
  /** What this shell may do beyond the common requests; none when left out (see capabilities.ts). */
  readonly capabilities?: ReadonlySet<ShellCapability>;
}

/** The capability a request needs with these (valid) arguments, if any. */
export function neededCapability(name: RequestName, args: unknown): ShellCapability | null {
  const spec: { readonly mutates: boolean; readonly needs?: (args: never) => ShellCapability | null } = requestSchemas[name];
  return spec.needs ? spec.needs(args as never) : null;
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
  if (spec.mutates && options.readOnly) return fail('READ_ONLY', `${name} makes a change, and this server is read-only`);
  const needed = neededCapability(name, parsed.data);
  if (needed && !options.capabilities?.has(needed)) return fail('FORBIDDEN', CAPABILITY_REFUSALS[needed]);
  try {
    const handler = handlers[name] as (args: unknown) => Promise<unknown>;
    return ok(await handler(parsed.data));
  } catch (error) {
    if (error instanceof CodedError) return fail(error.code, error.message, error.details);
    return fail('INTERNAL', error instanceof Error ? error.message : String(error));
  }
}
