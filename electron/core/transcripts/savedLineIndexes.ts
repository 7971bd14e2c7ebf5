import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { replaceFileAtomically } from '../fs/replaceFileAtomically';
import { decodeLineIndex, encodeLineIndex, type LineIndexSnapshot } from './lineIndexCodec';

/** First bytes of every saved index; the last two digits are the format, raised whenever the body changes shape. */
const MAGIC = Buffer.from('CMMLIX01', 'latin1');
const DIGEST = 'sha256';
const DIGEST_BYTES = 32;
const FILE_SUFFIX = '.lineindex';
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
 * bytes: one file per transcript, `MAGIC`, the extent as JSON, a SHA-256 of extent and body, then the binary body
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
    let bytes: Buffer;
    try {
      if ((await fs.stat(file)).size > this.options.maxTotalBytes) return null;
      bytes = await fs.readFile(file);
    } catch {
      return null;
    }
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

  async save(extent: IndexedExtent, snapshot: LineIndexSnapshot): Promise<void> {
    const meta = Buffer.from(JSON.stringify(extent), 'utf8');
    const body = encodeLineIndex(snapshot);
    const total = headerLength(meta.length) + body.length;
    if (total > this.options.maxTotalBytes) return;
    const header = Buffer.alloc(headerLength(meta.length));
    MAGIC.copy(header, 0);
    header.writeUInt32LE(meta.length, MAGIC.length);
    meta.copy(header, MAGIC.length + 8);
    createHash(DIGEST)
      .update(meta)
      .update(body)
      .digest()
      .copy(header, header.length - DIGEST_BYTES);
    await replaceFileAtomically(this.fileOf(extent.path), Buffer.concat([header, body]));
    await this.evict();
  }

  /** Removes the least recently used indexes until the rest fit `maxTotalBytes`. */
  private async evict(): Promise<void> {
    const names = (await fs.readdir(this.dir)).filter((name) => name.endsWith(FILE_SUFFIX));
    const files = await Promise.all(
      names.map(async (name) => {
        const stats = await fs.stat(join(this.dir, name)).catch(() => null);
        return { name, bytes: stats?.size ?? 0, used: stats?.mtimeMs ?? 0 };
      }),
    );
    files.sort((a, b) => b.used - a.used);
    let total = 0;
    for (const file of files) {
      total += file.bytes;
      if (total > this.options.maxTotalBytes) await fs.rm(join(this.dir, file.name), { force: true });
    }
  }
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
  const digest = createHash(DIGEST).update(meta).update(body).digest();
  if (!digest.equals(bytes.subarray(bodyStart - DIGEST_BYTES, bodyStart))) throw new Error('checksum mismatch');
  const extent: unknown = JSON.parse(meta.toString('utf8'));
  if (!isExtent(extent, transcriptPath)) throw new Error('of another transcript');
  return { extent, snapshot: decodeLineIndex(body) };
}
