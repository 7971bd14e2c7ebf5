import { parseArgs } from 'node:util';
import type { ExtractionSource, JobSummary } from '../../../shared/jobs/jobTypes';
import { CodedError } from '../../../shared/result';
import { CliError, type CliIo } from '../cliIo';
import { createJobEngine, finishJobCommand, parseVia } from './dream';
import { listSessions } from '../../core/transcripts/sessionListing';

/** `--turns 3-7`, `--turns 3-` or `--turns 5`: human prompts counted from 1. */
function parseTurns(raw: string | undefined): { fromTurn?: number; toTurn?: number } {
  if (raw === undefined) return {};
  const match = /^(\d+)?(?:(-)(\d+)?)?$/.exec(raw.trim());
  const from = match?.[1] === undefined ? undefined : Number(match[1]);
  const to = match?.[2] ? (match[3] === undefined ? undefined : Number(match[3])) : from;
  if (
    !match ||
    (from === undefined && to === undefined) ||
    from === 0 ||
    to === 0 ||
    (from !== undefined && to !== undefined && from > to)
  ) {
    throw new CliError(`--turns must look like 3-7, 3- or 5, not ${raw}`, 2);
  }
  return { fromTurn: from, toTurn: to };
}

/** `ccmem extract --session ID [--turns A-B] [--via claude-code|api] [--json] [--apply]`: replays memory extraction over a session. */
export async function runExtract(argv: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      session: { type: 'string' },
      turns: { type: 'string' },
      via: { type: 'string' },
      json: { type: 'boolean', default: false },
      apply: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (!values.session) throw new CliError('--session ID is required', 2);
  const range = parseTurns(values.turns);
  const via = parseVia(values.via);
  const engine = await createJobEngine(io);
  try {
    let source: ExtractionSource | null = null;
    for (const project of (await engine.home.getHome()).projects) {
      const sessions = await listSessions(engine.home, project);
      if (sessions.some((s) => s.sessionId === values.session)) {
        source = { kind: 'session', configRoot: project.configRoot, slug: project.slug, sessionId: values.session, ...range };
        break;
      }
    }
    if (!source) throw new CliError(`no session ${values.session}`);
    let started: JobSummary;
    try {
      const estimate = await engine.jobs.estimateExtraction(source);
      const cost = estimate.costUsd === null ? 'unknown cost' : `at most about $${estimate.costUsd.toFixed(2)}`;
      // A file of bookkeeping lines only, or turns past the session's end: no model call can find anything there.
      if (estimate.chunks === 0)
        throw new CliError(`session ${values.session} has no conversation to replay${values.turns ? ` in turns ${values.turns}` : ''}`);
      io.stderr(
        `Reading ${estimate.messages} message(s) in ${estimate.chunks} part(s): about ${estimate.inputTokens} input tokens, ${cost} with ${estimate.model}.\n`,
      );
      started = await engine.jobs.startExtraction(source, { via });
    } catch (error) {
      if (error instanceof CodedError) throw new CliError(error.message);
      throw error;
    }
    return await finishJobCommand(engine, started, { json: values.json, apply: values.apply }, io);
  } finally {
    await engine.dispose();
  }
}
