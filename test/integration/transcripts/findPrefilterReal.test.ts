/**
 * Find's byte test on real Claude Code transcripts (../shared/fixtures/claude-real, read in place): it passes every
 * line the text test passes, for queries with letters in both cases, JSON escapes and the common words of a session.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path, { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { asciiQueryPrefilter } from '../../../electron/core/transcripts/findPrefilter';

const FIXTURES = path.resolve(__dirname, '../../../../shared/fixtures/claude-real');
const present = existsSync(join(FIXTURES, 'SOURCES.md'));
const QUERIES = ['the', 'Error', 'error:', '"', '\\', '\n', 'k', 'i', 'tool_use', 'Memory', 'claude', '.md', ' '];

(present ? describe : describe.skip)('the find prefilter on real Claude Code transcripts', () => {
  it('turns down no line the text test would find the query in', async () => {
    const files = (await readdir(FIXTURES, { recursive: true })).filter((name) => name.endsWith('.jsonl'));
    expect(files.length).toBeGreaterThan(0);
    let found = 0;
    let turnedDown = 0;
    for (const name of files) {
      const bytes = await readFile(join(FIXTURES, name));
      for (let start = 0; start < bytes.length;) {
        const newline = bytes.indexOf(10, start);
        const next = newline < 0 ? bytes.length : newline + 1;
        const end = newline < 0 ? bytes.length : bytes[newline - 1] === 13 ? newline - 1 : newline;
        const text = bytes.toString('utf8', start, end).toLowerCase();
        for (const query of QUERIES) {
          const passes = asciiQueryPrefilter(query)!(bytes, start, end);
          if (text.includes(query.toLowerCase()) || text.includes(JSON.stringify(query).slice(1, -1).toLowerCase())) {
            found++;
            expect(passes, `${JSON.stringify(query)} in ${name}`).toBe(true);
          } else if (!passes) turnedDown++;
        }
        start = next;
      }
    }
    expect(found).toBeGreaterThan(1000);
    expect(turnedDown).toBeGreaterThan(1000);
  });
});
