import { join } from 'node:path';
import { unusablePathReason } from '../fs/fileNameRules';
import { INDEX_FILE_NAME } from '../../../shared/memory/indexFileName';
import { TEAM_MEMORY_MAX_FILE_BYTES } from '../changes/sharedFileGuard';
import { LOCK_FILE_NAME } from '../lock/consolidationLockStatus';
import type { StagingOverlay } from './StagingOverlay';
import { symlinkOnPath, type ToolPath } from './toolPaths';

/** Claude Code's own cap on one memory file (team memory's MAX_FILE_SIZE_BYTES). */
export const MAX_PROPOSED_FILE_BYTES = TEAM_MEMORY_MAX_FILE_BYTES;
/** The indexes Claude Code loads: deleting one loses every pointer in it. */
const INDEXES = new Set([INDEX_FILE_NAME, `team/${INDEX_FILE_NAME}`]);
/** No job may stage changes to more files than this. */
const MAX_PROPOSED_FILES = 200;

export type WriteAction = 'write' | 'delete';

/**
 * Decides whether the model may stage a change at a path: the one place that says what a job may write.
 * Returns the reason for a refusal, or null when the change may be staged.
 */
export async function refuseWrite(
  path: ToolPath,
  action: WriteAction,
  overlay: StagingOverlay,
  memoryDir: string,
  content: string | null,
): Promise<string | null> {
  if (path.area === 'refused') return path.reason;
  if (path.area === 'transcripts') return 'transcripts are read-only';
  const rel = path.rel;
  if (rel === '') return 'a file path is needed';
  const segments = rel.split('/');
  const name = segments[segments.length - 1];
  if (name === LOCK_FILE_NAME) return 'the consolidation lock is not a memory file';
  if (name.toLowerCase().endsWith('.jsonl')) return 'transcripts are read-only';
  if (segments.some((segment) => segment.startsWith('.'))) return 'hidden files and folders are not memory files';
  if (!name.toLowerCase().endsWith('.md')) return 'only Markdown (.md) memory files can be written';
  const rule = refuseByRule(rel, action, content, memoryDir);
  if (rule !== null) return rule;
  const base = overlay.baseline.files.get(rel);
  if (
    base?.kind === 'symlink' ||
    segments.slice(0, -1).some((_, i) => overlay.baseline.files.get(segments.slice(0, i + 1).join('/'))?.kind === 'symlink')
  ) {
    return 'symlinks are never written through';
  }
  if ((await symlinkOnPath(memoryDir, rel)) !== null) return 'symlinks are never written through';
  if (base?.kind === 'opaque') return `the file is ${base.reason}; it cannot be changed here`;
  if (overlay.isFolder(rel)) return 'that path is a folder';
  if (content !== null && Buffer.byteLength(content) > MAX_PROPOSED_FILE_BYTES) return 'content is over 250 KB';
  if (!overlay.isStaged(rel) && overlay.stagedCount() >= MAX_PROPOSED_FILES) return `more than ${MAX_PROPOSED_FILES} files in one job`;
  return null;
}

/**
 * The rules a change must keep whatever the folder holds; applying a job checks them again, since a decision
 * (a hand edit, chosen hunks) can make a change the model never staged. Returns the reason, or null.
 */
export function refuseByRule(rel: string, action: WriteAction, content: string | null, memoryDir: string): string | null {
  const unusable = unusablePathReason(rel, join(memoryDir, rel));
  if (unusable !== null) return unusable;
  if (action === 'delete' && INDEXES.has(rel)) return `${rel} cannot be deleted`;
  if (action === 'write' && rel.split('/').at(-1) === INDEX_FILE_NAME && content !== null && content.trim() === '')
    return `${rel} cannot be emptied: Claude Code loads it into every session`;
  return null;
}
