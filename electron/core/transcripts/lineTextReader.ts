import { openFromDisk, type SourceOpener } from '../fs/randomAccessSource';
import type { IndexedLine } from '../../../shared/transcript/indexedLine';
import type { LineBytesTest } from './findPrefilter';

/** Lines closer than this are read in one go (skipping a small gap is cheaper than another read call). */
const MAX_GAP_BYTES = 64 * 1024;
/** One read never spans more than this. */
const MAX_SPAN_BYTES = 4 * 1024 * 1024;

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
  const handle = await opener(path);
  try {
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
      // Not zero-filled: only the bytes read are ever looked at.
      const buffer = Buffer.allocUnsafe(spanEnd - spanStart);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, spanStart);
      for (let k = i; k < j; k++) {
        const line = wanted[k];
        const from = line.offset - spanStart;
        if (from + line.length > bytesRead) {
          out.set(line.line, null);
          continue;
        }
        let end = from + line.length;
        if (end > from && buffer[end - 1] === 0x0d) end--;
        if (accept && !accept(buffer, from, end)) continue;
        out.set(line.line, buffer.toString('utf8', from, end));
      }
      i = j;
    }
  } finally {
    await handle.close();
  }
  return out;
}
