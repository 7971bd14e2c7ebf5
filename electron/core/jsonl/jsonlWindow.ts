const NEWLINE = 0x0a;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

export interface WindowLines {
  /** Parsed objects of the complete lines in the window, in file order. */
  readonly records: readonly Record<string, unknown>[];
  readonly invalidUtf8: number;
  readonly invalidJson: number;
  /** True when the window holds no line end at all: one line longer than the window. */
  readonly overlongLine: boolean;
  readonly hasNul: boolean;
}

/**
 * Parses the complete JSONL lines of a byte window cut out of a larger file. A line cut by the
 * window's start (unless the window starts the file) or end (unless it ends the file) is dropped.
 */
export function parseWindowLines(window: Buffer, startsFile: boolean, endsFile: boolean): WindowLines {
  const records: Record<string, unknown>[] = [];
  let invalidUtf8 = 0;
  let invalidJson = 0;
  const hasNul = window.includes(0);
  let start = 0;
  if (!startsFile) {
    const first = window.indexOf(NEWLINE);
    if (first < 0) return { records, invalidUtf8, invalidJson, overlongLine: true, hasNul };
    start = first + 1;
  }
  let sawNewline = !startsFile;
  while (start < window.length) {
    let end = window.indexOf(NEWLINE, start);
    if (end < 0) {
      if (!endsFile) break;
      end = window.length;
    } else {
      sawNewline = true;
    }
    const lineBytes = window.subarray(start, end);
    start = end + 1;
    if (lineBytes.length === 0 || (lineBytes.length === 1 && lineBytes[0] === 0x0d)) continue;
    let text: string;
    try {
      text = strictUtf8.decode(lineBytes);
    } catch {
      invalidUtf8++;
      continue;
    }
    try {
      const value: unknown = JSON.parse(text);
      if (value && typeof value === 'object' && !Array.isArray(value)) records.push(value as Record<string, unknown>);
      else invalidJson++;
    } catch {
      // A last line without its newline may still be being written; that is not an error.
      if (end === window.length && endsFile) continue;
      invalidJson++;
    }
  }
  return { records, invalidUtf8, invalidJson, overlongLine: !sawNewline && !endsFile, hasNul };
}

/** The [start, end) byte ranges of the lines `parseWindowLines` would read, in file order (empty lines included). */
function lineRanges(window: Buffer, startsFile: boolean, endsFile: boolean): number[] {
  const ranges: number[] = [];
  let start = 0;
  if (!startsFile) {
    const first = window.indexOf(NEWLINE);
    if (first < 0) return ranges;
    start = first + 1;
  }
  while (start < window.length) {
    let end = window.indexOf(NEWLINE, start);
    if (end < 0) {
      if (!endsFile) break;
      end = window.length;
    }
    ranges.push(start, end);
    start = end + 1;
  }
  return ranges;
}

/**
 * The first (or, `fromEnd`, the last) non-empty string value of a top-level `field` among the records
 * `parseWindowLines` would return for the same window, parsing only the lines up to the one that has it: the same
 * answer as searching all of its records, for a fraction of the parsing when the field is near that end.
 */
export function findFieldInWindow(window: Buffer, startsFile: boolean, endsFile: boolean, field: string, fromEnd: boolean): string | null {
  const ranges = lineRanges(window, startsFile, endsFile);
  const lines = ranges.length / 2;
  for (let step = 0; step < lines; step++) {
    const index = fromEnd ? lines - 1 - step : step;
    const lineBytes = window.subarray(ranges[2 * index], ranges[2 * index + 1]);
    if (lineBytes.length === 0 || (lineBytes.length === 1 && lineBytes[0] === 0x0d)) continue;
    let value: unknown;
    try {
      value = JSON.parse(strictUtf8.decode(lineBytes));
    } catch {
      continue;
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) continue;
    const found = (value as Record<string, unknown>)[field];
    if (typeof found === 'string' && found !== '') return found;
  }
  return null;
}
