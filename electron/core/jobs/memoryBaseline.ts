import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { contentHash } from '../fs/contentHash';
import { LOCK_FILE_NAME } from '../lock/consolidationLockStatus';
import { MAX_MEMORY_FOLDER_DEPTH } from '../layout/memoryFolderScan';

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
  async function walk(dir: string, rel: string, depth: number): Promise<void> {
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      // Beyond this a folder is no memory; a file past the cap that the model "creates" conflicts at apply time.
      if (++count > MAX_ENTRIES) return;
      const path = join(dir, entry.name);
      const childRel = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isSymbolicLink()) {
        files.set(childRel, { kind: 'symlink' });
      } else if (entry.isDirectory()) {
        dirs.add(childRel);
        if (depth < MAX_MEMORY_FOLDER_DEPTH) await walk(path, childRel, depth + 1);
      } else if (entry.isFile()) {
        files.set(childRel, await readEntry(path, entry.name));
      }
    }
  }
  await walk(memoryDir, '', 0);
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
