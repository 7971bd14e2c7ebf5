import { promises as fs } from 'node:fs';
import { walkMemoryFolder } from '../layout/memoryFolderWalk';

export interface MemoryFileStat {
  /** Relative to the memory folder, forward slashes. */
  readonly path: string;
  readonly absolutePath: string;
  readonly size: number;
  readonly mtimeMs: number;
}

export interface MemoryFileListing {
  readonly files: readonly MemoryFileStat[];
  /**
   * Folders (relative, with a trailing slash; '' for the memory folder itself) that exist but could not be
   * read: files history knows under them are not taken as deleted.
   */
  readonly unreadable: readonly string[];
}

/**
 * Every memory file history keeps: each `*.md` under the folder, MEMORY.md indexes included, found
 * recursively. Symlinks are neither followed nor recorded (nothing is ever written through one), and the
 * lock file is not a memory. A folder that does not exist has no files.
 */
export async function listMemoryFiles(memoryDir: string): Promise<MemoryFileListing> {
  const found: MemoryFileStat[] = [];
  const walk = await walkMemoryFolder(memoryDir, async ({ name, absolutePath, relativePath, type }) => {
    // Any case of `.md`: history has always kept such files, and must not take them for deleted now.
    if (type !== 'file' || !name.toLowerCase().endsWith('.md')) return;
    const stats = await fs.lstat(absolutePath).catch(() => null);
    if (stats?.isFile()) found.push({ path: relativePath, absolutePath, size: stats.size, mtimeMs: stats.mtimeMs });
  });
  found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files: found, unreadable: walk.unlisted };
}
