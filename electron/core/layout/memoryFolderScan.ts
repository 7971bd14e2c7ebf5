import { isTopicFileName } from '../../../shared/memory/modelView';
import type { ItemWarning } from '../../../shared/model/warnings';
import { symlinkTargetKind } from '../fs/readSafely';
import { walkMemoryFolder } from './memoryFolderWalk';

export interface FoundMemoryFile {
  readonly absolutePath: string;
  /** Relative to the memory folder, forward slashes on every platform. */
  readonly relativePath: string;
}

export interface MemoryFolderScan {
  readonly topicFiles: readonly FoundMemoryFile[];
  readonly warnings: readonly ItemWarning[];
}

/**
 * Every topic file under a memory folder, recursively: `*.md` except `MEMORY.md` index files (`isTopicFileName`),
 * a symlink to a file included (a broken one is a warning).
 */
export async function scanMemoryFolder(memoryDir: string): Promise<MemoryFolderScan> {
  const topicFiles: FoundMemoryFile[] = [];
  const warnings: ItemWarning[] = [];
  await walkMemoryFolder(
    memoryDir,
    async ({ name, absolutePath, relativePath, type }) => {
      if (!isTopicFileName(name) || (type !== 'file' && type !== 'symlink')) return;
      if (type === 'symlink') {
        const target = await symlinkTargetKind(absolutePath);
        if (target.warning) warnings.push(target.warning);
        if (target.kind !== 'file') return;
      }
      topicFiles.push({ absolutePath, relativePath });
    },
    warnings,
  );
  topicFiles.sort((a, b) => a.relativePath.localeCompare(b.relativePath));
  return { topicFiles, warnings };
}
