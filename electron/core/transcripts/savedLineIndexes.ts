import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { readWholeFile } from '../fs/readSafely';
import { replaceFileAtomically } from '../fs/replaceFileAtomically';
import { decodeLineIndex, encodeLineIndex, type LineIndexSnapshot } from './lineIndexCodec';

/** First bytes of every saved index; the last two digits are the format, raised whenever the body changes shape. */
const MAGIC = Buffer.from('CMMLIX03', 'latin1');
/**
 * The CRC-32 of the extent and of the body, one 32-bit word each. A checksum against damage (a file cut short, a
 * flipped byte, a half-written copy), not against someone who can write the app data folder; it costs a third of
 * what a SHA-256 of a 10 MB index took, which was a sixth of a reopen.
 */
const DIGEST_BYTES = 8;
const FILE_SUFFIX = '.lineindex';
/** An extent is a path and a few numbers: a header claiming more is not one we wrote. */
const MAX_META_BYTES = 64 * 1024;
/** The folder of the app data folder that holds them. */
export const SAVED_LINE_INDEX_FOLDER = 'transcript-index';

/** Where a saved index stopped in its transcript, and how to tell that the transcript still starts with those bytes. */
export interface IndexedExtent {
  /** The transcript file the index is of. */
  readonly path: string;
  /** The transcript's size and mtime when it was indexed (equal now: nothing to read). */
  readonly fileBytes: number;
  readonly mtimeMs: number;
  /** Offset past the last complete line indexed; reading on starts here. */
  readonly indexedBytes: number;
  readonly nextLineNumber: number;
  /** SHA-1 (hex) of the file's first bytes and of the bytes just before `indexedBytes` (see `TranscriptIndex`). */
  readonly headHash: string;
  readonly tailHash: string;
}

export interface SavedLineIndex {
  readonly extent: IndexedExtent;
  readonly snapshot: LineIndexSnapshot;
}

export interface SavedLineIndexOptions {
  /** All saved indexes together stay under this; the least recently used go first. */
  readonly maxTotalBytes: number;
  /** Smaller transcripts are indexed faster than a saved index is read and checked: not worth a file. */
  readonly minFileBytes: number;
  /** A document waits this long after its index is complete before saving (the first page goes first). */
  readonly saveDelayMs: number;
  /** A growing transcript's index is saved again at most this often. */
  readonly resaveEveryMs: number;
}

export const SAVED_INDEX_DEFAULTS: SavedLineIndexOptions = {
  maxTotalBytes: 256 * 1024 * 1024,
  minFileBytes: 8 * 1024 * 1024,
  saveDelayMs: 1000,
  resaveEveryMs: 60_000,
};

function isExtent(value: unknown, path: string): value is IndexedExtent {
  if (value === null || typeof value !== 'object') return false;
  const extent = value as Record<string, unknown>;
  const numbers = ['fileBytes', 'mtimeMs', 'indexedBytes', 'nextLineNumber'].every((key) => typeof extent[key] === 'number');
  return extent.path === path && numbers && typeof extent.headHash === 'string' && typeof extent.tailHash === 'string';
}

/**
 * The line indexes of big transcripts, kept in the app data folder so a reopened transcript needs no pass over its
 * bytes: one file per transcript, `MAGIC`, the extent as JSON, the CRC-32s of extent and body, then the binary body
 * (`lineIndexCodec.ts`). A file that is not what we wrote is ignored (and replaced at the next save), never
 * trusted; whether it still fits the transcript is for `TranscriptIndex` to check against the transcript's bytes.
 * Nothing is written under a config root.
 */
export class SavedLineIndexes {
  readonly options: SavedLineIndexOptions;

  constructor(
    readonly dir: string,
    options: Partial<SavedLineIndexOptions> = {},
  ) {
    this.options = { ...SAVED_INDEX_DEFAULTS, ...options };
  }

  fileOf(transcriptPath: string): string {
    return join(this.dir, `${createHash('sha1').update(transcriptPath).digest('hex')}${FILE_SUFFIX}`);
  }

  /** The saved index of a transcript, or null when there is none or it is not one we wrote whole. */
  async load(transcriptPath: string): Promise<SavedLineIndex | null> {
    const file = this.fileOf(transcriptPath);
    let bytes: Buffer | null;
    try {
      bytes = await readWholeFile(file, this.options.maxTotalBytes);
    } catch {
      return null;
    }
    if (bytes === null) return null;
    try {
      const saved = parse(bytes, transcriptPath);
      // Used now: the eviction keeps the most recently used.
      const now = new Date();
      void fs.utimes(file, now, now).catch(() => undefined);
      return saved;
    } catch {
      return null;
    }
  }

