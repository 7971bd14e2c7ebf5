import { describe, expect, it } from 'vitest';
import {
  filesInScan,
  manifestLine,
  memoryAge,
  memoryFreshnessText,
  recallCut,
  recalledMemoryText,
  truncateEntrypoint,
  entrypointCut,
} from '../../../../shared/memory/modelView';
import { formatFileSize, utf8ByteLength } from '../../../../shared/memory/textMetrics';

const DAY = 86_400_000;
const NOW = Date.parse('2026-06-01T12:00:00.000Z');
const WARNING_TAIL = '. Only part of it was loaded. Keep index entries to one line under ~200 chars; move detail into topic files.';

describe('truncateEntrypoint (Claude Code memdir.ts truncateEntrypointContent)', () => {
  it('trims and otherwise loads a small index whole', () => {
    const result = truncateEntrypoint('\n\n- [A](a.md) — a\n- [B](b.md) — b\n\n\n');
    expect(result).toEqual({
      content: '- [A](a.md) — a\n- [B](b.md) — b',
      lineCount: 2,
      charCount: 31,
      wasLineTruncated: false,
      wasByteTruncated: false,
    });
  });

  it('keeps the first 200 lines and names the line count in the warning', () => {
    const lines = Array.from({ length: 250 }, (_, i) => `- [M${i}](m${i}.md) — hook`);
    const result = truncateEntrypoint(lines.join('\n'));
    expect(result.wasLineTruncated).toBe(true);
    expect(result.wasByteTruncated).toBe(false);
    expect(result.content).toBe(`${lines.slice(0, 200).join('\n')}\n\n> WARNING: MEMORY.md is 250 lines (limit: 200)${WARNING_TAIL}`);
  });

  it('cuts at the last newline before 25,000 characters when lines are long', () => {
    const line = 'x'.repeat(999);
    const raw = Array.from({ length: 30 }, () => line).join('\n');
    const result = truncateEntrypoint(raw);
    expect(result.wasByteTruncated).toBe(true);
    expect(result.wasLineTruncated).toBe(false);
    const kept = result.content.slice(0, result.content.indexOf('\n\n> WARNING'));
    expect(kept).toBe(Array.from({ length: 25 }, () => line).join('\n'));
    expect(result.content).toContain(
      `> WARNING: MEMORY.md is ${formatFileSize(raw.length)} (limit: 24.4KB) — index entries are too long${WARNING_TAIL}`,
    );
  });

  it('names both caps when both are exceeded, and counts UTF-16 units like JS does', () => {
    const raw = Array.from({ length: 300 }, () => '€'.repeat(200)).join('\n');
    const result = truncateEntrypoint(raw);
    expect(result.charCount).toBe(300 * 200 + 299);
    expect(result.content.endsWith(`> WARNING: MEMORY.md is 300 lines and ${formatFileSize(60299)}${WARNING_TAIL}`)).toBe(true);
    expect(result.content.indexOf('\n\n> WARNING')).toBeLessThanOrEqual(25_000);
  });

  it('hard-cuts a single line longer than the cap', () => {
    const result = truncateEntrypoint('y'.repeat(30_000));
    expect(result.content.startsWith(`${'y'.repeat(25_000)}\n\n> WARNING`)).toBe(true);
  });
});

describe('ages and freshness (memoryAge.ts)', () => {
  it('says today, yesterday, then N days ago', () => {
    expect(memoryAge(NOW - 1000, NOW)).toBe('today');
    expect(memoryAge(NOW - DAY - 1000, NOW)).toBe('yesterday');
    expect(memoryAge(NOW - 3 * DAY, NOW)).toBe('3 days ago');
    expect(memoryAge(NOW + DAY, NOW)).toBe('today');
  });

  it('gives the caveat only from two days on, in Claude Code words', () => {
    expect(memoryFreshnessText(NOW - DAY, NOW)).toBe('');
    expect(memoryFreshnessText(NOW - 47 * DAY, NOW)).toBe(
      'This memory is 47 days old. Memories are point-in-time observations, not live state — claims about code behavior or file:line citations may be outdated. Verify against current code before asserting as fact.',
    );
  });
});

