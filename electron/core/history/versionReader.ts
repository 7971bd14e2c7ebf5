import { promises as fs } from 'node:fs';
import type { HistoryStore } from '../changes/HistoryStore';
import { decodeText } from './versionText';

/** Files larger than this are not memories anyone reads; they are left out of history rather than held in memory. */
const MAX_VERSION_BYTES = 32 * 1024 * 1024;
/** File times closer than this to the moment a file was read may not show a later write of the same size. */
const RACY_MS = 2000;

/** One version of a file as read from disk (and already stored as a blob). */
export interface FileVersionRead {
  readonly hash: string;
  /** The version as text, or null when it is not UTF-8 or too large to show. */
  readonly text: string | null;
  readonly mtimeMs: number;
  readonly size: number;
}

interface CachedHash extends FileVersionRead {
  readonly ctimeMs: number;
  readonly ino: number;
}

/**
 * Reads memory files for history: every version read is stored as a blob at once, so a version seen is a
 * version kept. A file whose stats have not moved since it was read is not read again.
 */
export class VersionReader {
  private readonly cache = new Map<string, CachedHash>();

  constructor(private readonly store: HistoryStore) {}

  /** The file's current version, or null when it is gone, not a regular file (symlinks are never followed) or too large. */
  async read(absolutePath: string): Promise<FileVersionRead | null> {
    try {
      const stats = await fs.lstat(absolutePath);
      if (!stats.isFile() || stats.size > MAX_VERSION_BYTES) return null;
      const cached = this.cache.get(absolutePath);
      if (
        cached &&
        cached.size === stats.size &&
        cached.mtimeMs === stats.mtimeMs &&
        cached.ctimeMs === stats.ctimeMs &&
        cached.ino === stats.ino
      )
        return { hash: cached.hash, text: cached.text, mtimeMs: cached.mtimeMs, size: cached.size };
      const readAt = Date.now();
      const bytes = await fs.readFile(absolutePath);
      const hash = await this.store.putBlob(bytes);
      const version = { hash, text: decodeText(bytes), mtimeMs: stats.mtimeMs, size: bytes.length };
      // A file written within the clock's granularity of this read could change again without its times
      // moving (git's "racy" case): only files older than that are trusted by their stats next time.
      if (bytes.length === stats.size && Math.max(stats.mtimeMs, stats.ctimeMs) < readAt - RACY_MS)
        this.cache.set(absolutePath, { ...version, ctimeMs: stats.ctimeMs, ino: stats.ino });
      return version;
    } catch {
      return null;
    }
  }
}
