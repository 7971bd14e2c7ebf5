import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readJsonlLines, ReadBuffers } from '../../../electron/core/jsonl/fileLineReader';

const tmp = mkdtempSync(join(tmpdir(), 'ccmem-jsonl-reader-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Lines shorter and longer than the 1 MiB read size, with multi-byte characters (7 bytes a repeat) at the seams. */
function linesFor(seed: number): string[] {
  const sizes = [10, 1024 * 1024 - 3, 5, 3 * 1024 * 1024 + 7, 1024 * 1024 + 1, 200_000, 1];
  return sizes.map((bytes, i) => `${seed}:${i}:${'é🧪x'.repeat(Math.ceil(bytes / 7))}`);
}

async function readAll(path: string, buffers?: ReadBuffers): Promise<{ lines: string[]; offset: number }> {
  const lines: string[] = [];
  const result = await readJsonlLines(path, {
    fromOffset: 0,
    buffers,
    onLine: (line, lineNumber) => {
      expect(lineNumber).toBe(lines.length + 1);
      lines.push(line.toString('utf8'));
    },
  });
  return { lines, offset: result.offset };
}

describe('readJsonlLines', () => {
  it('delivers lines longer than one read whole, also to several files reading at once with shared buffers', async () => {
    const files = [1, 2, 3].map((seed) => {
      const path = join(tmp, `long-${seed}.jsonl`);
      writeFileSync(path, `${linesFor(seed).join('\n')}\n`);
      return path;
    });
    const buffers = new ReadBuffers();
    const read = await Promise.all(files.map((path) => readAll(path, buffers)));
    read.forEach(({ lines }, i) => expect(lines).toEqual(linesFor(i + 1)));
    // Read again one after another with the same buffers, and without shared buffers: the same lines.
    for (const [i, path] of files.entries()) {
      expect((await readAll(path, buffers)).lines).toEqual(linesFor(i + 1));
      expect((await readAll(path)).lines).toEqual(linesFor(i + 1));
    }
  });

  it('holds back a long last line that has no newline yet', async () => {
    const path = join(tmp, 'partial.jsonl');
    const [first, long] = linesFor(9)
      .slice(0, 4)
      .filter((line) => line.length > 1000);
    writeFileSync(path, `${first}\n${long}`);
    const { lines, offset } = await readAll(path, new ReadBuffers());
    expect(lines).toEqual([first]);
    expect(offset).toBe(Buffer.byteLength(first) + 1);
  });
});

describe('ReadBuffers', () => {
  it('hands back a buffer given back instead of a new one', () => {
    const buffers = new ReadBuffers();
    const taken = buffers.take();
    buffers.giveBack(taken);
    expect(buffers.take()).toBe(taken);
    expect(buffers.take()).not.toBe(taken);
  });
});
