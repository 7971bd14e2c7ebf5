import { describe, expect, it } from 'vitest';
import { MAX_PATH_BYTES, unusablePathReason } from '../../../../electron/core/fs/fileNameRules';

describe('unusablePathReason', () => {
  it('takes canonical names, Unicode included', () => {
    for (const path of ['a.md', 'team/MEMORY.md', 'notes/deep/x.md', 'Ünïcödé 記憶.md', `${'n'.repeat(252)}.md`])
      expect(unusablePathReason(path, `/memory/${path}`), path).toBeNull();
  });

  it.each([
    ['', 'a file path is needed'],
    ['a\nb.md', 'the name holds a control character (a newline, a tab, NUL…)'],
    ['a\tb.md', 'the name holds a control character (a newline, a tab, NUL…)'],
    ['a\u007fb.md', 'the name holds a control character (a newline, a tab, NUL…)'],
    ['..\\x.md', 'a backslash is a folder separator on Windows, not part of a file name'],
    ['C:\\x.md', 'a backslash is a folder separator on Windows, not part of a file name'],
    ['a//b.md', 'the path has an empty, "." or ".." part'],
    ['./a.md', 'the path has an empty, "." or ".." part'],
    ['a/../b.md', 'the path has an empty, "." or ".." part'],
    [`${'n'.repeat(253)}.md`, 'a name is longer than 255 bytes'],
    [`${'記'.repeat(85)}.md`, 'a name is longer than 255 bytes'],
  ])('refuses %j', (path, reason) => {
    expect(unusablePathReason(path)).toBe(reason);
  });

  it('refuses a path the system could not open, counted in bytes', () => {
    const deep = Array.from({ length: Math.ceil(MAX_PATH_BYTES / 100) }, () => 'd'.repeat(99)).join('/');
    expect(unusablePathReason(`${deep}.md`)).toBeNull();
    expect(unusablePathReason(`${deep}.md`, `/memory/${deep}.md`)).toBe(
      `the whole path is longer than ${MAX_PATH_BYTES} bytes, the system's limit`,
    );
  });
});
