import { parseArgs } from 'node:util';
import { CliError, type CliIo } from '../cliIo';
import { createCliEngine } from '../cliEngine';
import { explained, refuse, reportResult } from './restore';

/**
 * `ccmem revert --change-set ID [--dry-run]`: puts every file a change set touched back as it was before it,
 * through the safe writer, recorded as an app edit. Refused as a whole when any of those files changed again
 * since; `--dry-run` prints the diff and writes nothing.
 */
export async function runRevert(argv: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: { 'change-set': { type: 'string' }, 'dry-run': { type: 'boolean', default: false } },
    strict: true,
  });
  const id = values['change-set'];
  if (!id) throw new CliError('revert needs --change-set ID (from `ccmem history`)', 2);
  const engine = await createCliEngine(io, { readOnly: values['dry-run'] });
  try {
    await engine.memoryHistory.recordNow();
    const plan = await explained(() => engine.memoryHistory.planRevert(id));
    if (plan.conflicts.length > 0) return refuse(plan, io);
    if (values['dry-run']) {
      io.stdout(plan.writes.length === 0 ? 'Nothing to do: the files already are as they were before that change set.\n' : plan.patch);
      return 0;
    }
    const result = await explained(() => engine.memoryHistory.revert(id));
    reportResult(result, io, `Reverted change set ${id}`);
    return 0;
  } finally {
    await engine.dispose();
  }
}
