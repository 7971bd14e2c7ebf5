import { mkdtempSync, realpathSync } from 'node:fs';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveToolPath, symlinkOnPath } from '../../../../electron/core/jobs/toolPaths';

const roots = { memoryDir: '/home/me/.claude/projects/-app/memory', transcriptDir: '/home/me/.claude/projects/-app' };

describe('paths the model gives a tool', () => {
  it('resolve inside the memory folder or the transcripts alias, normalised', () => {
    expect(resolveToolPath('notes/a.md', roots)).toEqual({ area: 'memory', rel: 'notes/a.md' });
    expect(resolveToolPath('./notes/../b.md', roots)).toEqual({ area: 'memory', rel: 'b.md' });
    expect(resolveToolPath('', roots)).toEqual({ area: 'memory', rel: '' });
    expect(resolveToolPath('notes/', roots)).toEqual({ area: 'memory', rel: 'notes' });
    expect(resolveToolPath('@transcripts/abc.jsonl', roots)).toEqual({ area: 'transcripts', rel: 'abc.jsonl' });
    expect(resolveToolPath('@transcripts', roots)).toEqual({ area: 'transcripts', rel: '' });
    expect(resolveToolPath(`${roots.memoryDir}/x.md`, roots)).toEqual({ area: 'memory', rel: 'x.md' });
    expect(resolveToolPath(`${roots.transcriptDir}/s.jsonl`, roots)).toEqual({ area: 'transcripts', rel: 's.jsonl' });
  });

  it('are refused when they leave both folders or are not plain text paths', () => {
    for (const raw of [
      '../x.md',
      'a/../../x.md',
      '/etc/passwd',
      '/home/me/.claude/CLAUDE.md',
      '@transcripts/../../x',
      '@transcripts/../../../etc',
    ]) {
      expect(resolveToolPath(raw, roots)).toEqual({ area: 'refused', reason: 'outside the memory folder' });
    }
    expect(resolveToolPath('a\\b.md', roots)).toMatchObject({ area: 'refused' });
    expect(resolveToolPath('a\0.md', roots)).toMatchObject({ area: 'refused' });
    expect(resolveToolPath(42, roots)).toMatchObject({ area: 'refused' });
    expect(resolveToolPath('x'.repeat(2000), roots)).toMatchObject({ area: 'refused' });
    expect(resolveToolPath('@transcripts/a.jsonl', { ...roots, transcriptDir: null })).toEqual({
      area: 'refused',
      reason: 'this memory has no transcript folder',
    });
  });
});

describe('symlinks on the way to a path', () => {
  const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'ccmem-toolpaths-')));
  afterAll(() => rm(tmp, { recursive: true, force: true }));

  it('are found in any segment below the root, and a missing tail is no symlink', async () => {
    await mkdir(join(tmp, 'root', 'real'), { recursive: true });
    await writeFile(join(tmp, 'target.md'), 'x');
    await symlink(join(tmp, 'target.md'), join(tmp, 'root', 'link.md'));
    await symlink(tmp, join(tmp, 'root', 'dirlink'));
    const root = join(tmp, 'root');
    expect(await symlinkOnPath(root, 'link.md')).toBe(join(root, 'link.md'));
    expect(await symlinkOnPath(root, 'dirlink/target.md')).toBe(join(root, 'dirlink'));
    expect(await symlinkOnPath(root, 'real/new.md')).toBeNull();
    expect(await symlinkOnPath(root, 'missing/deeper/new.md')).toBeNull();
  });
});
