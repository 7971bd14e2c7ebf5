import { parseArgs } from 'node:util';
import { PRICES_AS_OF } from '../../../shared/model/modelPricing';
import { LIVE_VIEW } from '../../../shared/transcript/transcriptOutline';
import { isUuid } from '../../../shared/claude/sessionIds';
import { contextTokens, usageTotals, type TurnUsage } from '../../../shared/transcript/turnUsage';
import { openCliTranscriptReader } from '../cliTranscriptReader';
import { configRootsFromEnv } from '../../core/layout/configRoots';
import { CliError, type CliIo } from '../cliIo';
import { CodedError } from '../../../shared/result';
import { countOf } from '../../../shared/text/plural';

export const TRANSCRIPT_USAGE = 'transcript <sessionId> [--json | --html | --usage [--json]] [--agent ID]';

/** One turn of `ccmem transcript <id> --usage --json`; a stable schema scripts rely on. */
export interface TurnUsageJson {
  readonly line: number;
  readonly timestamp: string | null;
  readonly model: string | null;
  readonly input: number;
  readonly output: number;
  readonly cacheCreation: number;
  readonly cacheRead: number;
}

function toTurnJson(turn: TurnUsage): TurnUsageJson {
  return { line: turn.line, timestamp: turn.timestamp, model: turn.model, ...turn.usage };
}

/**
 * `ccmem transcript <sessionId> [--json | --html] [--agent ID]`: the live branch of a session (or of one of its
 * sub-agent runs). `--json` prints the normalised entries in order, whole, as one JSON array written entry by entry
 * (a huge transcript never sits in memory as one string); the default is Markdown, `--html` a self-contained page.
 * Reads only.
 */
export async function runTranscript(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: {
      json: { type: 'boolean', default: false },
      html: { type: 'boolean', default: false },
      agent: { type: 'string' },
      usage: { type: 'boolean', default: false },
    },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length !== 1) throw new CliError(`usage: ccmem ${TRANSCRIPT_USAGE}`, 2);
  if (values.json && values.html) throw new CliError('choose one of --json and --html', 2);
  if (values.usage && values.html) throw new CliError('choose one of --usage and --html', 2);
  const sessionId = positionals[0];
  if (!isUuid(sessionId)) throw new CliError(`'${sessionId}' is not a session id (a UUID)`, 2);

  const reader = openCliTranscriptReader(io);
  try {
    const ref = await reader.transcripts.findSession(sessionId);
    if (!ref)
      throw new CliError(
        `no session ${sessionId} in ${configRootsFromEnv(io.env)
          .map((root) => root.path)
          .join(', ')}`,
      );
    if (values.usage) {
      const { turns } = await reader.transcripts.usage(ref, { ...LIVE_VIEW, agentId: values.agent ?? null });
      const totals = usageTotals(turns);
      if (values.json) {
        io.stdout(`${JSON.stringify({ turns: turns.map(toTurnJson), ...totals, pricesAsOf: PRICES_AS_OF }, null, 2)}\n`);
        return 0;
      }
      io.stdout('line\tmodel\tinput\toutput\tcache write\tcache read\tcontext\n');
      for (const turn of turns) {
        const { input, output, cacheCreation, cacheRead } = turn.usage;
        io.stdout(
          `${turn.line}\t${turn.model ?? '?'}\t${input}\t${output}\t${cacheCreation}\t${cacheRead}\t${contextTokens(turn.usage)}\n`,
        );
      }
      const cost =
        totals.costUsd === null
          ? 'cost unknown (a model has no list price)'
          : `$${totals.costUsd.toFixed(2)} at API list prices of ${PRICES_AS_OF}`;
      io.stdout(
        `${countOf(turns.length, 'turn')}, ${totals.tokens.input} input, ${totals.tokens.output} output, peak context ${totals.peakContext}, ${cost}\n`,
      );
      return 0;
    }
    if (values.json) {
      const entries = await reader.transcripts.liveBranch(ref, values.agent ?? null).catch((error: unknown) => {
        throw error instanceof CodedError && error.code === 'NOT_FOUND' ? new CliError(error.message) : error;
      });
      let first = true;
      io.stdout('[');
      for await (const entry of entries) {
        io.stdout(`${first ? '\n' : ',\n'}${JSON.stringify(entry)}`);
        first = false;
      }
      io.stdout(first ? ']\n' : '\n]\n');
      return 0;
    }
    if (values.agent !== undefined) throw new CliError('--agent needs --json (exports cover the main conversation)', 2);
    const format = values.html ? 'html' : 'markdown';
    for (let cursor: number | null = 0; cursor !== null;) {
      const chunk = await reader.transcripts.exportChunk(ref, format, cursor);
      io.stdout(chunk.text);
      cursor = chunk.nextCursor;
    }
    return 0;
  } finally {
    await reader.dispose();
  }
}
