import { closeSync, fstatSync, openSync, read, readSync } from 'node:fs';
import { yieldWhenSliceIsUsed } from '../async/timeSlices';
import { READ_CHUNK_BYTES, splitLines, type ChunkSource } from './lineSplitter';

const MIN_CHUNK_BYTES = 16 * 1024;

/**
 * Full-size read buffers shared by the reads of one job that reads many files (a catalog build): each read
 * takes two and gives them back, so the job holds two per read in flight. A fresh one per file would outlive
 * its file until a full garbage collection, and a build reads thousands of files.
 */
export class ReadBuffers {
  private readonly idle: Buffer[] = [];

  take(): Buffer {
    return this.idle.pop() ?? Buffer.allocUnsafe(READ_CHUNK_BYTES);
  }

  giveBack(buffer: Buffer): void {
    this.idle.push(buffer);
  }
}

export interface JsonlReadOptions {
  /** Where to start: 0 or an offset a previous read returned (always the start of a line). */
  readonly fromOffset: number;
  /** How many lines lie before `fromOffset`, so line numbers stay 1-based across reads. */
  readonly linesBefore?: number;
  readonly maxLineBytes?: number;
  readonly signal?: AbortSignal;
  /**
   * Called once per complete line, without its newline (nor a trailing CR). The buffer is only valid during the call:
   * it is reused for the next chunk, so copy what must be kept.
   */
  readonly onLine: (line: Buffer, lineNumber: number) => void;
  /** Called for each line longer than `maxLineBytes`; its bytes are never held in memory. */
  readonly onOversizedLine?: (lineNumber: number, bytes: number) => void;
  /** Bytes consumed so far in this read, for progress. */
  readonly onBytes?: (bytes: number) => void;
  /** Also return this many bytes just before the returned offset (to notice later if they were rewritten). */
  readonly tailBytes?: number;
  /** The file's size if the caller just looked (saves a stat); only used to size the buffers. */
  readonly sizeHint?: number;
  /** Where to take read buffers from and give them back; without it a read allocates its own, sized to the file. */
  readonly buffers?: ReadBuffers;
}

export interface JsonlReadResult {
  /** The offset after the last complete line: where the next read starts. A partial last line is held back. */
  readonly offset: number;
  /** Lines before `offset` (complete lines seen, in this read and before it). */
  readonly lines: number;
  /** Where the file ended when the read stopped. */
  readonly size: number;
  /** Up to `tailBytes` bytes just before `offset`. */
  readonly tail: Buffer;
}

/** One read on the thread pool: the copy of a big chunk overlaps with the splitting and parsing of the last one. */
function readInBackground(fd: number, buffer: Buffer, length: number, position: number): Promise<number> {
  return new Promise((resolve, reject) =>
    read(fd, buffer, 0, length, position, (error, bytesRead) => (error ? reject(error) : resolve(bytesRead))),
  );
}

/**
 * A file's chunks for the splitter: blocking reads, except the chunks read ahead, which go to the thread pool.
 *
 * Opening, closing and the first chunk are blocking, in time slices: a catalog build reads thousands of
 * mostly small files, and each asynchronous open, read and close cost the engine's thread a promise and a
 * thread-pool round trip (together about a fifth of a cold build), while such a call on a file in the page
 * cache takes microseconds. Later chunks of a big file are read ahead on the thread pool, so their copy
 * overlaps with the parsing on this thread.
 */
function fileChunks(fd: number): ChunkSource {
  return {
    read: (buffer, length, position, ahead) =>
      ahead ? readInBackground(fd, buffer, length, position) : readSync(fd, buffer, 0, length, position),
  };
}

/**
 * Streams the complete lines of a JSONL file from a saved offset (see `splitLines` for the rules), up to where
 * the file ends when the read gets there; never holds the whole file.
 */
export async function readJsonlLines(path: string, options: JsonlReadOptions): Promise<JsonlReadResult> {
  await yieldWhenSliceIsUsed();
  const fd = openSync(path, 'r');
  const shared = options.buffers;
  let buffers: Buffer[] = [];
  try {
    if (shared) {
      buffers = [shared.take(), shared.take()];
    } else {
      // Buffers of its own are sized to the file: small files are many.
      const expected = (options.sizeHint ?? fstatSync(fd).size) - options.fromOffset;
      const bytes = Math.min(READ_CHUNK_BYTES, Math.max(MIN_CHUNK_BYTES, expected + 1));
      buffers = [Buffer.allocUnsafe(bytes), Buffer.allocUnsafe(bytes)];
    }
    const { onLine, onOversizedLine } = options;
    const result = await splitLines(
      fileChunks(fd),
      {
        start: options.fromOffset,
        end: Infinity,
        firstLineNumber: (options.linesBefore ?? 0) + 1,
        maxLineBytes: options.maxLineBytes,
        buffers,
        signal: options.signal,
        betweenChunks: yieldWhenSliceIsUsed,
        onBytes: options.onBytes,
        tailBytes: options.tailBytes,
      },
      (line, _offset, length, lineNumber) => (line === null ? onOversizedLine?.(lineNumber, length) : onLine(line, lineNumber)),
    );
    return { offset: result.committedBytes, lines: result.nextLineNumber - 1, size: result.readTo, tail: result.tail };
  } finally {
    closeSync(fd);
    if (shared) for (const buffer of buffers) shared.giveBack(buffer);
  }
}
