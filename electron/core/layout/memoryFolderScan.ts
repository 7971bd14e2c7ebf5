import { join, relative, sep } from 'node:path';
import { isTopicFileName } from '../../../shared/memory/modelView';
import type { ItemWarning } from '../../../shared/model/warnings';
import { entryKind, listDir } from '../fs/readSafely';

export interface FoundMemoryFile {
  readonly absolutePath: string;
  /** Relative to the memory folder, forward slashes on every platform. */
  readonly relativePath: string;
}

export interface MemoryFolderScan {
  readonly topicFiles: readonly FoundMemoryFile[];
  readonly warnings: readonly ItemWarning[];
}

/** Deeper folders are no memory: every walker of a memory folder stops here (symlinked folders are never followed). */
export const MAX_MEMORY_FOLDER_DEPTH = 16;

/**
 * Every topic file under a memory folder, recursively: `*.md` except `MEMORY.md` index files (`isTopicFileName`).
 * Symlinked folders are not followed (no loops, no escaping the folder).
 */
export async function scanMemoryFolder(memoryDir: string): Promise<MemoryFolderScan> {
  const topicFiles: FoundMemoryFile[] = [];
  const warnings: ItemWarning[] = [];
  async function walk(dir: string, depth: number): Promise<void> {
    const listing = await listDir(dir);
    if (listing.warning) warnings.push(listing.warning);
    for (const entry of listing.entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (depth < MAX_MEMORY_FOLDER_DEPTH) await walk(path, depth + 1);
        continue;
      }
      if (!isTopicFileName(entry.name)) continue;
      const kind = await entryKind(dir, entry);
      if (kind.warning) warnings.push(kind.warning);
      if (kind.kind !== 'file') continue;
      topicFiles.push({ absolutePath: path, relativePath: relative(memoryDir, path).split(sep).join('/') });
    }
  }
  await walk(memoryDir, 0);
  topicFiles.sort((a, b) => a.relativePath.localeCompare(b.relativePath));
  return { topicFiles, warnings };
}
