import { mapLimit } from '../async/mapLimit';
import { openFromDisk, type SourceOpener } from '../fs/randomAccessSource';
import type { IndexedLine } from '../../../shared/transcript/indexedLine';
import type { LineBytesTest } from './findPrefilter';

/** Lines closer than this are read in one go (skipping a small gap is cheaper than another read call). */
const MAX_GAP_BYTES = 64 * 1024;
/** One read never spans more than this. */
const MAX_SPAN_BYTES = 4 * 1024 * 1024;
/**
 * Lines far apart (a session's Agent calls, spread over 500 MB: 1,324 reads) are read a few at a time: one after the
 * other, the engine sat waiting on each read.
 */
const SPAN_READS_IN_FLIGHT = 8;

/**
 * Reads the text of some lines of a file by their offsets, merging neighbours into a few large reads. Unreadable
 * lines (and lines that changed under us) map to null. Never reads more of the file than the lines asked for,
 * plus small gaps between them. Lines whose bytes `accept` turns down are left out, never decoded.
 */
export async function readLineTexts(
  path: string,
  lines: readonly IndexedLine[],
  opener: SourceOpener = openFromDisk,
  accept?: LineBytesTest,
): Promise<Map<number, string | null>> {
  const out = new Map<number, string | null>();
  const wanted = lines.filter((line) => line.unreadable === null).sort((a, b) => a.offset - b.offset);
  for (const line of lines) if (line.unreadable !== null) out.set(line.line, null);
  if (wanted.length === 0) return out;
  const spans: { readonly first: number; readonly end: number; readonly start: number; readonly bytes: number }[] = [];
  let i = 0;
  while (i < wanted.length) {
    const spanStart = wanted[i].offset;
    let spanEnd = spanStart + wanted[i].length;
    let j = i + 1;
    while (
      j < wanted.length &&
      wanted[j].offset - spanEnd <= MAX_GAP_BYTES &&
      wanted[j].offset + wanted[j].length - spanStart <= MAX_SPAN_BYTES
    ) {
      spanEnd = Math.max(spanEnd, wanted[j].offset + wanted[j].length);
      j++;
    }
    spans.push({ first: i, end: j, start: spanStart, bytes: spanEnd - spanStart });
    i = j;
  }
  const handle = await opener(path);
  let texts: (readonly (readonly [number, string | null])[])[];
  try {
    texts = await mapLimit(spans, SPAN_READS_IN_FLIGHT, async (span) => {
      // Not zero-filled: only the bytes read are ever looked at.
      const buffer = Buffer.allocUnsafe(span.bytes);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, span.start);
      const found: (readonly [number, string | null])[] = [];
      for (let k = span.first; k < span.end; k++) {
        const line = wanted[k];
        const from = line.offset - span.start;
        if (from + line.length > bytesRead) {
          found.push([line.line, null]);
          continue;
        }
        let end = from + line.length;
        if (end > from && buffer[end - 1] === 0x0d) end--;
        if (accept && !accept(buffer, from, end)) continue;
        found.push([line.line, buffer.toString('utf8', from, end)]);
      }
      return found;
    });
  } finally {
    await handle.close();
  }
  // In file order, whatever order the reads finished in.
  for (const found of texts) for (const [line, text] of found) out.set(line, text);
  return out;
}
