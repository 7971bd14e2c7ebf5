import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { FRAME_HEADER_BYTES, parseFrameHeader } from './archiveFrames';
import type { DataFileDescription, FrameRef } from './archiveModel';

/** The archive's folders under its own directory in the app data folder. */
export const TRANSCRIPTS_FOLDER = 'transcripts';
export const FILE_HISTORY_FOLDER = 'file-history';

const EXTENSION = '.ccar';
const TRANSCRIPT_DATA_FILE = /^([0-9a-f]{24})\.(\d+)\.ccar$/;
const MAX_DESCRIPTION_BYTES = 64 * 1024;

function keyOf(...parts: readonly string[]): string {
  return createHash('sha1').update(parts.join('\0')).digest('hex').slice(0, 24);
}

/** A transcript's data file: named by its path, and by how often it was archived anew (a rewrite starts a new one). */
export function transcriptDataFileName(path: string, generation: number): string {
  return `${keyOf(path)}.${generation}${EXTENSION}`;
}

/** The generation in a transcript data file's name; -1 when the name is not one. */
export function generationOf(dataFile: string): number {
  const match = TRANSCRIPT_DATA_FILE.exec(dataFile);
  return match ? Number(match[2]) : -1;
}

export function isTranscriptDataFile(name: string): boolean {
  return TRANSCRIPT_DATA_FILE.test(name);
}

export function backupDataFileName(configRoot: string, sessionId: string, backupFileName: string): string {
  return `${keyOf(configRoot, sessionId, backupFileName)}${EXTENSION}`;
}

export function isBackupDataFile(name: string): boolean {
  return /^[0-9a-f]{24}\.ccar$/.test(name);
}

export interface WalkedDataFile {
  readonly description: DataFileDescription | null;
  /** The data frames whose header and stored bytes are all there, in order. */
  readonly frames: readonly FrameRef[];
  /** Where the description frame ends (the data file's size with no frames). */
  readonly descriptionEnd: number;
  /** Where the last whole frame ends: anything after it is a write a crash cut short. */
  readonly validBytes: number;
}

/**
 * Reads a data file's description and the headers of its frames, without decoding any: enough to rebuild the
 * manifest's record of it. Stops at the first header that is not one or a frame cut short.
 */
export async function walkDataFile(path: string): Promise<WalkedDataFile> {
  const handle = await open(path, 'r');
  try {
    const size = (await handle.stat()).size;
    const headerBytes = Buffer.alloc(FRAME_HEADER_BYTES);
    const readHeader = async (position: number) => {
      const { bytesRead } = await handle.read(headerBytes, 0, FRAME_HEADER_BYTES, position);
      return bytesRead === FRAME_HEADER_BYTES ? parseFrameHeader(headerBytes) : null;
    };
    const first = await readHeader(0);
    if (!first || first.kind !== 'meta' || first.length > MAX_DESCRIPTION_BYTES || FRAME_HEADER_BYTES + first.storedLength > size) {
      return { description: null, frames: [], descriptionEnd: 0, validBytes: 0 };
    }
    const payload = Buffer.alloc(first.storedLength);
    await handle.read(payload, 0, payload.length, FRAME_HEADER_BYTES);
    let description: DataFileDescription | null;
    try {
      description = JSON.parse(payload.toString('utf8')) as DataFileDescription;
    } catch {
      description = null;
    }
    const frames: FrameRef[] = [];
    const descriptionEnd = FRAME_HEADER_BYTES + first.storedLength;
    let position = descriptionEnd;
    let at = 0;
    for (;;) {
      const header = await readHeader(position);
      if (!header || header.kind !== 'data' || position + FRAME_HEADER_BYTES + header.storedLength > size) break;
      frames.push([at, position, header.length, header.storedLength, header.crc]);
      at += header.length;
      position += FRAME_HEADER_BYTES + header.storedLength;
    }
    return { description, frames, descriptionEnd, validBytes: position };
  } finally {
    await handle.close();
  }
}

export function transcriptsDir(archiveDir: string): string {
  return join(archiveDir, TRANSCRIPTS_FOLDER);
}

export function fileHistoryDir(archiveDir: string): string {
  return join(archiveDir, FILE_HISTORY_FOLDER);
}
