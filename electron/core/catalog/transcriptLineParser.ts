import { isAscii, isUtf8 } from 'node:buffer';
import { eachOf, LineFields, pickFields, scanFields } from '../jsonl/jsonFieldScanner';

const CARRIAGE_RETURN = 0x0d;

export type TranscriptRecord = Record<string, unknown>;

/** What a tool call's input tells the catalog: the sub-agent it starts, or the memory file it reads or writes. */
const TOOL_INPUT = { subagent_type: 'repeated', description: 'value', prompt: 'value', file_path: 'value' } as const;

/**
 * Every field `TranscriptAggregate` reads, and nothing else: a line's envelope, a response's id, model, usage and
 * tool calls, a prompt's text blocks (deferred: read for the lines that need them, see `needsMessageTexts`), a tool
 * result's sub-agent, a compaction's numbers and the title lines. The strings that mostly stay the same from one
 * line to the next are `'repeated'`, so they are decoded once per run (a response's id and request id too: Claude
 * Code writes each of a response's content blocks as a line of its own).
 */
export const CATALOG_FIELDS = new LineFields({
  type: 'repeated',
  subtype: 'repeated',
  timestamp: 'value',
  uuid: 'value',
  parentUuid: 'value',
  sessionId: 'repeated',
  cwd: 'repeated',
  gitBranch: 'repeated',
  version: 'repeated',
  isSidechain: 'value',
  isMeta: 'value',
  isCompactSummary: 'value',
  isVisibleInTranscriptOnly: 'value',
  isApiErrorMessage: 'value',
  requestId: 'repeated',
  customTitle: 'value',
  aiTitle: 'value',
  lastPrompt: 'value',
  leafUuid: 'value',
  summary: 'value',
  prUrl: 'value',
  prNumber: 'value',
  prRepository: 'value',
  agentName: 'repeated',
  mode: 'repeated',
  compactMetadata: { trigger: 'repeated', preTokens: 'value', postTokens: 'value' },
  toolUseResult: { agentId: 'value', agentType: 'repeated' },
  message: {
    id: 'repeated',
    model: 'repeated',
    usage: { input_tokens: 'value', output_tokens: 'value', cache_creation_input_tokens: 'value', cache_read_input_tokens: 'value' },
    content: eachOf({ type: 'repeated', id: 'value', name: 'repeated', tool_use_id: 'value', text: 'deferred', input: TOOL_INPUT }),
  },
});

/**
 * Whether a line needs its message's texts: only a user's does (its prompt, or an inline sub-agent's first words).
 * An assistant's answer is no part of what the catalog shows, and decoding it was a tenth of the scanner's time on
 * assistant lines, half of all lines.
 */
export function needsMessageTexts(record: TranscriptRecord): boolean {
  return record.type === 'user';
}

/**
 * The catalog's fields of one transcript line (see `CATALOG_FIELDS`), or null when it is a bad line (invalid UTF-8,
 * NUL bytes, not a JSON object). Read by the byte scanner; a line it finds malformed is handed to `JSON.parse`,
 * which has the last word on what is valid.
 */
export function parseTranscriptLine(line: Buffer): TranscriptRecord | null {
  let end = line.length;
  if (end > 0 && line[end - 1] === CARRIAGE_RETURN) end--;
  if (end === 0) return null;
  const bytes = end === line.length ? line : line.subarray(0, end);
  const ascii = isAscii(bytes);
  if (!ascii && !isUtf8(bytes)) return null;
  // JSON.parse refuses a raw NUL anywhere; the scanner jumps over string contents without looking at them.
  if (bytes.indexOf(0) >= 0) return null;
  const scanned = scanFields(bytes, CATALOG_FIELDS, ascii, needsMessageTexts);
  if (scanned !== null) return scanned;
  try {
    // Decoding ASCII as Latin-1 gives the same string several times faster than the UTF-8 decoder.
    const value: unknown = JSON.parse(bytes.toString(ascii ? 'latin1' : 'utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? pickFields(value as TranscriptRecord, CATALOG_FIELDS, needsMessageTexts)
      : null;
  } catch {
    return null;
  }
}

/** Whether a line holds nothing at all (only a carriage return or nothing): skipped, not bad. */
export function isBlankLine(line: Buffer): boolean {
  return line.length === 0 || (line.length === 1 && line[0] === CARRIAGE_RETURN);
}
