import { BACKSLASH, CLOSE_BRACE, CLOSE_BRACKET, closingQuote, COLON, isJsonSpace, OPEN_BRACE, OPEN_BRACKET, QUOTE } from './jsonLineBytes';
import type { TranscriptRecord } from './transcriptLineParser';

/** The envelope fields a transcript line carries at its top level, which the catalog needs from every line. */
const WANTED_STRINGS = new Set(['type', 'timestamp', 'cwd', 'gitBranch', 'version', 'sessionId', 'uuid', 'parentUuid', 'subtype']);
const WANTED_BOOLEANS = new Set(['isSidechain', 'isMeta']);

export interface Envelope {
  readonly record: TranscriptRecord;
  /** Whether a key named `flagKey` occurs at any depth (a key: a string followed by a colon, never text inside a string). */
  readonly hasFlagKey: boolean;
}

/**
 * The string between the quotes at `open` and `close`, or null when it is not a valid JSON string. Envelope
 * values (ids, timestamps, paths) rarely hold escapes or control characters: those that hold neither are decoded
 * directly, which saves a `JSON.parse` per field.
 */
function stringValue(line: Buffer, open: number, close: number): string | null {
  for (let i = open + 1; i < close; i++) {
    const byte = line[i];
    if (byte === BACKSLASH || byte < 0x20) {
      try {
        return JSON.parse(line.toString('utf8', open, close + 1)) as string;
      } catch {
        return null;
      }
    }
  }
  return line.toString('utf8', open + 1, close);
}

/**
 * Reads only the top-level envelope fields of a JSON object line (type, timestamp, cwd, branch, version,
 * ids, sidechain flag) without building its nested values: strings are jumped over with native `indexOf`,
 * so a line whose bulk is a tool result costs a fraction of `JSON.parse`. On the way it notes whether a key
 * named `flagKey` occurs anywhere, which saves the caller a second pass over the line. Returns null when the
 * line is not a well-formed object (unclosed strings, unbalanced brackets).
 */
export function readEnvelope(line: Buffer, flagKey?: Buffer): Envelope | null {
  if (line[0] !== OPEN_BRACE) return null;
  const out: TranscriptRecord = {};
  let hasFlagKey = false;
  /** Whether the string between these quotes is `flagKey`: its length first, so most strings cost one comparison. */
  const isFlagKey = (open: number, close: number): boolean =>
    flagKey !== undefined && close - open - 1 === flagKey.length && line.compare(flagKey, 0, flagKey.length, open + 1, close) === 0;
  let depth = 0;
  let index = 0;
  let pendingKey: string | null = null;
  const length = line.length;
  while (index < length) {
    const byte = line[index];
    if (byte === QUOTE) {
      const close = closingQuote(line, index);
      if (close < 0) return null;
      if (depth === 1) {
        let after = close + 1;
        while (after < length && isJsonSpace(line[after])) after++;
        if (line[after] === COLON) {
          pendingKey = line.toString('latin1', index + 1, close);
          if (isFlagKey(index, close)) hasFlagKey = true;
          index = after + 1;
          continue;
        }
        if (pendingKey !== null && WANTED_STRINGS.has(pendingKey)) {
          const value = stringValue(line, index, close);
          if (value === null) return null;
          out[pendingKey] = value;
        }
      } else if (!hasFlagKey && isFlagKey(index, close)) {
        let after = close + 1;
        while (after < length && isJsonSpace(line[after])) after++;
        hasFlagKey = line[after] === COLON;
      }
      pendingKey = null;
      index = close + 1;
      continue;
    }
    if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      depth++;
      pendingKey = null;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      depth--;
      if (depth < 0) return null;
      if (depth === 0) {
        for (let rest = index + 1; rest < length; rest++) if (!isJsonSpace(line[rest])) return null;
        return { record: out, hasFlagKey };
      }
    } else if (depth === 1 && pendingKey !== null && (byte === 0x74 || byte === 0x66 || byte === 0x6e)) {
      // true / false / null
      if (WANTED_BOOLEANS.has(pendingKey)) out[pendingKey] = byte === 0x74;
      else if (byte === 0x6e && WANTED_STRINGS.has(pendingKey)) out[pendingKey] = null;
      pendingKey = null;
    }
    index++;
  }
  return null;
}

/** The top-level envelope fields alone (see `readEnvelope`). */
export function readTopLevelFields(line: Buffer): TranscriptRecord | null {
  return readEnvelope(line)?.record ?? null;
}
