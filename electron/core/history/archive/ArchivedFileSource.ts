import { open, type FileHandle } from 'node:fs/promises';
import type { RandomAccessSource, SourceStats } from '../../fs/randomAccessSource';
import { decodeFramePayload, FRAME_HEADER_BYTES, parseFrameHeader, ArchiveCorruptError } from './archiveFrames';
import { FRAME_AT, FRAME_CRC, FRAME_LENGTH, FRAME_POSITION, FRAME_STORED, type FrameRef, type SourceIdentity } from './archiveModel';

/** Decoded frames kept per open source: a sequential read spans at most two, a page of lines usually one. */
const CACHED_FRAMES = 3;

/** Reads one frame of a data file and returns its original bytes, checked against the frame's header and the manifest. */
export async function readFrame(handle: FileHandle, frame: FrameRef): Promise<Buffer> {
  const stored = Buffer.allocUnsafe(FRAME_HEADER_BYTES + frame[FRAME_STORED]);
  const { bytesRead } = await handle.read(stored, 0, stored.length, frame[FRAME_POSITION]);
  const header = parseFrameHeader(stored.subarray(0, Math.min(bytesRead, FRAME_HEADER_BYTES)));
  if (
    !header ||
    header.kind !== 'data' ||
    header.length !== frame[FRAME_LENGTH] ||
    header.storedLength !== frame[FRAME_STORED] ||
    header.crc !== frame[FRAME_CRC]
  ) {
    throw new ArchiveCorruptError('archive frame does not match the manifest');
  }
  return decodeFramePayload(header, stored.subarray(FRAME_HEADER_BYTES, bytesRead));
}

/** The index of the frame holding transcript offset `at` (frames are sorted and contiguous). */
export function frameIndexAt(frames: readonly FrameRef[], at: number): number {
  let low = 0;
  let high = frames.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (frames[mid][FRAME_AT] <= at) low = mid;
    else high = mid - 1;
  }
  return low;
}

/** `dev:ino` as the catalog records it, back into numbers (0 when the archive no longer knows it). */
function deviceAndInode(fileId: string): { dev: number; ino: number } {
  const [dev, ino] = fileId.split(':').map(Number);
  return Number.isFinite(dev) && Number.isFinite(ino) ? { dev, ino } : { dev: 0, ino: 0 };
}

/**
 * An archived transcript read by byte offset, as if it were the file: it decodes only the frames a read touches.
 * It answers `stat()` with the identity the file had when it was archived, so a transcript open in the viewer goes on
 * from the archive without being read again when Claude Code deletes the file. It reads the frames it was opened
 * with: later appends to the archive are seen by the next open.
 */
export class ArchivedFileSource implements RandomAccessSource {
  /** Frames decoded or being decoded: reads in flight together that touch one frame decode it once. */
  private readonly decoded: { index: number; bytes: Promise<Buffer> }[] = [];

  private constructor(
    private readonly handle: FileHandle,
    private readonly frames: readonly FrameRef[],
    private readonly length: number,
    private readonly source: SourceIdentity,
  ) {}

  static async open(dataPath: string, frames: readonly FrameRef[], length: number, source: SourceIdentity): Promise<ArchivedFileSource> {
    return new ArchivedFileSource(await open(dataPath, 'r'), frames, length, source);
  }

  stat(): Promise<SourceStats> {
    return Promise.resolve({ size: this.length, mtimeMs: this.source.mtimeMs, ...deviceAndInode(this.source.fileId) });
  }

  async read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ bytesRead: number }> {
    const end = Math.min(position + length, this.length);
    let at = position;
    while (at < end) {
      const index = frameIndexAt(this.frames, at);
      const frame = this.frames[index];
      const bytes = await this.frameBytes(index);
      const from = at - frame[FRAME_AT];
      const take = Math.min(end - at, bytes.length - from);
      if (take <= 0) break;
      bytes.copy(buffer, offset + (at - position), from, from + take);
      at += take;
    }
    return { bytesRead: Math.max(0, at - position) };
  }

  close(): Promise<void> {
    return this.handle.close();
  }

  private frameBytes(index: number): Promise<Buffer> {
    const cached = this.decoded.find((entry) => entry.index === index);
    if (cached) return cached.bytes;
    const bytes = readFrame(this.handle, this.frames[index]);
    const entry = { index, bytes };
    this.decoded.push(entry);
    if (this.decoded.length > CACHED_FRAMES) this.decoded.shift();
    // A frame that failed to decode is not kept: the next read tries it again.
    bytes.catch(() => {
      const at = this.decoded.indexOf(entry);
      if (at >= 0) this.decoded.splice(at, 1);
    });
    return bytes;
  }
}
