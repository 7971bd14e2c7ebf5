import { promises as fs } from 'node:fs';
import { contentHash } from '../fs/contentHash';
import { LOCK_FILE_NAME } from '../lock/consolidationLockStatus';
import { walkMemoryFolder } from '../layout/memoryFolderWalk';

/** What a memory folder held when a job started; the job reads this, never the live files. */
export type BaselineEntry =
  | { readonly kind: 'text'; readonly content: string; readonly hash: string; readonly bytes: number }
  /** A file the job may see but not read or change: too large, not UTF-8 text, or the lock. */
  | { readonly kind: 'opaque'; readonly hash: string | null; readonly bytes: number; readonly reason: string }
  | { readonly kind: 'symlink' };

export interface MemoryBaseline {
  readonly files: ReadonlyMap<string, BaselineEntry>;
  /** Folders (relative, '' excluded) that exist, so empty ones can be listed too. */
  readonly dirs: ReadonlySet<string>;
}

const MAX_ENTRIES = 5000;
/** Larger files are listed but not read; no memory file needs more, and the write cap is lower still. */
const MAX_BASELINE_FILE_BYTES = 1024 * 1024;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Snapshots a memory folder: every regular file's text and hash (symlinks are recorded, never followed).
 * A missing folder is an empty baseline: the job may still propose the first files.
 */
export async function readMemoryBaseline(memoryDir: string): Promise<MemoryBaseline> {
  const files = new Map<string, BaselineEntry>();
  const dirs = new Set<string>();
  let count = 0;
  await walkMemoryFolder(memoryDir, async ({ name, absolutePath, relativePath, type }) => {
    // Beyond this a folder is no memory; a file past the cap that the model "creates" conflicts at apply time.
    if (++count > MAX_ENTRIES) return 'stop';
    if (type === 'symlink') files.set(relativePath, { kind: 'symlink' });
    else if (type === 'folder') dirs.add(relativePath);
    else if (type === 'file') files.set(relativePath, await readEntry(absolutePath, name));
  });
  return { files, dirs };
}

async function readEntry(path: string, name: string): Promise<BaselineEntry> {
  const stats = await fs.lstat(path);
  if (name === LOCK_FILE_NAME) return { kind: 'opaque', hash: null, bytes: stats.size, reason: 'the consolidation lock' };
  if (stats.size > MAX_BASELINE_FILE_BYTES) return { kind: 'opaque', hash: null, bytes: stats.size, reason: 'too large to read' };
  const bytes = await fs.readFile(path);
  const hash = contentHash(bytes);
  try {
    return { kind: 'text', content: strictUtf8.decode(bytes), hash, bytes: bytes.length };
  } catch {
    return { kind: 'opaque', hash, bytes: bytes.length, reason: 'not UTF-8 text' };
  }
}
