import type { SessionQuickInfo } from '../../../shared/model/session';
import { readHeadAndTailSync, type WindowBuffers } from '../fs/readSafely';
import { findFieldInWindow } from '../jsonl/jsonlWindow';
import { emptySessionInfo, LITE_READ_BYTES, readSessionQuickInfo } from './sessionQuickInfo';

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
  /** The whole file is in `head` (and `tail`). */
  readonly whole: boolean;
}

type SessionPlace = Pick<SessionQuickInfo, 'cwd' | 'lastTimestamp' | 'bytes' | 'mtime'>;

/**
 * Where the 8 KiB ends are read, reused from session to session: a window is done with before the next file is read
 * (only the strings found in it are kept), and a new pair per session was 16 KiB of garbage each, 40 MB on a home of
 * a few thousand sessions.
 */
const endBuffers: WindowBuffers = { head: Buffer.allocUnsafe(END_BYTES), tail: Buffer.allocUnsafe(END_BYTES) };

/** The first and last `windowBytes` of a file (the 8 KiB ones in the shared `endBuffers`), read with blocking calls. */
function readEnds(file: string, windowBytes: number): FileEnds {
  const read = readHeadAndTailSync(file, windowBytes, windowBytes === END_BYTES ? endBuffers : undefined);
  return { head: read.bytes, tail: read.tail, size: read.size, mtimeMs: read.mtimeMs, whole: read.size <= windowBytes };
}

/** What the quick read takes from these windows: the first cwd (the tail's when the head has none), the last timestamp. */
function placeInWindows(ends: FileEnds): Pick<SessionQuickInfo, 'cwd' | 'lastTimestamp'> {
  const headCwd = findFieldInWindow(ends.head, true, ends.whole, 'cwd', false);
  const tailTimestamp = findFieldInWindow(ends.tail, ends.whole, true, 'timestamp', true);
  if (ends.whole) return { cwd: headCwd, lastTimestamp: tailTimestamp };
  return {
    cwd: headCwd ?? findFieldInWindow(ends.tail, false, true, 'cwd', false),
    lastTimestamp: tailTimestamp ?? findFieldInWindow(ends.head, true, false, 'timestamp', true),
  };
}

function placeOf(ends: FileEnds, fields: Pick<SessionQuickInfo, 'cwd' | 'lastTimestamp'>): SessionPlace {
  return { ...fields, bytes: ends.size, mtime: new Date(ends.mtimeMs).toISOString() };
}

/**
 * The place as the quick read finds it: from the first and last 8 KiB when both fields are there (or the file is no
 * longer), else from its very windows of 64 KiB, read here synchronously.
 */
function readPlace(file: string): SessionPlace {
  const ends = readEnds(file, END_BYTES);
  if (ends.whole) return placeOf(ends, placeInWindows(ends));
  const cwd = findFieldInWindow(ends.head, true, false, 'cwd', false);
  const lastTimestamp = findFieldInWindow(ends.tail, false, true, 'timestamp', true);
  if (cwd !== null && lastTimestamp !== null) return placeOf(ends, { cwd, lastTimestamp });
  const wide = readEnds(file, LITE_READ_BYTES);
  return placeOf(wide, placeInWindows(wide));
}

/**
 * What places a session in time and on disk — its working folder, last timestamp, size and file time — exactly as
 * `readSessionQuickInfo` reads them, from the first and last 8 KiB and the few lines there that hold them (the quick
 * read's 64 KiB windows when they are not there). Title, prompts, other timestamps, legacy summaries and warnings are
 * left empty: for finding projects' paths and memory folders (a one-shot search), never for a session list.
 */
export async function readSessionPlaceInfo(file: string, sessionId: string): Promise<SessionQuickInfo> {
  let place: SessionPlace;
  try {
    place = readPlace(file);
  } catch {
    // The quick read meets the same error and answers for it as it always does.
    place = await readSessionQuickInfo(file, sessionId);
  }
  return {
    ...emptySessionInfo(file, sessionId, place.bytes, place.mtime, []),
    lastTimestamp: place.lastTimestamp,
    cwd: place.cwd,
  };
}
