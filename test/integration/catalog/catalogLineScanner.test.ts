/**
 * The catalog's byte scanner against `JSON.parse` on every line of real Claude Code files
 * (../shared/fixtures/claude-real, see its SOURCES.md) and of a generated bench home: what the catalog reads
 * of a line must be exactly what parsing the whole line would have given it, and a line it refuses is one
 * `JSON.parse` refuses.
 */
import { isUtf8 } from 'node:buffer';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path, { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateHome, type GeneratedHome } from '../../../bench/generator/generateHome';
import { pickFields } from '../../../electron/core/jsonl/jsonFieldScanner';
import { CATALOG_FIELDS, isBlankLine, needsMessageTexts, parseTranscriptLine } from '../../../electron/core/catalog/transcriptLineParser';

/** The fixtures beside the repository (a worktree elsewhere names them with CCMEM_REAL_FIXTURES). */
const FIXTURES = process.env.CCMEM_REAL_FIXTURES ?? path.resolve(__dirname, '../../../../shared/fixtures/claude-real');
const present = existsSync(join(FIXTURES, 'SOURCES.md'));
if (!present) console.warn(`[catalog line scanner] SKIPPED the real files: fixtures not found at ${FIXTURES}.`);

/** What parsing the whole line gives the catalog: its fields, or null for a line that is not one UTF-8 JSON object. */
function parsedReference(line: Buffer): Record<string, unknown> | null {
  const bytes = line.at(-1) === 0x0d ? line.subarray(0, -1) : line;
  if (!isUtf8(bytes)) return null;
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? pickFields(value as Record<string, unknown>, CATALOG_FIELDS, needsMessageTexts)
      : null;
  } catch {
    return null;
  }
}

interface Comparison {
  readonly lines: number;
  readonly refused: number;
  /** Up to a few lines where the two disagree, with where they come from. */
  readonly mismatches: string[];
}

function compareEveryLine(root: string): Comparison {
  let lines = 0;
  let refused = 0;
  const mismatches: string[] = [];
  const files = (readdirSync(root, { recursive: true, encoding: 'utf8' }) as string[]).filter((name) => name.endsWith('.jsonl'));
  for (const name of files) {
    const content = readFileSync(join(root, name));
    let start = 0;
    let lineNumber = 0;
    while (start < content.length) {
      const newline = content.indexOf(0x0a, start);
      const end = newline < 0 ? content.length : newline;
      const line = content.subarray(start, end);
      start = end + 1;
      lineNumber++;
      if (isBlankLine(line)) continue;
      lines++;
      const expected = parsedReference(line);
      if (expected === null) refused++;
      if (!isDeepStrictEqual(parseTranscriptLine(line), expected) && mismatches.length < 5) mismatches.push(`${name}:${lineNumber}`);
    }
  }
  return { lines, refused, mismatches };
}

describe('the catalog line scanner equals JSON.parse', () => {
  let tmp: string;
  let home: GeneratedHome;

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'ccmem-line-scanner-'));
    home = await generateHome({ size: 'small', seed: 5, out: join(tmp, 'home') });
  }, 60_000);
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  (present ? it : it.skip)('on every line of the real Claude Code files', () => {
    const result = compareEveryLine(FIXTURES);
    expect(result.lines).toBeGreaterThan(1000);
    expect(result.mismatches).toEqual([]);
  });

  it('on every line of a generated bench home, its broken lines included', () => {
    const result = compareEveryLine(join(home.root, 'projects'));
    expect(result.lines).toBeGreaterThan(10_000);
    // The generator writes some cut lines, as a crash mid-write leaves them: they are refused by both.
    expect(result.refused).toBeGreaterThan(0);
    expect(result.mismatches).toEqual([]);
  }, 60_000);
});
