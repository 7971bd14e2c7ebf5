import { join } from 'node:path';
import type { ItemWarning } from '../../../shared/model/warnings';
import { listDir } from '../fs/readSafely';

/** Deeper folders are no memory: the walk stops here. */
export const MAX_MEMORY_FOLDER_DEPTH = 16;

export interface MemoryFolderEntry {
  readonly name: string;
  readonly absolutePath: string;
  /** Relative to the memory folder, forward slashes on every platform. */
  readonly relativePath: string;
  /** What the entry itself is: a symlink is never followed, neither into a folder nor to a file. */
  readonly type: 'file' | 'folder' | 'symlink' | 'other';
}

export interface MemoryFolderWalk {
  /** A warning for each folder that exists but could not be listed. */
  readonly warnings: readonly ItemWarning[];
  /**
   * Folders whose contents the walk does not know (relative, with a trailing slash; '' for the memory folder itself):
   * those that could not be listed, and those deeper than `MAX_MEMORY_FOLDER_DEPTH`.
   */
  readonly unlisted: readonly string[];
}

/** What a visit of one entry answers: `stop` ends the whole walk. */
export type WalkStep = void | 'stop';

/**
 * The one walk of a memory folder: every entry, each folder's in name order (UTF-16 code units), depth first (a
 * folder is visited, then what it holds, then the entry after it). Symlinks are visited as symlinks and never
 * followed, so the walk cannot loop or leave the folder; what a symlinked file means is the visitor's call. A
 * folder that does not exist has no entries; one that cannot be read is a warning.
 */
export async function walkMemoryFolder(
  memoryDir: string,
  visit: (entry: MemoryFolderEntry) => WalkStep | Promise<WalkStep>,
  /** Where to add the warnings, so a visitor's own stay in walk order among them. */
  warnings: ItemWarning[] = [],
): Promise<MemoryFolderWalk> {
  const unlisted: string[] = [];
  let stopped = false;
  async function walk(dir: string, prefix: string, depth: number): Promise<void> {
    const listing = await listDir(dir);
    if (listing.warning) {
      warnings.push(listing.warning);
      unlisted.push(prefix);
      return;
    }
    const entries = [...listing.entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const type = entry.isSymbolicLink() ? 'symlink' : entry.isDirectory() ? 'folder' : entry.isFile() ? 'file' : 'other';
      const relativePath = prefix + entry.name;
      const absolutePath = join(dir, entry.name);
      if ((await visit({ name: entry.name, absolutePath, relativePath, type })) === 'stop') {
        stopped = true;
        return;
      }
      if (type !== 'folder') continue;
      if (depth < MAX_MEMORY_FOLDER_DEPTH) await walk(absolutePath, `${relativePath}/`, depth + 1);
      else unlisted.push(`${relativePath}/`);
      if (stopped) return;
    }
  }
  await walk(memoryDir, '', 0);
  return { warnings, unlisted };
}
