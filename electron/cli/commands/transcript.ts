import { parseArgs } from 'node:util';
import { sessionIdSchema } from '../../../shared/transcript/transcriptRequestSchemas';
import { createCliEngine } from '../cliEngine';
import { configRootsFromEnv } from '../../core/home/configRoots';
import { CliError, type CliIo } from '../cliIo';
import { CodedError } from '../../../shared/result';

export const TRANSCRIPT_USAGE = 'transcript <sessionId> [--json | --html] [--agent ID]';

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
    },
    allowPositionals: true,
    strict: true,
  });
  if (positionals.length !== 1) throw new CliError(`usage: ccmem ${TRANSCRIPT_USAGE}`, 2);
  if (values.json && values.html) throw new CliError('choose one of --json and --html', 2);
  const sessionId = positionals[0];
  if (!sessionIdSchema.safeParse(sessionId).success) throw new CliError(`'${sessionId}' is not a session id (a UUID)`, 2);

  const engine = await createCliEngine(io, { readOnly: true });
  try {
    const ref = await engine.transcripts.findSession(sessionId);
    if (!ref)
      throw new CliError(
        `no session ${sessionId} in ${configRootsFromEnv(io.env)
          .map((root) => root.path)
          .join(', ')}`,
      );
    if (values.json) {
      const entries = await engine.transcripts.liveBranch(ref, values.agent ?? null).catch((error: unknown) => {
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
      const chunk = await engine.transcripts.exportChunk(ref, format, cursor);
      io.stdout(chunk.text);
      cursor = chunk.nextCursor;
    }
    return 0;
  } finally {
    await engine.dispose();
  }
}
