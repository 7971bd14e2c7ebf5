import { parseArgs } from 'node:util';
import type { JobProgress, JobRecord, JobSummary } from '../../../shared/jobs/jobTypes';
import type { LlmBackend } from '../../../shared/jobs/llmSettings';
import { CodedError } from '../../../shared/result';
import type { Engine } from '../../core/engine';
import { createCliEngine } from '../cliEngine';
import { toJobJson } from '../../core/jobs/jobJson';
import { llmEnvironmentFrom } from '../../core/settings/LlmSettingsService';
import { SessionSecretStore } from '../../core/settings/secretStore';
import { CliError, type CliIo } from '../cliIo';
import { bindOptionValues } from '../optionValues';

/** Exit code when `.consolidate-lock` is held by a live Claude Code process. */
const EXIT_LOCK_HELD = 3;

/** The engine for a one-shot job command: the key and base URL come from this command's environment. */
export function createJobEngine(io: CliIo): Promise<Engine> {
  return createCliEngine(io, {
    readOnly: false,
    llm: { secrets: new SessionSecretStore(), environment: llmEnvironmentFrom(io.env, { useApiKey: true }) },
  });
}

/** `--via claude-code|api`: which backend runs the model; absent, the one Settings chose. */
export function parseVia(raw: string | undefined): LlmBackend | undefined {
  if (raw === undefined) return undefined;
  if (raw === 'claude-code' || raw === 'api') return raw;
  throw new CliError(`--via must be claude-code or api, not ${raw}`, 2);
}

export function describeProgress(progress: JobProgress): string {
  const cost = progress.costUsd === null ? '' : `, $${progress.costUsd.toFixed(4)}`;
  const chunks = progress.chunks ? `part ${Math.min(progress.chunks.done + 1, progress.chunks.total)}/${progress.chunks.total}, ` : '';
  return `${chunks}turn ${progress.turn}/${progress.maxTurns}, ${progress.phase}, ${progress.filesTouched.length} file(s) staged, ${progress.usage.input + progress.usage.output} tokens${cost}\n`;
}

export function describeRecord(record: JobRecord): string {
  const lines = [`Job ${record.id} (${record.status})`];
  if (record.summary) lines.push('', record.summary);
  if (record.stopReason) lines.push('', `Stopped early: ${record.stopReason}`);
  lines.push('', record.proposals.length === 0 ? 'No changes proposed.' : `${record.proposals.length} proposed change(s):`);
  for (const proposal of record.proposals) lines.push('', `${proposal.kind.toUpperCase()} ${proposal.path}`, proposal.diff.trimEnd());
  if (record.refused.length > 0) {
    lines.push('', `${record.refusedCount} change(s) refused:`);
    for (const refused of record.refused) lines.push(`  ${refused.kind} ${refused.path}: ${refused.reason}`);
  }
  const cost =
    record.costUsd !== null ? `$${record.costUsd.toFixed(4)}` : record.via === 'claude-code' ? 'no dollar cost shown' : 'unknown cost';
  const via = record.via === 'claude-code' ? ' through Claude Code' : '';
  lines.push('', `Tokens: ${record.usage.input} in, ${record.usage.output} out (${cost}, ${record.model}${via}).`);
  return `${lines.join('\n')}\n`;
}

/**
 * Follows a started job to its end (Ctrl-C cancels it), prints it, and with `apply` applies every proposal
 * the validator accepted. Without `apply` nothing under the config root changes.
 */
export async function finishJobCommand(
  engine: Engine,
  started: JobSummary,
  options: { readonly json: boolean; readonly apply: boolean },
  io: CliIo,
): Promise<number> {
  const stopProgress = engine.jobs.onDidProgress((progress) => {
    if (progress.jobId === started.id && progress.status === 'running') io.stderr(describeProgress(progress));
  });
  const cancel = () => void engine.jobs.cancel(started.id);
  process.once('SIGINT', cancel);
  let record: JobRecord;
  try {
    record = await engine.jobs.waitForJob(started.id);
  } finally {
    process.off('SIGINT', cancel);
    stopProgress();
  }
  if (record.status === 'failed' && record.proposals.length === 0) throw new CliError(`the job failed: ${record.error ?? 'unknown error'}`);
  if (record.status === 'cancelled' && record.proposals.length === 0) throw new CliError('the job was cancelled', 130);
  // What is printed is shown: secrets in the summary and diffs are masked; the record keeps them for --apply.
  const shown = await engine.jobs.viewJob(record.id);
  io.stdout(options.json ? `${JSON.stringify(toJobJson(shown), null, 2)}\n` : describeRecord(shown));
  if (record.error) io.stderr(`warning: the job stopped early: ${record.error}\n`);
  if (!options.apply) {
    if (record.proposals.length > 0) io.stderr(`Nothing was written. Apply with --apply, or review job ${record.id} in the app.\n`);
    return 0;
  }
  if (record.proposals.length === 0) return 0;
  try {
    const outcome = await engine.jobs.apply(
      record.id,
      record.proposals.map((p) => ({ path: p.path, decision: 'accept' as const })),
    );
    io.stderr(`Applied ${outcome.applied.length} file(s)${outcome.changeSetId ? ` as history change set ${outcome.changeSetId}` : ''}.\n`);
    for (const conflict of outcome.conflicts) io.stderr(`not applied: ${conflict.path}: ${conflict.reason}\n`);
    return outcome.conflicts.length > 0 ? 1 : 0;
  } catch (error) {
    if (error instanceof CodedError && error.code === 'LOCK_HELD') throw new CliError(error.message, EXIT_LOCK_HELD);
    if (error instanceof CodedError) throw new CliError(error.message);
    throw error;
  }
}

/** `ccmem dream --project SLUG [--via claude-code|api] [--json] [--apply]`: consolidates a project's memory with the model. */
export async function runDream(argv: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: bindOptionValues(argv, ['--project']),
    options: {
      project: { type: 'string' },
      via: { type: 'string' },
      json: { type: 'boolean', default: false },
      apply: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (!values.project) throw new CliError('--project SLUG is required (see `ccmem projects`)', 2);
  const via = parseVia(values.via);
  const engine = await createJobEngine(io);
  try {
    const matches = (await engine.home.getHome()).projects.filter((p) => p.slug === values.project);
    if (matches.length === 0) throw new CliError(`no project ${values.project} (see \`ccmem projects\`)`);
    if (matches.length > 1)
      throw new CliError(`${values.project} exists in several config roots: ${matches.map((p) => p.configRoot).join(', ')}`);
    let started: JobSummary;
    try {
      started = await engine.jobs.startDream({ kind: 'project', configRoot: matches[0].configRoot, slug: matches[0].slug }, { via });
    } catch (error) {
      if (error instanceof CodedError) throw new CliError(error.message);
      throw error;
    }
    return await finishJobCommand(engine, started, { json: values.json, apply: values.apply }, io);
  } finally {
    await engine.dispose();
  }
}
