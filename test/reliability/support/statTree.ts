import { promises as fs } from 'node:fs';
import { join } from 'node:path';

/**
 * A cheap picture of a tree for before/after checks around every single call: each entry's kind, size, mode,
 * inode and mtime (nanoseconds), without reading contents. Any write changes the mtime or the inode.
 */
export async function statTree(roots: readonly string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  async function walk(dir: string): Promise<void> {
    let names: string[];
    try {
      names = await fs.readdir(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(dir, name);
      const stats = await fs.lstat(path, { bigint: true }).catch(() => null);
      if (!stats) continue;
      const kind = stats.isSymbolicLink() ? 'link' : stats.isDirectory() ? 'dir' : 'file';
      out.set(path, `${kind} ${stats.size} ${stats.mode} ${stats.ino} ${kind === 'dir' ? '' : stats.mtimeNs}`);
      if (kind === 'dir') await walk(path);
    }
  }
  for (const root of roots) await walk(root);
  return out;
}
