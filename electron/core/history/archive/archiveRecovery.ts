import { promises as fs } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { errorCode } from '../../fs/readSafely';
import { readFrame } from './ArchivedFileSource';
import {
  fileHistoryDir,
  generationOf,
  isBackupDataFile,
  isTranscriptDataFile,
  transcriptsDir,
  walkDataFile,
  type WalkedDataFile,
} from './archiveDataFiles';
import { FRAME_HEADER_BYTES } from './archiveFrames';
import { headStampOf, NO_HEAD, type HeadStamp } from './archiveHeadStamp';
import {
  FRAME_AT,
  FRAME_LENGTH,
  FRAME_POSITION,
  FRAME_STORED,
  type ArchiveManifest,
  type ArchivedBackupRecord,
  type ArchivedFileRecord,
  type FrameRef,
} from './archiveModel';

/** Bytes kept from the start and the end of what is archived, to notice a rewritten transcript. */
export const HEAD_BYTES = 256;
export const TAIL_BYTES = 64;

async function listNames(dir: string): Promise<string[]> {
  try {
    return await fs.readdir(dir);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return [];
    throw error;
  }
}

async function sizeOf(path: string): Promise<number | null> {
  try {
    return (await fs.stat(path)).size;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
}

function endOf(frames: readonly FrameRef[]): number {
  const last = frames.at(-1);
  return last ? last[FRAME_AT] + last[FRAME_LENGTH] : 0;
}

/** Head and tail of the archived bytes, decoded from the first and last frames (the rare path: after a crash). */
async function headAndTail(dataPath: string, frames: readonly FrameRef[]): Promise<{ headStamp: HeadStamp; tail: string }> {
  if (frames.length === 0) return { headStamp: NO_HEAD, tail: '' };
  const handle = await open(dataPath, 'r');
  try {
    const first = await readFrame(handle, frames[0]);
    const last = frames.length === 1 ? first : await readFrame(handle, frames[frames.length - 1]);
    const previous = frames.length > 1 ? await readFrame(handle, frames[frames.length - 2]) : Buffer.alloc(0);
    const ending = Buffer.concat([previous, last]);
    return {
      headStamp: headStampOf(first.subarray(0, HEAD_BYTES)),
      tail: ending.subarray(Math.max(0, ending.length - TAIL_BYTES)).toString('hex'),
    };
  } finally {
    await handle.close();
  }
}

/** A record whose data file lost its last frames: kept as far as its frames are whole, and archived anew when possible. */
async function trimmed(record: ArchivedFileRecord, dataPath: string, walked: WalkedDataFile): Promise<ArchivedFileRecord> {
  const frames: FrameRef[] = [];
  for (const [index, frame] of walked.frames.entries()) {
    const known = record.frames[index];
    if (!known || known.some((value, i) => value !== frame[i])) break;
    frames.push(frame);
  }
  const bytes = endOf(frames);
  const { headStamp, tail } = await headAndTail(dataPath, frames);
  const last = frames.at(-1);
  const compressedBytes = last ? last[FRAME_POSITION] + FRAME_HEADER_BYTES + last[FRAME_STORED] : walked.descriptionEnd;
  await fs.truncate(dataPath, compressedBytes);
  // An empty identity makes the next run archive the file again from its start, if it is still there.
  return {
    ...record,
    frames,
    bytes,
    compressedBytes,
    headStamp,
    tail,
    lineStart: Math.min(record.lineStart, bytes),
    source: { ...record.source, fileId: '' },
  };
}

/**
 * Checks a loaded manifest against the data files: a data file longer than recorded (frames written by a run that did
 * not get to save the manifest) is cut back; one shorter (frames a crash lost) keeps its whole frames and is archived
 * again; a missing one drops its record; files no record names (left by a crash) are removed. Writes: only under the
 * archive's write lock, when no other process is writing.
 */
export async function reconcileManifest(dir: string, manifest: ArchiveManifest): Promise<{ manifest: ArchiveManifest; changed: boolean }> {
  let changed = false;
  const files: ArchivedFileRecord[] = [];
  for (const record of manifest.files) {
    const dataPath = join(transcriptsDir(dir), record.dataFile);
    const size = await sizeOf(dataPath);
    if (size === null) {
      changed = true;
      continue;
    }
    if (size > record.compressedBytes) await fs.truncate(dataPath, record.compressedBytes);
    if (size >= record.compressedBytes) {
      files.push(record);
      continue;
    }
    changed = true;
    const walked = await walkDataFile(dataPath);
    // Without its description the file is not one the archive can append to: dropped (and archived again if on disk).
    if (walked.description !== null) files.push(await trimmed(record, dataPath, walked));
  }
  const backups: ArchivedBackupRecord[] = [];
  for (const backup of manifest.backups) {
    const size = await sizeOf(join(fileHistoryDir(dir), backup.dataFile));
    if (size !== null && size >= backup.compressedBytes) backups.push(backup);
    else changed = true;
  }
  const named = new Set(files.map((record) => record.dataFile));
  for (const name of await listNames(transcriptsDir(dir))) {
    if (!named.has(name)) await fs.rm(join(transcriptsDir(dir), name), { force: true });
  }
  const namedBackups = new Set(backups.map((backup) => backup.dataFile));
  for (const name of await listNames(fileHistoryDir(dir))) {
    if (!namedBackups.has(name)) await fs.rm(join(fileHistoryDir(dir), name), { force: true });
  }
  return { manifest: { files, backups, released: manifest.released }, changed };
}

/**
 * Rebuilds the manifest from the data files when it is lost or cannot be trusted: every data file opens with a
 * description of what it holds. Of several generations of one transcript the newest wins. What only the manifest knew
 * (the files' identities on disk, released sessions) is gone: files still on disk are archived again from their start.
 * Reads only; `reconcileManifest` (under the write lock) then cuts what follows the last whole frame.
 */
export async function rebuildManifest(dir: string, now: string): Promise<ArchiveManifest> {
  const byPath = new Map<string, ArchivedFileRecord>();
  for (const name of (await listNames(transcriptsDir(dir))).filter(isTranscriptDataFile)) {
    const dataPath = join(transcriptsDir(dir), name);
    const walked = await walkDataFile(dataPath);
    const description = walked.description;
    if (description?.kind !== 'transcript' || typeof description.path !== 'string') continue;
    const known = byPath.get(description.path);
    if (known && generationOf(known.dataFile) > generationOf(name)) continue;
    const bytes = endOf(walked.frames);
    const { headStamp, tail } = await headAndTail(dataPath, walked.frames).catch(() => ({ headStamp: NO_HEAD, tail: '' }));
    byPath.set(description.path, {
      path: description.path,
      configRoot: description.configRoot,
      slug: description.slug,
      sessionId: description.sessionId,
      agentId: description.agentId,
      layout: description.layout,
      dataFile: name,
      bytes,
      compressedBytes: walked.validBytes,
      frames: walked.frames,
      headStamp,
      tail,
      lineStart: bytes,
      source: { fileId: '', size: bytes, mtimeNs: '0', mtimeMs: Date.parse(description.createdAt) || 0 },
      meta: description.meta,
      firstArchivedAt: description.createdAt,
      lastArchivedAt: now,
      goneSince: null,
      rewrites: 0,
    });
  }
  const backups: ArchivedBackupRecord[] = [];
  for (const name of (await listNames(fileHistoryDir(dir))).filter(isBackupDataFile)) {
    const walked = await walkDataFile(join(fileHistoryDir(dir), name));
    const description = walked.description;
    if (description?.kind !== 'file-history' || walked.frames.length !== 1) continue;
    backups.push({
      configRoot: description.configRoot,
      sessionId: description.sessionId,
      backupFileName: description.backupFileName,
      trackedPath: description.trackedPath,
      dataFile: name,
      bytes: walked.frames[0][FRAME_LENGTH],
      compressedBytes: walked.validBytes,
      frame: walked.frames[0],
      archivedAt: description.createdAt,
    });
  }
  return { files: [...byPath.values()], backups, released: [] };
}