  /**
   * Where the saved index of a transcript stopped, read from its header alone (its checksums are checked by `load`),
   * or null when there is none: enough to tell whether a transcript has grown much past it.
   */
  async extentOf(transcriptPath: string): Promise<IndexedExtent | null> {
    let handle: fs.FileHandle | null = null;
    try {
      handle = await fs.open(this.fileOf(transcriptPath), 'r');
      const start = Buffer.alloc(MAGIC.length + 8);
      await handle.read(start, 0, start.length, 0);
      if (!start.subarray(0, MAGIC.length).equals(MAGIC)) return null;
      const meta = Buffer.alloc(Math.min(start.readUInt32LE(MAGIC.length), MAX_META_BYTES));
      const { bytesRead } = await handle.read(meta, 0, meta.length, start.length);
      const extent: unknown = JSON.parse(meta.subarray(0, bytesRead).toString('utf8'));
      return isExtent(extent, transcriptPath) ? extent : null;
    } catch {
      return null;
    } finally {
      await handle?.close();
    }
  }

  /**
   * Saves a transcript's index; resolves with the bytes all saved indexes take now, or null when this one alone is
   * bigger than their room (then it is not written).
   */
  async save(extent: IndexedExtent, snapshot: LineIndexSnapshot): Promise<number | null> {
    const meta = Buffer.from(JSON.stringify(extent), 'utf8');
    const body = encodeLineIndex(snapshot);
    const total = headerLength(meta.length) + body.length;
    if (total > this.options.maxTotalBytes) return null;
    const header = Buffer.alloc(headerLength(meta.length));
    MAGIC.copy(header, 0);
    header.writeUInt32LE(meta.length, MAGIC.length);
    meta.copy(header, MAGIC.length + 8);
    header.writeUInt32LE(crc32(meta), header.length - DIGEST_BYTES);
    header.writeUInt32LE(crc32OfParts(body.parts), header.length - DIGEST_BYTES + 4);
    await replaceFileAtomically(this.fileOf(extent.path), async (handle) => {
      // Written from the pieces as they are: a copy joining them would be as big as the index.
      const { bytesWritten } = await handle.writev([header, ...body.parts]);
      if (bytesWritten !== total) throw new Error(`wrote ${bytesWritten} of ${total} bytes`);
    });
    return this.evict();
  }

  /** Removes the least recently used indexes until the rest fit `maxTotalBytes`; resolves with what the rest take. */
  private async evict(): Promise<number> {
    const names = (await fs.readdir(this.dir)).filter((name) => name.endsWith(FILE_SUFFIX));
    const files = await Promise.all(
      names.map(async (name) => {
        const stats = await fs.stat(join(this.dir, name)).catch(() => null);
        return { name, bytes: stats?.size ?? 0, used: stats?.mtimeMs ?? 0 };
      }),
    );
    files.sort((a, b) => b.used - a.used);
    let total = 0;
    let kept = 0;
    for (const file of files) {
      total += file.bytes;
      if (total > this.options.maxTotalBytes) await fs.rm(join(this.dir, file.name), { force: true });
      else kept = total;
    }
    return kept;
  }
}

/** The CRC-32 of pieces run together, without joining them. */
function crc32OfParts(parts: readonly Uint8Array[]): number {
  // Empty pieces are skipped: Node 20's crc32 answers 0, not the running value, for an empty view of an empty buffer.
  return parts.reduce((crc, part) => (part.byteLength === 0 ? crc : crc32(part, crc)), 0);
}

/** Magic, meta length and a spare word, the meta, padding to 8 bytes (the body's sections are 8-aligned), the digest. */
function headerLength(metaBytes: number): number {
  const beforeDigest = MAGIC.length + 8 + metaBytes;
  return beforeDigest + ((8 - (beforeDigest % 8)) % 8) + DIGEST_BYTES;
}

function parse(bytes: Buffer, transcriptPath: string): SavedLineIndex {
  if (bytes.length < MAGIC.length + 8 || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) throw new Error('not a saved line index');
  const metaBytes = bytes.readUInt32LE(MAGIC.length);
  const bodyStart = headerLength(metaBytes);
  if (bodyStart > bytes.length) throw new Error('cut short');
  const meta = bytes.subarray(MAGIC.length + 8, MAGIC.length + 8 + metaBytes);
  const body = bytes.subarray(bodyStart);
  if (bytes.readUInt32LE(bodyStart - DIGEST_BYTES) !== crc32(meta) || bytes.readUInt32LE(bodyStart - DIGEST_BYTES + 4) !== crc32(body))
    throw new Error('checksum mismatch');
  const extent: unknown = JSON.parse(meta.toString('utf8'));
  if (!isExtent(extent, transcriptPath)) throw new Error('of another transcript');
  return { extent, snapshot: decodeLineIndex(body) };
}
