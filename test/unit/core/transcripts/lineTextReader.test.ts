import { describe, expect, it } from 'vitest';
import type { RandomAccessSource, SourceOpener } from '../../../../electron/core/fs/randomAccessSource';
import { readLineTexts } from '../../../../electron/core/transcripts/lineTextReader';
import type { IndexedLine } from '../../../../shared/transcript/indexedLine';

/** Lines 300 KB apart, each far enough from the next to need a read of its own. */
const GAP = 300 * 1024;
const LINE_COUNT = 20;

function fileWithSpreadLines(): { bytes: Buffer; lines: IndexedLine[] } {
  const bytes = Buffer.alloc(GAP * LINE_COUNT, 0x20);
  const lines: IndexedLine[] = [];
  for (let i = 0; i < LINE_COUNT; i++) {
    const text = Buffer.from(`{"n":${i}}`);
    text.copy(bytes, i * GAP);
    lines.push({ line: i * 10 + 1, offset: i * GAP, length: text.length, unreadable: null } as IndexedLine);
  }
  return { bytes, lines };
}

/** The bytes as a source whose reads finish in reverse order of their positions, counting how many are in flight. */
function slowFirstSource(bytes: Buffer, inFlight: { now: number; most: number }): SourceOpener {
  const source: RandomAccessSource = {
    stat: () => Promise.resolve({ size: bytes.length, mtimeMs: 0, dev: 0, ino: 0 }),
    read: async (buffer, offset, length, position) => {
      inFlight.now++;
      inFlight.most = Math.max(inFlight.most, inFlight.now);
      await new Promise((resolve) => setTimeout(resolve, (bytes.length - position) / GAP));
      inFlight.now--;
      return { bytesRead: bytes.copy(buffer, offset, position, Math.min(position + length, bytes.length)) };
    },
    close: () => Promise.resolve(),
  };
  return () => Promise.resolve(source);
}

describe('readLineTexts', () => {
  it('reads far-apart lines a few at a time and hands them back in file order', async () => {
    const { bytes, lines } = fileWithSpreadLines();
    const inFlight = { now: 0, most: 0 };
    const texts = await readLineTexts('/spread.jsonl', [...lines].reverse(), slowFirstSource(bytes, inFlight));
    expect([...texts.keys()]).toEqual(lines.map((line) => line.line));
    expect([...texts.values()]).toEqual(lines.map((_, i) => `{"n":${i}}`));
    expect(inFlight.most).toBeGreaterThan(1);
    expect(inFlight.most).toBeLessThanOrEqual(8);
  });
});
