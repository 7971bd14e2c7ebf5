import {
  closeSync,
  constants as fsConstants,
  fstatSync,
  openSync,
  promises as fs,
  readdirSync,
  readSync,
  statSync,
  type Dirent,
  type Stats,
} from 'node:fs';
import type { ItemWarning } from '../../../shared/model/warnings';
import { errnoCode } from './errno';
import type { SourceOpener } from './randomAccessSource';

export function warning(code: ItemWarning['code'], message: string, path: string | null): ItemWarning {
  return { code, message, path };
}

export function errorCode(error: unknown): string {
  return errnoCode(error) ?? 'UNKNOWN';
}

/** Explains a filesystem error in words a user can act on. */
export function describeFsError(error: unknown): string {
  const code = errorCode(error);
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'ENOENT':
      return 'does not exist';
    case 'ENOTDIR':
      return 'is not a folder';
    case 'ELOOP':
      return 'symlink loop';
    case 'EISDIR':
      return 'is a folder';
    default:
      return error instanceof Error ? error.message : String(error);
  }
}

export async function statOrNull(path: string): Promise<Stats | null> {
  try {
    return await fs.stat(path);
  } catch {
    return null;
  }
}

export interface DirListing {
  readonly entries: readonly Dirent[];
  readonly warning: ItemWarning | null;
}

function listingFailure(error: unknown, path: string): DirListing {
  if (errorCode(error) === 'ENOENT') return { entries: [], warning: null };
  return { entries: [], warning: warning('unreadable', `Cannot read folder: ${describeFsError(error)}`, path) };
}

/** Lists a folder; an unreadable one yields a warning on that folder instead of an exception. */
export async function listDir(path: string): Promise<DirListing> {
  try {
    return { entries: await fs.readdir(path, { withFileTypes: true }), warning: null };
  } catch (error) {
    return listingFailure(error, path);
  }
}

/**
 * `listDir`, blocking: for walks over thousands of folders, where a cached `readdir` takes microseconds and each
 * asynchronous one a thread-pool round trip. The caller yields between folders.
 */
export function listDirSync(path: string): DirListing {
  try {
    return { entries: readdirSync(path, { withFileTypes: true }), warning: null };
  } catch (error) {
    return listingFailure(error, path);
  }
}

export interface EntryKind {
  readonly kind: 'file' | 'dir' | 'other' | 'missing';
  readonly stats: Stats | null;
  readonly warning: ItemWarning | null;
}

function kindOfEntry(entry: Dirent): EntryKind {
  return { kind: entry.isFile() ? 'file' : entry.isDirectory() ? 'dir' : 'other', stats: null, warning: null };
}

function kindOfTarget(stats: Stats): EntryKind {
  return { kind: stats.isFile() ? 'file' : stats.isDirectory() ? 'dir' : 'other', stats, warning: null };
}

function brokenSymlink(error: unknown, path: string): EntryKind {
  return { kind: 'missing', stats: null, warning: warning('broken-symlink', `Broken symlink: ${describeFsError(error)}`, path) };
}

/**
 * Resolves what a directory entry is, following symlinks; a symlink whose target is gone yields a
 * `broken-symlink` warning and the kind `missing`.
 */
export async function entryKind(dir: string, entry: Dirent): Promise<EntryKind> {
  if (!entry.isSymbolicLink()) return kindOfEntry(entry);
  return symlinkTargetKind(`${dir}/${entry.name}`);
}

/** What the symlink at `path` points to (see `entryKind`). */
export async function symlinkTargetKind(path: string): Promise<EntryKind> {
  try {
    return kindOfTarget(await fs.stat(path));
  } catch (error) {
    return brokenSymlink(error, path);
  }
}

/** `entryKind`, blocking (see `listDirSync`). */
export function entryKindSync(dir: string, entry: Dirent): EntryKind {
  if (!entry.isSymbolicLink()) return kindOfEntry(entry);
  const path = `${dir}/${entry.name}`;
  try {
    return kindOfTarget(statSync(path));
  } catch (error) {
    return brokenSymlink(error, path);
  }
}

export interface FileSlice {
  readonly bytes: Buffer;
  readonly size: number;
  readonly mtimeMs: number;
}

/** Reads at most `maxBytes` from the start of a file, never the whole of a large file. */
export async function readHead(path: string, maxBytes: number): Promise<FileSlice> {
  const handle = await fs.open(path, 'r');
  try {
    const stats = await handle.stat();
    const length = Math.min(maxBytes, stats.size);
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, 0);
    return { bytes: buffer.subarray(0, bytesRead), size: stats.size, mtimeMs: stats.mtimeMs };
  } finally {
    await handle.close();
  }
}

/**
 * A whole file in one read (open, stat, read, close), or null when it is larger than `maxBytes`: `fs.readFile` reads in
 * 512 KiB chunks, a thread-pool hop each, and took 28–48 ms for a 28 MB saved line index that one read takes in
 * 25–28 ms. For the app's own files, which are replaced whole (a rename), never appended to; only the bytes read are
 * handed out, so the buffer is not zeroed.
 */
