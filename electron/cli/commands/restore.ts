import { parseArgs } from 'node:util';
import type { RollbackPlan, RollbackResult } from '../../../shared/history/historyModel';
import { CodedError } from '../../../shared/result';
import type { Engine } from '../../core/engine';
import { CliError, type CliIo } from '../cliIo';
import { createCliEngine } from '../cliEngine';
import { projectBySlug } from './history';
import { bindOptionValues } from '../optionValues';

/** Explains a refused plan on stderr and gives the exit code. */
export function refuse(plan: RollbackPlan, io: CliIo): number {
  io.stderr('Refused: it would overwrite a newer change. Nothing was written.\n');
  for (const conflict of plan.conflicts) io.stderr(`  ${conflict.path} ${conflict.reason}\n`);
  return 1;
}

/** Prints what a rollback did, or that there was nothing to do. */
export function reportResult(result: RollbackResult, io: CliIo, what: string): void {
  if (!result.applied) io.stdout(`Nothing to do: ${what} already matches.\n`);
  else io.stdout(`${what}: ${result.plan.writes.map((w) => w.path).join(', ')} (recorded as change set ${result.changeSetId}).\n`);
}

/** Runs an engine call, turning its typed refusals (not found, conflict, lock held) into plain CLI errors. */
export async function explained<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof CodedError) throw new CliError(error.message);
    throw error;
  }
}

/** A full hash from a unique prefix of one of the file's recorded versions (at least 8 characters). */
async function resolveVersion(engine: Engine, folder: { configRoot: string; slug: string }, path: string, prefix: string): Promise<string> {
  if (!/^[0-9a-f]{8,64}$/.test(prefix))
    throw new CliError('--version must be a sha256 hash from `ccmem history` (at least 8 hex characters)');
  const versions = await engine.memoryHistory.listFileVersions({ kind: 'project', ...folder }, path);
  const hashes = new Set(versions.flatMap((v) => [v.before, v.after]).filter((h): h is string => h !== null && h.startsWith(prefix)));
  if (hashes.size === 0) throw new CliError(`version ${prefix} of ${path} is not in the history`);
  if (hashes.size > 1) throw new CliError(`version ${prefix} is ambiguous; give more of the hash`);
  return [...hashes][0];
}

/**
 * `ccmem restore --project SLUG --file PATH --version HASH [--dry-run]`: puts one memory file back to a version
 * from its history, through the safe writer, recorded as an app edit. Refused when it would overwrite a change
 * history has not recorded as the newest; `--dry-run` prints the diff and writes nothing.
 */
export async function runRestore(argv: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: bindOptionValues(argv, ['--project', '--file', '--version']),
    options: {
      project: { type: 'string' },
      file: { type: 'string' },
      version: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (!values.project || !values.file || !values.version) throw new CliError('restore needs --project SLUG --file PATH --version HASH', 2);
  const engine = await createCliEngine(io, { readOnly: values['dry-run'] });
  try {
    const project = await projectBySlug(engine, values.project);
    await engine.memoryHistory.recordNow();
    const folder = { kind: 'project' as const, ...project };
    const version = await resolveVersion(engine, project, values.file, values.version);
    const plan = await explained(() => engine.memoryHistory.planRestore(folder, values.file as string, version));
    if (plan.conflicts.length > 0) return refuse(plan, io);
    if (values['dry-run']) {
      io.stdout(plan.writes.length === 0 ? `Nothing to do: ${values.file} already is version ${version.slice(0, 12)}.\n` : plan.patch);
      return 0;
    }
    const result = await explained(() => engine.memoryHistory.restore(folder, values.file as string, version, plan.writes[0]?.expected));
    reportResult(result, io, `Restored ${values.file} to version ${version.slice(0, 12)}`);
    return 0;
  } finally {
    await engine.dispose();
  }
}