describe('recall (attachments.ts readMemoriesForSurfacing)', () => {
  it('reads a short file whole, dropping CR and the BOM', () => {
    const cut = recallCut('\uFEFF---\r\nname: x\r\n---\r\nbody\r\n');
    expect(cut).toEqual({ content: '---\nname: x\n---\nbody\n', lineCount: 5, totalLines: 5, truncated: false, reason: null });
  });

  it('stops after 200 lines', () => {
    const text = Array.from({ length: 300 }, (_, i) => `l${i}`).join('\n');
    const cut = recallCut(text);
    expect(cut.lineCount).toBe(200);
    expect(cut.truncated).toBe(true);
    expect(cut.reason).toBe('lines');
  });

  it('stops before the line that would pass 4,096 UTF-8 bytes', () => {
    const line = 'ä'.repeat(100);
    const text = Array.from({ length: 40 }, () => line).join('\n');
    const cut = recallCut(text);
    expect(cut.reason).toBe('bytes');
    expect(utf8ByteLength(cut.content)).toBeLessThanOrEqual(4096);
    expect(cut.lineCount).toBe(Math.floor((4096 + 1) / 201));
  });

  it('wraps the recalled text with its header and the truncation note', () => {
    const fresh = recalledMemoryText('/m/a.md', NOW - 1000, 'hello', NOW);
    expect(fresh).toBe('<system-reminder>\nMemory (saved today): /m/a.md:\n\nhello\n</system-reminder>');
    const old = recalledMemoryText('/m/a.md', NOW - 5 * DAY, 'x\n'.repeat(300), NOW);
    expect(old).toContain('This memory is 5 days old.');
    expect(old).toContain('\n\nMemory: /m/a.md:\n\n');
    expect(old).toContain('> This memory file was truncated (first 200 lines). Use the Read tool to view the complete file at: /m/a.md');
  });
});

describe('the 200-newest scan and the manifest', () => {
  it('keeps the 200 newest by mtime', () => {
    const files = Array.from({ length: 210 }, (_, i) => ({ relativePath: `f${String(i).padStart(3, '0')}.md`, mtimeMs: NOW - i * 1000 }));
    const inScan = filesInScan(files);
    expect(inScan.size).toBe(200);
    expect(inScan.has('f000.md')).toBe(true);
    expect(inScan.has('f199.md')).toBe(true);
    expect(inScan.has('f200.md')).toBe(false);
  });

  it('formats manifest lines with and without type and description', () => {
    const mtime = Date.parse('2026-05-02T09:00:00.000Z');
    expect(manifestLine('a.md', 'user', mtime, 'Prefers pnpm')).toBe('- [user] a.md (2026-05-02T09:00:00.000Z): Prefers pnpm');
    expect(manifestLine('b.md', null, mtime, null)).toBe('- b.md (2026-05-02T09:00:00.000Z)');
  });
});

describe('entrypointCut: where loading stops in the index as written', () => {
  it('is null for an index that loads whole', () => {
    expect(entrypointCut('- [A](a.md)\n')).toBeNull();
  });

  it('falls after line 200, past leading blank lines Claude Code trims', () => {
    const raw = `\n\n${Array.from({ length: 210 }, (_, i) => `line ${i + 1}`).join('\n')}\n`;
    const cut = entrypointCut(raw);
    expect(cut).toMatchObject({ line: 203, byLines: true, byChars: false });
    expect(raw.slice(0, cut?.offset)).toBe(`\n\n${Array.from({ length: 200 }, (_, i) => `line ${i + 1}`).join('\n')}`);
    expect(truncateEntrypoint(raw).content.startsWith(raw.slice(0, cut?.offset).trim())).toBe(true);
  });

  it('falls at the last line break before 25,000 characters', () => {
    const raw = Array.from({ length: 100 }, () => 'x'.repeat(299)).join('\n');
    const cut = entrypointCut(raw);
    expect(cut).toMatchObject({ offset: 83 * 300 - 1, line: 84, byLines: false, byChars: true });
  });
});
