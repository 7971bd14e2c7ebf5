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
  /**
   * The version as text, or null when it is not UTF-8 or too large to show; undefined when the file had not changed
   * since an earlier read, whose text is not held (`VersionReader.textOf` reads it from its blob).
   */
  readonly text: string | null | undefined;
  readonly mtimeMs: number;
  readonly size: number;
}

/**
 * What is kept of a file read, to tell it unchanged next time. Not its text: most looks find most files unchanged, and
 * a text is needed only for a new version, so holding every memory file's text (6.6 MB of the engine's live heap on
 * the large bench home) would buy a blob read on the rare look that records a version read before.
 */
interface CachedRead {
  readonly hash: string;
  readonly mtimeMs: number;
  readonly size: number;
  readonly ctimeMs: number;
  readonly ino: number;
}

/**
 * Reads memory files for history: every version read is stored as a blob at once, so a version seen is a
 * version kept. A file whose stats have not moved since it was read is not read again.
 */
export class VersionReader {
  private readonly cache = new Map<string, CachedRead>();

  constructor(
    private readonly store: HistoryStore,
    private readonly now: () => number = Date.now,
  ) {}

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
        return { hash: cached.hash, text: undefined, mtimeMs: cached.mtimeMs, size: cached.size };
      const readAt = this.now();
      const bytes = await fs.readFile(absolutePath);
      const hash = await this.store.putBlob(bytes);
      const version = { hash, text: decodeText(bytes), mtimeMs: stats.mtimeMs, size: bytes.length };
      // A file written within the clock's granularity of this read could change again without its times
      // moving (git's "racy" case): only files older than that are trusted by their stats next time.
      if (bytes.length === stats.size && Math.max(stats.mtimeMs, stats.ctimeMs) < readAt - RACY_MS)
        this.cache.set(absolutePath, { hash, mtimeMs: stats.mtimeMs, size: bytes.length, ctimeMs: stats.ctimeMs, ino: stats.ino });
      return version;
    } catch {
      return null;
    }
  }

  /** A version's text: as read, or from its blob when the read found the file unchanged; null when it has none. */
  async textOf(version: Pick<FileVersionRead, 'hash' | 'text'>): Promise<string | null> {
    if (version.text !== undefined) return version.text;
    const bytes = await this.store.readBlob(version.hash).catch(() => null);
    return bytes === null ? null : decodeText(bytes);
  }
}
