import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readJsonlLines, ReadBuffers } from '../../../../electron/core/jsonl/fileLineReader';
import { READ_CHUNK_BYTES } from '../../../../electron/core/jsonl/lineSplitter';
import { readLines } from '../../../../electron/core/jsonl/sourceLineReader';

const workDir = mkdtempSync(join(tmpdir(), 'ccmem-line-splitter-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

/** What a reader saw of one complete line: its text, or the byte length of a line it skipped as too long. */
type Seen = { readonly number: number; readonly text: string } | { readonly number: number; readonly skipped: number };

/** The lines as a plain `split('\n')` sees them: the last piece is the partial line (empty when the file ends with a newline). */
function naiveSplit(bytes: Buffer, start: number, firstNumber: number, maxLineBytes: number): { seen: Seen[]; partial: Buffer } {
  const pieces = bytes.subarray(start).toString('latin1').split('\n');
  const partial = Buffer.from(pieces.pop() ?? '', 'latin1');
  const seen = pieces.map((piece, i): Seen => {
    const line = Buffer.from(piece, 'latin1');
    if (line.length > maxLineBytes) return { number: firstNumber + i, skipped: line.length };
    const text = line.at(-1) === 0x0d ? line.subarray(0, -1) : line;
    return { number: firstNumber + i, text: text.toString('latin1') };
  });
  return { seen, partial };
}

/** Line lengths around the seams that matter: the smallest own buffer (16 KiB), the read size (1 MiB), and several reads. */
const SEAM_LENGTHS = [
  16 * 1024 - 1,
  16 * 1024,
  16 * 1024 + 1,
  READ_CHUNK_BYTES - 1,
  READ_CHUNK_BYTES,
  READ_CHUNK_BYTES + 1,
  2 * READ_CHUNK_BYTES + 7,
];

const lineText = fc.oneof(
  { arbitrary: fc.string({ maxLength: 60, unit: fc.constantFrom('a', 'é', '{', '"', '\r', ' ') }), weight: 6 },
  { arbitrary: fc.constantFrom(...SEAM_LENGTHS).map((length) => 'x'.repeat(length)), weight: 2 },
);

const fileShape = fc.record({
  lines: fc.array(fc.record({ text: lineText, crlf: fc.boolean() }), { maxLength: 8 }),
  partial: fc.oneof(fc.constant(''), lineText),
  startAt: fc.nat(),
  maxLineBytes: fc.constantFrom(30, 20_000, 1_500_000, 32 * 1024 * 1024),
});

const TAIL_BYTES = 5;
let files = 0;

describe('both line readers split like a naive split', () => {
  it('deliver the same lines, skip the same over-long ones, and hold back the same partial last line', async () => {
    await fc.assert(
      fc.asyncProperty(fileShape, async ({ lines, partial, startAt, maxLineBytes }) => {
        const bytes = Buffer.from(lines.map(({ text, crlf }) => `${text}${crlf ? '\r' : ''}\n`).join('') + partial, 'latin1');
        const path = join(workDir, `f${++files}.jsonl`);
        writeFileSync(path, bytes);
        // Start at a line boundary, as a read continued from a saved offset does.
        const boundaries = [0];
        for (const { text, crlf } of lines) boundaries.push(boundaries[boundaries.length - 1] + text.length + (crlf ? 2 : 1));
        const startLine = startAt % boundaries.length;
        const start = boundaries[startLine];
        const expected = naiveSplit(bytes, start, startLine + 1, maxLineBytes);
        const committed = bytes.length - expected.partial.length;
        const tail = bytes.subarray(Math.max(0, committed - TAIL_BYTES), committed);

        for (const buffers of [undefined, new ReadBuffers()]) {
          const seen: Seen[] = [];
          const result = await readJsonlLines(path, {
            fromOffset: start,
            linesBefore: startLine,
            maxLineBytes,
            buffers,
            tailBytes: TAIL_BYTES,
            onLine: (line, number) => seen.push({ number, text: line.toString('latin1') }),
            onOversizedLine: (number, skipped) => seen.push({ number, skipped }),
          });
          expect(seen).toEqual(expected.seen);
          expect(result.offset).toBe(committed);
          expect(result.tail).toEqual(tail);
          expect(result.lines).toBe(startLine + expected.seen.length);
          expect(result.size).toBe(bytes.length);
        }

        const handle = await open(path, 'r');
        try {
          const seen: Seen[] = [];
          const result = await readLines(
            handle,
            { start, end: bytes.length, firstLineNumber: startLine + 1, maxLineBytes, tailBytes: TAIL_BYTES },
            (line, offset, length, number) => {
              expect(bytes.subarray(offset, offset + length).includes(0x0a)).toBe(false);
              seen.push(line === null ? { number, skipped: length } : { number, text: line.toString('latin1') });
            },
          );
          expect(seen).toEqual(expected.seen);
          expect(result.committedBytes).toBe(committed);
          expect(result.tail).toEqual(tail);
          expect(result.nextLineNumber).toBe(startLine + 1 + expected.seen.length);
          const partialText = expected.partial.at(-1) === 0x0d ? expected.partial.subarray(0, -1) : expected.partial;
          const keptPartial =
            expected.partial.length > 0 && expected.partial.length <= maxLineBytes ? partialText.toString('latin1') : null;
          expect(result.partialTail?.toString('latin1') ?? null).toBe(keptPartial);
        } finally {
          await handle.close();
        }
        rmSync(path);
      }),
      { numRuns: 80 },
    );
  }, 120_000);
});
