import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { MAX_MEMORY_FOLDER_DEPTH } from '../layout/memoryFolderScan';

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
  const unreadable: string[] = [];
  async function walk(dir: string, prefix: string, depth: number): Promise<void> {
    let entries;
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') unreadable.push(prefix);
      return;
    }
    for (const entry of entries) {
      const absolutePath = join(dir, entry.name);
      const path = prefix + entry.name;
      if (entry.isDirectory()) {
        if (depth < MAX_MEMORY_FOLDER_DEPTH) await walk(absolutePath, `${path}/`, depth + 1);
        else unreadable.push(`${path}/`);
      } else if (entry.isFile() && entry.name.toLowerCase().endsWith('.md')) {
        const stats = await fs.lstat(absolutePath).catch(() => null);
        if (stats?.isFile()) found.push({ path, absolutePath, size: stats.size, mtimeMs: stats.mtimeMs });
      }
    }
  }
  await walk(memoryDir, '', 0);
  found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files: found, unreadable };
}
