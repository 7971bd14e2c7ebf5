import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseWindowLines } from '../../../electron/core/jsonl/jsonlWindow';
import { LITE_READ_BYTES, readSessionQuickInfo } from '../../../electron/core/layout/sessionQuickInfo';
import { recordFigure } from '../support/figureLog';
import { atScale, timeoutAtScale } from '../support/reliabilityScale';

const NEWLINE = 0x0a;

/** Realistic transcript lines (with multi-byte text) to mutate: the fuzzer starts from what Claude Code writes. */
const realisticLines: readonly string[] = [
  JSON.stringify({
    type: 'user',
    uuid: 'u1',
    parentUuid: null,
    cwd: '/home/me/app',
    message: { role: 'user', content: 'Fix the café menu 🍰' },
  }),
  JSON.stringify({ type: 'assistant', uuid: 'a1', parentUuid: 'u1', message: { content: [{ type: 'text', text: '好的, 修复了' }] } }),
  JSON.stringify({ type: 'ai-title', sessionId: 's', aiTitle: 'Ünïcödé title' }),
  JSON.stringify({ type: 'custom-title', sessionId: 's', customTitle: '<script>alert(1)</script>' }),
  JSON.stringify({ type: 'system', subtype: 'compact_boundary', parentUuid: null, logicalParentUuid: 'a1' }),
  '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"type":"user"}',
];

/** Lines that are broken in the ways real files break, or the ways an attacker would break them. */
const brokenLine = fc.oneof(
  fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)),
  fc.string({ maxLength: 200 }).map((text) => Buffer.from(text)),
  fc
    .constantFrom(...realisticLines)
    .chain((line) => fc.nat({ max: Buffer.byteLength(line) }).map((cut) => Buffer.from(line).subarray(0, cut))),
  fc.constantFrom(
    Buffer.from([0xc3]),
    Buffer.from([0xe5, 0xa5]),
    Buffer.from([0xf0, 0x9f, 0x8d]),
    Buffer.from([0xff, 0xfe, 0x00, 0x7b]),
    Buffer.from('\uFEFF{"type":"user"}'),
    Buffer.from('{"type":"user"}\r'),
    Buffer.from('\u0000\u0000\u0000'),
    Buffer.from('[1,2,3]'),
    Buffer.from('"just a string"'),
    Buffer.from('null'),
    Buffer.from('1e999999'),
    Buffer.from(`${'['.repeat(50_000)}${']'.repeat(50_000)}`),
    Buffer.from(`{"a":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_001)}`),
    Buffer.from(`{"text":"${'\\u0000'.repeat(1000)}"}`),
    Buffer.from('{"type":"user","message":{"content":"\\ud800"}}'),
  ),
);

const anyLine = fc.oneof(
  { arbitrary: fc.constantFrom(...realisticLines).map((line) => Buffer.from(line)), weight: 2 },
  { arbitrary: brokenLine, weight: 3 },
);

function joinLines(lines: readonly Buffer[], trailingNewline: boolean): Buffer {
  const parts: Buffer[] = [];
  lines.forEach((line, index) => {
    parts.push(line);
    if (index < lines.length - 1 || trailingNewline) parts.push(Buffer.from([NEWLINE]));
  });
  return Buffer.concat(parts);
}

const workDir = mkdtempSync(join(tmpdir(), 'ccmem-jsonl-fuzz-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

function isPlainRecord(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

describe('fuzzed JSONL never crashes the reader', () => {
  it(
    'parses any window of any bytes into plain records and counts, never throwing',
    () => {
      let tried = 0;
      fc.assert(
        fc.property(
          fc.array(anyLine, { maxLength: 40 }),
          fc.boolean(),
          fc.boolean(),
          fc.boolean(),
          (lines, trailing, startsFile, endsFile) => {
            tried += lines.length;
            const window = joinLines(lines, trailing);
            const result = parseWindowLines(window, startsFile, endsFile);
            const segments = window.length === 0 ? 0 : window.toString('latin1').split('\n').length;
            expect(result.records.length + result.invalidJson + result.invalidUtf8).toBeLessThanOrEqual(segments);
            for (const record of result.records) expect(isPlainRecord(record)).toBe(true);
            expect(({} as Record<string, unknown>).polluted).toBeUndefined();
          },
        ),
        { numRuns: atScale(300, 20_000) },
      );
      recordFigure('badInputs', { tried }, 'parsers');
    },
    timeoutAtScale(20_000, 900_000),
  );

  it(
    'finds every valid line of a clean file, and loses at most the one line a window cut splits',
    () => {
      fc.assert(
        fc.property(fc.array(fc.constantFrom(...realisticLines), { minLength: 1, maxLength: 30 }), fc.nat(), (lines, cutSeed) => {
          const whole = Buffer.from(`${lines.join('\n')}\n`);
          const all = parseWindowLines(whole, true, true);
          expect(all.records).toHaveLength(lines.length);
          expect(all.invalidJson + all.invalidUtf8).toBe(0);
          // Cutting anywhere, even inside a multi-byte character, drops at most the line that straddles the cut.
          const cut = cutSeed % (whole.length + 1);
          const head = parseWindowLines(whole.subarray(0, cut), true, false);
          const tail = parseWindowLines(whole.subarray(cut), false, true);
          const found = head.records.length + tail.records.length;
          expect(found).toBeGreaterThanOrEqual(lines.length - 1);
          expect(found).toBeLessThanOrEqual(lines.length);
          expect(head.invalidJson + head.invalidUtf8 + tail.invalidJson + tail.invalidUtf8).toBe(0);
        }),
        { numRuns: atScale(300, 20_000) },
      );
    },
    timeoutAtScale(20_000, 900_000),
  );

  it(
    'reads the session summary of fuzzed transcript files without throwing',
    async () => {
      let tried = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(anyLine, { maxLength: 30 }),
          fc.boolean(),
          fc.constantFrom(0, 1, LITE_READ_BYTES - 10, LITE_READ_BYTES + 10, 3 * LITE_READ_BYTES),
          async (lines, trailing, padding) => {
            tried += lines.length;
            const file = join(workDir, `fuzz-${tried}.jsonl`);
            // Padding pushes the fuzzed lines across the 64 KiB head/tail boundary of the lite read.
            const pad = padding > 0 ? Buffer.from(`${JSON.stringify({ type: 'user', pad: 'x'.repeat(padding) })}\n`) : Buffer.alloc(0);
            writeFileSync(file, Buffer.concat([joinLines(lines, trailing), Buffer.from('\n'), pad, joinLines(lines, trailing)]));
            const info = await readSessionQuickInfo(file, 'fuzzed');
            expect(info.sessionId).toBe('fuzzed');
            expect(info.title === null || typeof info.title === 'string').toBe(true);
            expect(info.cwd === null || typeof info.cwd === 'string').toBe(true);
            expect(Array.isArray(info.warnings)).toBe(true);
            rmSync(file);
          },
        ),
        { numRuns: atScale(80, 4_000) },
      );
      recordFigure('badInputs', { tried }, 'parsers');
    },
    timeoutAtScale(30_000, 900_000),
  );
});
