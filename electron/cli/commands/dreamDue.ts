import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { JobRecord } from '../../../shared/jobs/jobTypes';
import type { LlmBackend } from '../../../shared/jobs/llmSettings';
import { CodedError } from '../../../shared/result';
import type { Engine } from '../../core/engine';
import { toJobJson, type JobJson } from '../../core/jobs/jobJson';
import { reviewedDreamDue } from '../../core/jobs/reviewedDreamDue';
import { TokenBudget } from '../../core/jobs/TokenBudget';
import { readBackgroundSettings } from '../../core/settings/backgroundSettingsFile';
import { CliError, type CliIo } from '../cliIo';
import { bindOptionValues } from '../optionValues';
import { createJobEngine, describeProgress, describeRecord, parseVia } from './dream';

/** Runs one staged dream that holds the lock as Claude Code's does; Ctrl-C cancels it (and rolls the lock back). */
async function dreamOnce(
  engine: Engine,
  ref: { configRoot: string; slug: string },
  run: { readonly maxTokens: number; readonly via: LlmBackend | undefined },
  io: CliIo,
): Promise<JobRecord> {
  const started = await engine.jobs.startDream(
    { kind: 'project', ...ref },
    { trigger: 'schedule', holdConsolidationLock: true, maxTokens: run.maxTokens, via: run.via },
  );
  const stopProgress = engine.jobs.onDidProgress((progress) => {
    if (progress.jobId === started.id && progress.status === 'running') io.stderr(describeProgress(progress));
  });
  const cancel = () => void engine.jobs.cancel(started.id);
  process.once('SIGINT', cancel);
  try {
    return await engine.jobs.waitForJob(started.id);
  } finally {
    process.off('SIGINT', cancel);
    stopProgress();
  }
}

/**
 * `ccmem dream --due [--via claude-code|api] [--json]`: for a cron job on a machine without the app open. Runs a
 * staged dream for every project whose Claude Code gate would fire now (the app's reviewed-dream rule), one after
 * another within the background jobs' daily token budget, and prints what each proposes; nothing is applied.
 * The proposals wait in the app data folder for review in `ccmem serve`.
 */
export async function runDueDreams(argv: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: bindOptionValues(argv, ['--via']),
    options: { due: { type: 'boolean', default: false }, via: { type: 'string' }, json: { type: 'boolean', default: false } },
    strict: true,
  });
  const via = parseVia(values.via);
  const engine = await createJobEngine(io);
  try {
    const home = await engine.home.getHome();
    const settings = await readBackgroundSettings(home.dataDir);
    const budget = new TokenBudget(join(home.dataDir, 'background', 'budget.json'), () => new Date());
    const records: JobRecord[] = [];
    let failed = 0;
    let due = 0;
    for (const project of home.projects) {
      const label = project.path ?? project.displayName;
      const replaced = settings.autoDreamTurnedOff.some((record) => record.configRoot === project.configRoot);
      const check = await reviewedDreamDue(project, engine, { ignoreAutoDreamOff: replaced });
      if (!check.due) continue;
      due++;
      const spent = await budget.status(settings.dailyTokenBudget, 0);
      if (spent.exhausted) {
        io.stderr(
          `${label}: due, but today's token budget for background jobs is spent (${spent.spent} of ${spent.limit}); it waits for tomorrow\n`,
        );
        continue;
      }
      io.stderr(`Dreaming ${label}…\n`);
      let record: JobRecord;
      try {
        record = await dreamOnce(engine, project, { maxTokens: settings.dailyTokenBudget - spent.spent, via }, io);
      } catch (error) {
        if (!(error instanceof CodedError)) throw error;
        // No backend to run the model: every other project would fail the same way.
        if (error.code === 'FORBIDDEN') throw new CliError(error.message, 1);
        io.stderr(`${label}: not started: ${error.message}\n`);
        failed++;
        continue;
      }
      await budget.spend(record.usage.input + record.usage.output);
      if (record.status === 'cancelled') throw new CliError('the dream was cancelled; its lock was rolled back', 130);
      if (record.status !== 'ready') {
        io.stderr(`${label}: the dream failed: ${record.error ?? 'unknown error'}\n`);
        failed++;
        continue;
      }
      records.push(record);
    }
    if (values.json) {
      const outputs: JobJson[] = records.map(toJobJson);
      io.stdout(`${JSON.stringify(outputs, null, 2)}\n`);
    } else {
      io.stdout(records.length === 0 ? 'No dream ran.\n' : records.map(describeRecord).join('\n'));
    }
    io.stderr(`${due} of ${home.projects.length} project(s) due; ${records.length} dream(s) staged for review in \`ccmem serve\`.\n`);
    return failed > 0 ? 1 : 0;
  } finally {
    await engine.dispose();
  }
}