export async function readWholeFile(path: string, maxBytes: number): Promise<Buffer | null> {
  const handle = await fs.open(path, 'r');
  try {
    const { size } = await handle.stat();
    if (size > maxBytes) return null;
    const buffer = Buffer.allocUnsafe(size);
    let filled = 0;
    while (filled < size) {
      const { bytesRead } = await handle.read(buffer, filled, size - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buffer.subarray(0, filled);
  } finally {
    await handle.close();
  }
}

/**
 * Opening for a blocking read: a FIFO (or a device) named like a file the app reads would otherwise hold the engine's
 * thread until something writes to it. With O_NONBLOCK its open returns at once and its read fails (EAGAIN); a
 * regular file reads as ever.
 */
export const READ_WITHOUT_WAITING = fsConstants.O_RDONLY | fsConstants.O_NONBLOCK;

/**
 * `readHead` with blocking calls, for callers that read hundreds of small files in a row (a session's sub-agents'
 * meta files): through the thread pool, the open, stat, read and close of each cost four promises and four hops
 * between threads, ~100 ms for 1,324 files where these calls take ~25 ms. The caller yields between files.
 */
export function readHeadSync(path: string, maxBytes: number): FileSlice {
  const fd = openSync(path, READ_WITHOUT_WAITING);
  try {
    const stats = fstatSync(fd);
    const buffer = Buffer.allocUnsafe(Math.min(maxBytes, stats.size));
    const bytesRead = readSync(fd, buffer, 0, buffer.length, 0);
    return { bytes: buffer.subarray(0, bytesRead), size: stats.size, mtimeMs: stats.mtimeMs };
  } finally {
    closeSync(fd);
  }
}

export interface HeadAndTail extends FileSlice {
  /** The last `maxBytes` of the file; the same bytes as the head when the file is small. */
  readonly tail: Buffer;
  readonly tailOffset: number;
}

/**
 * Reads the first and the last `maxBytes` of a file (Claude Code's "lite" read for session lists), through `opener`
 * (a disk file, or an archived copy). The buffers are not zeroed: only the bytes read are handed out.
 */
export async function readHeadAndTail(path: string, maxBytes: number, opener: SourceOpener): Promise<HeadAndTail> {
  const handle = await opener(path);
  try {
    const stats = await handle.stat();
    const head = Buffer.allocUnsafe(Math.min(maxBytes, stats.size));
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    if (stats.size <= maxBytes) {
      const bytes = head.subarray(0, bytesRead);
      return { bytes, size: stats.size, mtimeMs: stats.mtimeMs, tail: bytes, tailOffset: 0 };
    }
    const tailOffset = stats.size - maxBytes;
    const tail = Buffer.allocUnsafe(maxBytes);
    const tailRead = await handle.read(tail, 0, maxBytes, tailOffset);
    return {
      bytes: head.subarray(0, bytesRead),
      size: stats.size,
      mtimeMs: stats.mtimeMs,
      tail: tail.subarray(0, tailRead.bytesRead),
      tailOffset,
    };
  } finally {
    await handle.close();
  }
}

/** Buffers of at least the window's size for `readHeadAndTailSync` to read into, reused by a caller that reads many files. */
export interface WindowBuffers {
  readonly head: Buffer;
  readonly tail: Buffer;
}

/**
 * `readHeadAndTail` of a file on disk, with blocking calls: a discovery reads thousands of them, and through the thread
 * pool each cost a promise and a hop between threads per open, stat, read and close — on the medium home more than the
 * reads themselves. One file's reads block for tens of microseconds. With `into`, the windows are those buffers' bytes,
 * valid until the caller reads into them again.
 */
export function readHeadAndTailSync(path: string, maxBytes: number, into?: WindowBuffers): HeadAndTail {
  const fd = openSync(path, READ_WITHOUT_WAITING);
  try {
    const stats = fstatSync(fd);
    const head = into?.head ?? Buffer.allocUnsafe(Math.min(maxBytes, stats.size));
    const headRead = readSync(fd, head, 0, Math.min(maxBytes, stats.size), 0);
    if (stats.size <= maxBytes) {
      const bytes = head.subarray(0, headRead);
      return { bytes, size: stats.size, mtimeMs: stats.mtimeMs, tail: bytes, tailOffset: 0 };
    }
    const tailOffset = stats.size - maxBytes;
    const tail = into?.tail ?? Buffer.allocUnsafe(maxBytes);
    const tailRead = readSync(fd, tail, 0, maxBytes, tailOffset);
    return { bytes: head.subarray(0, headRead), size: stats.size, mtimeMs: stats.mtimeMs, tail: tail.subarray(0, tailRead), tailOffset };
  } finally {
    closeSync(fd);
  }
}

function smallText(slice: FileSlice, maxBytes: number): string {
  if (slice.size > maxBytes) throw new Error(`file is larger than ${maxBytes} bytes`);
  return slice.bytes.toString('utf8');
}

/** Reads a small text file whole (settings, MEMORY.md, meta.json), refusing anything larger than `maxBytes`. */
export async function readSmallText(path: string, maxBytes: number): Promise<string> {
  return smallText(await readHead(path, maxBytes + 1), maxBytes);
}

/** `readSmallText` with blocking calls (see `readHeadSync`). */
export function readSmallTextSync(path: string, maxBytes: number): string {
  return smallText(readHeadSync(path, maxBytes + 1), maxBytes);
}
