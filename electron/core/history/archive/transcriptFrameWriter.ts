import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { readFrame } from './ArchivedFileSource';
import { encodeDataFrame, FRAME_HEADER_BYTES, MAX_FRAME_BYTES } from './archiveFrames';
import { generationOf, transcriptDataFileName, transcriptsDir } from './archiveDataFiles';
import type { ArchivedFileRecord, FrameRef, SourceIdentity } from './archiveModel';
import { headStampLength, headStampOf } from './archiveHeadStamp';
import { HEAD_BYTES, TAIL_BYTES } from './archiveRecovery';
import type { SnapshotLineCollector } from './fileHistorySnapshots';

/** A data file whose frames outnumber this many times its size in full frames (many small appends) is packed anew. */
const REPACK_FACTOR = 2;
const REPACK_SLACK = 16;

export async function readExactly(handle: FileHandle, length: number, position: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await handle.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

export interface FrameWrite {
  readonly source: FileHandle;
  readonly data: FileHandle;
  /** The record as it stands: the new frames go after its last one. */
  readonly record: ArchivedFileRecord;
  /** The source as it was opened; bytes up to its size are archived. */
  readonly identity: SourceIdentity;
  readonly from: number;
  /** Sees every byte archived, for the file-history snapshots. */
  readonly collector: SnapshotLineCollector;
  readonly signal?: AbortSignal;
  readonly onBytes: (bytes: number) => void;
}

/**
 * Compresses `[from, size)` of the source frame by frame (1 MiB each at most) after the record's last frame; returns
 * the record updated. Cancelling stops after the frame being written: the record then covers what was written.
 */
export async function writeFrames({
  source,
  data,
  record,
  identity,
  from,
  collector,
  signal,
  onBytes,
}: FrameWrite): Promise<ArchivedFileRecord> {
  const frames = [...record.frames];
  let position = record.compressedBytes;
  let at = from;
  let lineStart = record.lineStart;
  const buffer = Buffer.allocUnsafe(Math.min(MAX_FRAME_BYTES, Math.max(1, identity.size - from)));
  let last = Buffer.alloc(0);
  let headStamp = record.headStamp;
  while (at < identity.size && !signal?.aborted) {
    const { bytesRead } = await source.read(buffer, 0, Math.min(buffer.length, identity.size - at), at);
    if (bytesRead === 0) break;
    const slice = buffer.subarray(0, bytesRead);
    collector.push(slice);
    if (at === 0) headStamp = headStampOf(slice.subarray(0, HEAD_BYTES));
    const { frame, crc } = await encodeDataFrame(slice);
    await data.write(frame, 0, frame.length, position);
    frames.push([at, position, bytesRead, frame.length - FRAME_HEADER_BYTES, crc]);
    const newline = slice.lastIndexOf(0x0a);
    if (newline >= 0) lineStart = at + newline + 1;
    // A copy: the read buffer is reused for the next frame.
    last = Buffer.concat([last, slice.subarray(-TAIL_BYTES)]).subarray(-TAIL_BYTES);
    position += frame.length;
    at += bytesRead;
    onBytes(bytesRead);
  }
  // A head shorter than it can be now (the file had fewer bytes when it was last archived) is stamped again from the
  // file, whose bytes before `from` were just checked.
  const headLength = Math.min(HEAD_BYTES, at);
  if (headStampLength(headStamp) < headLength) headStamp = headStampOf(await readExactly(source, headLength, 0));
  const tail =
    at === record.bytes
      ? record.tail
      : Buffer.concat([Buffer.from(record.tail, 'hex'), last])
          .subarray(-TAIL_BYTES)
          .toString('hex');
  return {
    ...record,
    bytes: at,
    compressedBytes: position,
    frames,
    headStamp,
    tail,
    lineStart,
    // Stopped early (cancelled, or the file shrank while read): the next run compares and goes on from here.
    source: at === identity.size ? identity : { ...identity, size: at },
    lastArchivedAt: new Date().toISOString(),
    goneSince: null,
  };
}

export function needsRepack(record: ArchivedFileRecord): boolean {
  return record.frames.length > Math.ceil(record.bytes / MAX_FRAME_BYTES) * REPACK_FACTOR + REPACK_SLACK;
}

/**
 * Rewrites a data file of many small frames (a session appended to for hours) into full frames, from its own frames,
 * as the next generation; the caller drops the old file once the manifest names the new one.
 */
export async function repackDataFile(archiveDir: string, record: ArchivedFileRecord): Promise<ArchivedFileRecord> {
  const dataFile = transcriptDataFileName(record.path, generationOf(record.dataFile) + 1);
  const oldHandle = await open(join(transcriptsDir(archiveDir), record.dataFile), 'r');
  const newHandle = await open(join(transcriptsDir(archiveDir), dataFile), 'w', 0o600);
  try {
    const description = await readExactly(oldHandle, record.frames.length > 0 ? record.frames[0][1] : record.compressedBytes, 0);
    await newHandle.write(description, 0, description.length, 0);
    const frames: FrameRef[] = [];
    let position = description.length;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let at = 0;
    const flush = async (): Promise<void> => {
      if (pendingBytes === 0) return;
      const slice = Buffer.concat(pending, pendingBytes);
      const { frame, crc } = await encodeDataFrame(slice);
      await newHandle.write(frame, 0, frame.length, position);
      frames.push([at, position, slice.length, frame.length - FRAME_HEADER_BYTES, crc]);
      position += frame.length;
      at += slice.length;
      pending = [];
      pendingBytes = 0;
    };
    for (const frame of record.frames) {
      const bytes = await readFrame(oldHandle, frame);
      if (pendingBytes + bytes.length > MAX_FRAME_BYTES) await flush();
      pending.push(bytes);
      pendingBytes += bytes.length;
    }
    await flush();
    return { ...record, dataFile, frames, compressedBytes: position };
  } finally {
    await oldHandle.close();
    await newHandle.close();
  }
}
