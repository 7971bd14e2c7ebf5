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
} from '../../../electron/core/jobs/transcriptAccess';

const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'ccmem-access-')));
afterAll(() => rm(tmp, { recursive: true, force: true }));

describe('reading transcripts without reading them whole', () => {
  it('returns a window cut at a line end, and the offset to go on from', async () => {
    const file = join(tmp, 'big.jsonl');
    const line = `{"text":"${'y'.repeat(1000)}"}`;
    const text = `${Array.from({ length: 100 }, () => line).join('\n')}\n`;
    await writeFile(file, text);
    const first = await readTranscriptWindow(file, 0);
    expect(first.size).toBe(text.length);
    expect(first.nextOffset).toBeLessThanOrEqual(TRANSCRIPT_WINDOW_BYTES);
    expect(first.nextOffset! % (line.length + 1)).toBe(0);
    const last = await readTranscriptWindow(file, text.length - (line.length + 1));
    expect(last.nextOffset).toBeNull();
    expect(last.text.trim()).toBe(line);
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
