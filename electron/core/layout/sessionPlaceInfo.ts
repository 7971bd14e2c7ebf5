import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import type { SessionQuickInfo } from '../../../shared/model/session';
import { findFieldInWindow } from '../jsonl/jsonlWindow';
import { emptySessionInfo, readSessionQuickInfo } from './sessionQuickInfo';

/**
 * Bytes read at each end of a transcript first. Lines that end within them are the first (or last) lines of
 * `readSessionQuickInfo`'s 64 KiB windows too, so a field found in them is the one it finds.
 */
const END_BYTES = 8 * 1024;

interface FileEnds {
  readonly head: Buffer;
  readonly tail: Buffer;
  readonly size: number;
  readonly mtimeMs: number;
}

/**
 * The first and last `END_BYTES` of a file, read synchronously: thousands of small reads through the thread pool
 * cost several times their own work in hops between threads, and a one-shot command has nothing to do meanwhile.
 */
function readEnds(file: string): FileEnds {
  const fd = openSync(file, 'r');
  try {
    const { size, mtimeMs } = fstatSync(fd);
    const head = Buffer.allocUnsafe(Math.min(END_BYTES, size));
    const headRead = readSync(fd, head, 0, head.length, 0);
    if (size <= END_BYTES) return { head: head.subarray(0, headRead), tail: head.subarray(0, headRead), size, mtimeMs };
    const tail = Buffer.allocUnsafe(END_BYTES);
    const tailRead = readSync(fd, tail, 0, END_BYTES, size - END_BYTES);
    return { head: head.subarray(0, headRead), tail: tail.subarray(0, tailRead), size, mtimeMs };
  } finally {
    closeSync(fd);
  }
}

/**
 * What places a session in time and on disk — its working folder, last timestamp, size and file time — exactly as
 * `readSessionQuickInfo` reads them, from the first and last 8 KiB and the few lines there that hold them (the whole
 * quick read only when they are not there). Title, prompts, other timestamps, legacy summaries and warnings are left
 * empty: for finding projects' paths and memory folders (a one-shot search), never for a session list.
 */
export async function readSessionPlaceInfo(file: string, sessionId: string): Promise<SessionQuickInfo> {
  let place: Pick<SessionQuickInfo, 'cwd' | 'lastTimestamp' | 'bytes' | 'mtime'> | null = null;
  try {
    const ends = readEnds(file);
    const whole = ends.size <= END_BYTES;
    const cwd = findFieldInWindow(ends.head, true, whole, 'cwd', false);
    const lastTimestamp = findFieldInWindow(ends.tail, whole, true, 'timestamp', true);
    if (cwd !== null && lastTimestamp !== null)
      place = { cwd, lastTimestamp, bytes: ends.size, mtime: new Date(ends.mtimeMs).toISOString() };
  } catch {
    // The quick read below meets the same error and answers for it as it always does.
  }
  place ??= await readSessionQuickInfo(file, sessionId);
  return {
    ...emptySessionInfo(file, sessionId, place.bytes, place.mtime, []),
    lastTimestamp: place.lastTimestamp,
    cwd: place.cwd,
  };
}
