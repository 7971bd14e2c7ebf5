import { mkdtempSync, realpathSync } from 'node:fs';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_MEMORY_FOLDER_DEPTH, walkMemoryFolder, type MemoryFolderEntry } from '../../../../electron/core/layout/memoryFolderWalk';

let tmp: string;
let memoryDir: string;
/** A chain of folders one deeper than the walk goes: `d/d/…/d`. */
const tooDeep = Array.from({ length: MAX_MEMORY_FOLDER_DEPTH + 1 }, () => 'd').join('/');
const deepest = tooDeep.slice(0, -2);

async function put(rel: string, content = 'x'): Promise<void> {
  const path = join(memoryDir, rel);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, content);
}

beforeAll(async () => {
  tmp = realpathSync(mkdtempSync(join(tmpdir(), 'ccmem-memwalk-')));
  memoryDir = join(tmp, 'memory');
  await put('b.md');
  await put('B.md');
  await put('a/z.md');
  await put('a/c.txt');
  await put(`${deepest}/last.md`);
  await put(`${tooDeep}/hidden.md`);
  await mkdir(join(tmp, 'outside'), { recursive: true });
  await writeFile(join(tmp, 'outside', 'escaped.md'), 'outside');
  await symlink(join(tmp, 'outside'), join(memoryDir, 'linked'));
  await symlink(memoryDir, join(memoryDir, 'loop'));
  await symlink(join(tmp, 'outside', 'escaped.md'), join(memoryDir, 'link.md'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

async function walkAll(dir: string): Promise<{ seen: MemoryFolderEntry[]; unlisted: readonly string[] }> {
  const seen: MemoryFolderEntry[] = [];
  const walk = await walkMemoryFolder(dir, (entry) => {
    seen.push(entry);
  });
  return { seen, unlisted: walk.unlisted };
}

describe('walkMemoryFolder', () => {
  it('visits every entry depth first in code-unit order, symlinks as symlinks, and stops at the depth limit', async () => {
    const { seen, unlisted } = await walkAll(memoryDir);
    const chain = deepest.split('/').map((_, i, all) => ({ relativePath: all.slice(0, i + 1).join('/'), type: 'folder' }));
    expect(seen.map(({ relativePath, type }) => ({ relativePath, type }))).toEqual([
      { relativePath: 'B.md', type: 'file' },
      { relativePath: 'a', type: 'folder' },
      { relativePath: 'a/c.txt', type: 'file' },
      { relativePath: 'a/z.md', type: 'file' },
      { relativePath: 'b.md', type: 'file' },
      ...chain,
      { relativePath: tooDeep, type: 'folder' },
      { relativePath: `${deepest}/last.md`, type: 'file' },
      { relativePath: 'link.md', type: 'symlink' },
      { relativePath: 'linked', type: 'symlink' },
      { relativePath: 'loop', type: 'symlink' },
    ]);
    expect(seen.every((entry) => entry.absolutePath === join(memoryDir, entry.relativePath))).toBe(true);
    // The folder past the limit is seen but not listed: whoever needs its files knows they are unknown.
    expect(unlisted).toEqual([`${tooDeep}/`]);
  });

  it('stops the whole walk when a visit says so', async () => {
    const seen: string[] = [];
    await walkMemoryFolder(memoryDir, ({ relativePath }) => {
      seen.push(relativePath);
      return relativePath === 'a/c.txt' ? 'stop' : undefined;
    });
    expect(seen).toEqual(['B.md', 'a', 'a/c.txt']);
  });

  it('has nothing in a folder that does not exist, and says so of a file where a folder should be', async () => {
    expect(await walkAll(join(tmp, 'nowhere'))).toEqual({ seen: [], unlisted: [] });
    const notAFolder = await walkMemoryFolder(join(memoryDir, 'b.md'), () => undefined);
    expect(notAFolder.unlisted).toEqual(['']);
    expect(notAFolder.warnings).toEqual([expect.objectContaining({ code: 'unreadable', path: join(memoryDir, 'b.md') })]);
  });
});
