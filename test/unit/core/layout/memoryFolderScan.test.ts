import { mkdtempSync, realpathSync } from 'node:fs';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanMemoryFolder } from '../../../../electron/core/layout/memoryFolderScan';
import { summarizeMemoryFile } from '../../../../electron/core/memory/memoryFileSummary';
import { topicFile } from '../../../fixtures/scenarioHome';

let tmp: string;
let memoryDir: string;

async function put(rel: string, content: string | Buffer): Promise<string> {
  const path = join(memoryDir, rel);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, content);
  return path;
}

beforeAll(async () => {
  tmp = realpathSync(mkdtempSync(join(tmpdir(), 'ccmem-memscan-')));
  memoryDir = join(tmp, 'memory');
  await put('MEMORY.md', '- [A](a.md) — a\n');
  await put('a.md', topicFile({ variant: 'flat', name: 'A', description: 'first', type: 'user' }));
  await put('feedback/repro.md', topicFile({ variant: 'nested-node-type', name: 'repro', description: 'nested folder', type: 'feedback' }));
  await put('team/MEMORY.md', '- [T](t.md)\n');
  await put('team/t.md', topicFile({ variant: 'nested', name: 'T', description: 'team', type: 'project' }));
  await put('logs/2026/05/2026-05-01.md', '# daily log\n');
  await put('UPPER.MD', 'no frontmatter\n');
  await put('notes.txt', 'not markdown');
  await put('.consolidate-lock', '123');
  await put('weird-type.md', topicFile({ variant: 'flat', name: 'W', description: 'w', type: 'opinion' }));
  await put('exec.md', '---js\n(globalThis.__ccmemScanCanary = 1, {})\n---\n');
  await put('broken.md', '---\nname: broken: yes\ntype: reference\n---\n');
  await put('binary.md', Buffer.from([0x2d, 0x2d, 0x2d, 0x0a, 0x00, 0x01, 0x02]));
  // Symlinks: a broken one is a warning; a symlinked folder is not followed (no loops, no escape).
  await symlink(join(tmp, 'gone.md'), join(memoryDir, 'dangling.md'));
  await mkdir(join(tmp, 'outside'), { recursive: true });
  await writeFile(join(tmp, 'outside', 'escaped.md'), 'outside\n');
  await symlink(join(tmp, 'outside'), join(memoryDir, 'linked-folder'));
  await symlink(memoryDir, join(memoryDir, 'loop'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('scanMemoryFolder', () => {
  it('finds every *.md recursively except any MEMORY.md, sorted, with forward-slash relative paths (`.MD` is not one, as for Claude Code)', async () => {
    const scan = await scanMemoryFolder(memoryDir);
    expect(scan.topicFiles.map((f) => f.relativePath)).toEqual([
      'a.md',
      'binary.md',
      'broken.md',
      'exec.md',
      'feedback/repro.md',
      'logs/2026/05/2026-05-01.md',
      'team/t.md',
      'weird-type.md',
    ]);
    expect(scan.topicFiles.every((f) => f.absolutePath === join(memoryDir, f.relativePath))).toBe(true);
  });

  it('warns about the broken symlink and does not follow symlinked folders', async () => {
    const scan = await scanMemoryFolder(memoryDir);
    expect(scan.warnings).toEqual([expect.objectContaining({ code: 'broken-symlink', path: join(memoryDir, 'dangling.md') })]);
    expect(scan.topicFiles.some((f) => f.relativePath.includes('escaped') || f.relativePath.startsWith('loop/'))).toBe(false);
  });

  it('a missing folder is empty without warnings; a file in its place is a warning', async () => {
    expect(await scanMemoryFolder(join(tmp, 'nope'))).toEqual({ topicFiles: [], warnings: [] });
    const scan = await scanMemoryFolder(join(memoryDir, 'a.md'));
    expect(scan.topicFiles).toEqual([]);
    expect(scan.warnings.map((w) => w.code)).toEqual(['unreadable']);
  });
});

describe('summarizeMemoryFile', () => {
  const summary = async (rel: string) => summarizeMemoryFile({ absolutePath: join(memoryDir, rel), relativePath: rel });

  it('reads flat and nested frontmatter fields and the scope', async () => {
    expect(await summary('a.md')).toMatchObject({
      name: 'A',
      description: 'first',
      type: 'user',
      variant: 'flat',
      scope: 'private',
      warnings: [],
    });
    expect(await summary('feedback/repro.md')).toMatchObject({ type: 'feedback', variant: 'nested-node-type', scope: 'private' });
    expect(await summary('team/t.md')).toMatchObject({ type: 'project', variant: 'nested', scope: 'team' });
  });

  it('keeps an unknown type as rawType', async () => {
    expect(await summary('weird-type.md')).toMatchObject({ type: null, rawType: 'opinion' });
  });

  it('reports no frontmatter as variant none, without warnings', async () => {
    expect(await summary('UPPER.MD')).toMatchObject({ variant: 'none', name: null, warnings: [] });
  });

  it('warns on executable frontmatter and never runs it', async () => {
    const result = await summary('exec.md');
    expect(result.variant).toBe('executable');
    expect(result.warnings.map((w) => w.code)).toEqual(['frontmatter-executable']);
    expect((globalThis as Record<string, unknown>).__ccmemScanCanary).toBeUndefined();
  });

  it('warns on invalid YAML but still reads fields by line scan', async () => {
    const result = await summary('broken.md');
    expect(result).toMatchObject({ variant: 'invalid', name: 'broken: yes', type: 'reference' });
    expect(result.warnings.map((w) => w.code)).toEqual(['frontmatter-invalid']);
  });

  it('warns on binary content', async () => {
    expect((await summary('binary.md')).warnings.map((w) => w.code)).toEqual(['binary-file']);
  });

  it('an unreadable file becomes a warning, not a throw', async () => {
    const result = await summary('dangling.md');
    expect(result.warnings.map((w) => w.code)).toEqual(['unreadable']);
    expect(result.bytes).toBe(0);
  });

  it('reports size and mtime', async () => {
    const result = await summary('a.md');
    expect(result.bytes).toBe(Buffer.byteLength(topicFile({ variant: 'flat', name: 'A', description: 'first', type: 'user' })));
    expect(Date.parse(result.mtime)).toBeGreaterThan(Date.parse('2020-01-01'));
  });
});
