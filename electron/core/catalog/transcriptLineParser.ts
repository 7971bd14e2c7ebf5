import { isAscii, isUtf8 } from 'node:buffer';
import { BACKSLASH, closingQuote, QUOTE } from './jsonLineBytes';
import { readEnvelope } from './topLevelFields';

const CARRIAGE_RETURN = 0x0d;

/** Lines up to this size are parsed whole; longer ones are parsed as a skeleton with long strings cut short. */
const WHOLE_PARSE_MAX_BYTES = 8192;
/** What a skeleton keeps of each long string: enough for titles, prompts, paths and ids. */
export const SKELETON_STRING_BYTES = 1024;

export type TranscriptRecord = Record<string, unknown>;

/** Backs a cut position off so it splits neither a UTF-8 character nor a JSON escape. */
function safeCut(line: Buffer, contentStart: number, cut: number): number {
  while (cut > contentStart && (line[cut] & 0xc0) === 0x80) cut--;
  // A `\uXXXX` escape is at most 6 bytes long; find whether the cut lands inside one or right after a lone backslash.
  for (let back = 1; back <= 6 && cut - back >= contentStart; back++) {
    if (line[cut - back] !== BACKSLASH) continue;
    let run = 1;
    while (cut - back - run >= contentStart && line[cut - back - run] === BACKSLASH) run++;
    if (run % 2 === 0) break; // an escaped backslash: nothing open
    const escapeLength = line[cut - back + 1] === 0x75 /* u */ ? 6 : 2;
    if (back < escapeLength) cut -= back;
    break;
  }
  return cut;
}

/**
 * The same JSON line with every string longer than `SKELETON_STRING_BYTES` cut short, or null when the
 * line's strings do not close. Large payloads (file contents, tool output, base64 images) are jumped over
 * with native `indexOf`, so a multi-megabyte line costs little more than a copy of its structure.
 */
export function jsonSkeleton(line: Buffer): Buffer | null {
  const parts: Buffer[] = [];
  let segmentStart = 0;
  let index = 0;
  for (;;) {
    const open = line.indexOf(QUOTE, index);
    if (open < 0) break;
    const close = closingQuote(line, open);
    if (close < 0) return null;
    const contentStart = open + 1;
    if (close - contentStart > SKELETON_STRING_BYTES) {
      parts.push(line.subarray(segmentStart, safeCut(line, contentStart, contentStart + SKELETON_STRING_BYTES)));
      segmentStart = close;
    }
    index = close + 1;
  }
  if (parts.length === 0) return line;
  parts.push(line.subarray(segmentStart));
  return Buffer.concat(parts);
}

/** Below this size a line is parsed whole without looking for shortcuts. */
const SHORTCUT_MIN_BYTES = 1024;
const TOOL_RESULT = Buffer.from('"type":"tool_result"');
/** A tool result's block type sits near the start of its line, before the (long) output. */
const TOOL_RESULT_SEARCH_BYTES = 1024;
/** A key of the result of a Task/Agent call: its `toolUseResult` names the sub-agent, so such a line is parsed. */
const AGENT_RESULT_KEY = Buffer.from('totalToolUseCount');

export interface ParsedLine {
  readonly record: TranscriptRecord;
  /** False when only the top-level envelope was read (the line's payload is not needed). */
  readonly complete: boolean;
}

/** Claude Code 2.1.3xx's request records start with their type (`{"type":"api-request…`). */
const REQUEST_RECORD_START = Buffer.from('{"type":"api-request');
/** Its prompt snapshots are attachments whose `attachment.type` comes within the first hundred bytes or so. */
const PROMPT_SNAPSHOT = Buffer.from('"type":"prompt_snapshot"');
const RECORD_SEARCH_BYTES = 512;

/**
 * Whether a long line is a record of what Claude Code sent to the API (request parameters, message blobs, prompt
 * shapes and snapshots: 2.1.3xx writes ~140 KB of them per session). Nothing in them counts toward the catalog,
 * so only their envelope is read.
 */
function isRequestRecord(bytes: Buffer): boolean {
  return (
    bytes.subarray(0, REQUEST_RECORD_START.length).equals(REQUEST_RECORD_START) ||
    bytes.subarray(0, RECORD_SEARCH_BYTES).indexOf(PROMPT_SNAPSHOT) >= 0
  );
}

/** Whether a long line is a tool result, whose output (half the bytes of a typical transcript) is never used. */
function isToolResult(bytes: Buffer): boolean {
  return bytes.subarray(0, TOOL_RESULT_SEARCH_BYTES).indexOf(TOOL_RESULT) >= 0;
}

/**
 * One transcript line, or null when it is a bad line (invalid UTF-8, NUL bytes, not a JSON object).
 * Long tool-result lines are read for their envelope only; other long lines
 * are read as a skeleton (see `jsonSkeleton`): every field is there, long strings are cut.
 */
export function parseTranscriptLine(line: Buffer): ParsedLine | null {
  let end = line.length;
  if (end > 0 && line[end - 1] === CARRIAGE_RETURN) end--;
  if (end === 0) return null;
  const bytes = end === line.length ? line : line.subarray(0, end);
  const ascii = isAscii(bytes);
  if (!ascii && !isUtf8(bytes)) return null;
  let source: Buffer | null = bytes;
  if (bytes.length > SHORTCUT_MIN_BYTES) {
    // JSON.parse refuses a raw NUL anywhere; the shortcuts may never look at it, so they check first.
    if (isRequestRecord(bytes)) {
      if (bytes.indexOf(0) >= 0) return null;
      const envelope = readEnvelope(bytes);
      return envelope ? { record: envelope.record, complete: false } : null;
    }
    const toolResult = isToolResult(bytes);
    if ((toolResult || bytes.length > WHOLE_PARSE_MAX_BYTES) && bytes.indexOf(0) >= 0) return null;
    if (toolResult) {
      // One pass reads the envelope and spots a sub-agent's result, which alone is worth parsing whole.
      const envelope = readEnvelope(bytes, AGENT_RESULT_KEY);
      if (!envelope) return null;
      if (!envelope.hasFlagKey) return { record: envelope.record, complete: false };
    }
    if (bytes.length > WHOLE_PARSE_MAX_BYTES) {
      source = jsonSkeleton(bytes);
      if (!source) return null;
    }
  }
  try {
    // Decoding ASCII as Latin-1 gives the same string several times faster than the UTF-8 decoder.
    const value: unknown = JSON.parse(source.toString(ascii ? 'latin1' : 'utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? { record: value as TranscriptRecord, complete: true }
      : null;
  } catch {
    return null;
  }
}

/** Whether a line holds nothing at all (only a carriage return or nothing): skipped, not bad. */
export function isBlankLine(line: Buffer): boolean {
  return line.length === 0 || (line.length === 1 && line[0] === CARRIAGE_RETURN);
}
