import { mkdtempSync, realpathSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  fileLines,
  grepAlternatives,
  grepRealFiles,
  readTranscriptWindow,
  TRANSCRIPT_WINDOW_BYTES,
  TranscriptLineIndex,
} from '../../../../electron/core/jobs/transcriptAccess';

const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'ccmem-access-')));
afterAll(() => rm(tmp, { recursive: true, force: true }));

describe('reading transcripts without reading them whole', () => {
  it('returns a window cut at a line end, and the offset to go on from', async () => {
    const file = join(tmp, 'big.jsonl');
    const line = `{"text":"${'y'.repeat(1000)}"}`;
    const text = `${Array.from({ length: 100 }, () => line).join('\n')}\n`;
    await writeFile(file, text);
    const first = await readTranscriptWindow(file, 0, 1);
    expect(first.size).toBe(text.length);
    expect(first.nextOffset).toBeLessThanOrEqual(TRANSCRIPT_WINDOW_BYTES);
    expect(first.nextOffset! % (line.length + 1)).toBe(0);
    expect(first.text.startsWith(`(line 1) ${line}\n(line 2) ${line}\n`)).toBe(true);
    const last = await readTranscriptWindow(file, text.length - (line.length + 1), 100);
    expect(last.nextOffset).toBeNull();
    expect(last.text.trim()).toBe(`(line 100) ${line}`);
  });

  it('numbers the lines of any window by counting from the nearest offset it already knows', async () => {
    const file = join(tmp, 'numbered.jsonl');
    const lines = Array.from({ length: 3000 }, (_, i) => `{"n":${i + 1},"pad":"${'p'.repeat(i % 50)}"}`);
    await writeFile(file, `${lines.join('\n')}\n`);
    const index = new TranscriptLineIndex();
    const offsetOf = (n: number) => lines.slice(0, n - 1).reduce((sum, l) => sum + Buffer.byteLength(l) + 1, 0);
    let offset = 0;
    let expected = 1;
    // Read on window by window, as the model does, then jump back and into the middle of a line.
    while (offset < offsetOf(3000)) {
      const window = await readTranscriptWindow(file, offset, await index.lineAt(file, offset));
      expect(window.text.startsWith(`(line ${expected}) {"n":${expected},`)).toBe(true);
      if (window.nextOffset === null) break;
      expected += window.text.split('\n').filter((l) => l !== '').length;
      offset = window.nextOffset;
    }
    expect(await index.lineAt(file, offsetOf(1234))).toBe(1234);
    expect(await index.lineAt(file, offsetOf(17) + 3)).toBe(17);
  });

  it('streams lines, skipping one longer than 8 MiB, and keeps a last line without a newline', async () => {
    const file = join(tmp, 'lines.jsonl');
    await writeFile(file, `first\n${'z'.repeat(8 * 1024 * 1024 + 10)}\nthird\nlast`);
    const seen: [number, string][] = [];
    for await (const { bytes, lineNumber } of fileLines(file, new AbortController().signal))
      seen.push([lineNumber, bytes.toString('utf8')]);
    expect(seen).toEqual([
      [1, 'first'],
      [3, 'third'],
      [4, 'last'],
    ]);
  });

  it('greps case-insensitively for literal alternatives and keeps the most recent matches of a file', async () => {
    const file = join(tmp, 'grep.jsonl');
    await writeFile(file, `${Array.from({ length: 10 }, (_, i) => `line ${i} mentions Make Test (.*)`).join('\n')}\n`);
    expect(grepAlternatives(' make test | (.*) |')).toEqual(['make test', '(.*)']);
    const matches = await grepRealFiles(
      [{ path: file, shownAs: '@transcripts/grep.jsonl' }],
      ['make test'],
      3,
      new AbortController().signal,
    );
    expect(matches.map((m) => m.line)).toEqual([8, 9, 10]);
    expect(matches[0]).toEqual({ file: '@transcripts/grep.jsonl', line: 8, excerpt: 'line 7 mentions Make Test (.*)' });
  });
});
