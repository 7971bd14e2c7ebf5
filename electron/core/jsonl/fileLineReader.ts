import { closeSync, fstatSync, openSync, read, readSync } from 'node:fs';
import { yieldWhenSliceIsUsed } from '../async/timeSlices';

const NEWLINE = 0x0a;
const CHUNK_BYTES = 1024 * 1024;
const MIN_CHUNK_BYTES = 16 * 1024;
/** Longer lines (a pasted video, a runaway tool result) are skipped and counted, so memory stays bounded. */
export const DEFAULT_MAX_LINE_BYTES = 32 * 1024 * 1024;

/**
 * Full-size read buffers shared by the reads of one job that reads many files (a catalog build): each read
 * takes two and gives them back, so the job holds two per read in flight. A fresh one per file would outlive
 * its file until a full garbage collection, and a build reads thousands of files.
 */
export class ReadBuffers {
  private readonly idle: Buffer[] = [];

  take(): Buffer {
    return this.idle.pop() ?? Buffer.allocUnsafe(CHUNK_BYTES);
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
   * Called once per complete line, without its newline. The buffer is only valid during the call:
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
function readInBackground(fd: number, buffer: Buffer, position: number): Promise<number> {
  return new Promise((resolve, reject) =>
    read(fd, buffer, 0, buffer.length, position, (error, bytesRead) => (error ? reject(error) : resolve(bytesRead))),
  );
}

/**
 * Streams the complete lines of a JSONL file from a saved offset with a hand-rolled splitter over 1 MiB
 * reads; never holds the whole file. A line longer than a read is only measured as it streams by, then read
 * again whole once its end is seen. A line still being written (no newline yet) is not delivered, and
 * the returned offset points at its start, so each line is delivered exactly once across reads.
 *
 * Opening, closing and the first chunk are blocking, in time slices: a catalog build reads thousands of
 * mostly small files, and each asynchronous open, read and close cost the engine's thread a promise and a
 * thread-pool round trip (together about a fifth of a cold build), while such a call on a file in the page
 * cache takes microseconds. Later chunks of a big file are read ahead on the thread pool, so their copy
 * overlaps with the parsing on this thread.
 */
export async function readJsonlLines(path: string, options: JsonlReadOptions): Promise<JsonlReadResult> {
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  await yieldWhenSliceIsUsed();
  const fd = openSync(path, 'r');
  const shared = options.buffers;
  let buffers: Buffer[] = [];
  let pending: Promise<number> | null = null;
  try {
    if (shared) {
      buffers = [shared.take(), shared.take()];
    } else {
      // Buffers of its own are sized to the file: small files are many.
      const expected = (options.sizeHint ?? fstatSync(fd).size) - options.fromOffset;
      const bytes = Math.min(CHUNK_BYTES, Math.max(MIN_CHUNK_BYTES, expected + 1));
      buffers = [Buffer.allocUnsafe(bytes), Buffer.allocUnsafe(bytes)];
    }
    const chunkBytes = buffers[0].length;
    let which = 0;
    let position = options.fromOffset;
    let lineNumber = options.linesBefore ?? 0;
    /** Start offset (in the file) of the next line to deliver. */
    let committed = options.fromOffset;
    /** Bytes of that line seen in earlier chunks: it is longer than what is left of a chunk. */
    let carriedBytes = 0;
    /** Holds a line longer than a chunk, read again whole from the file; reused for the next such line. */
    let longLine: Buffer | null = null;
    const tailBytes = options.tailBytes ?? 0;
    let tail = Buffer.alloc(0);
    let tailEnd = -1;
    // Most transcripts fit in one chunk: that read is blocking. Later chunks are read ahead in the background.
    let bytesRead = readSync(fd, buffers[which], 0, chunkBytes, position);
    while (bytesRead > 0) {
      if (options.signal?.aborted) throw options.signal.reason ?? new Error('aborted');
      const chunk = buffers[which];
      which = 1 - which;
      // A short read of a regular file is its end for now; only a full buffer calls for another read.
      if (bytesRead === chunkBytes) pending = readInBackground(fd, buffers[which], position + bytesRead);
      let start = 0;
      while (start < bytesRead) {
        const newline = chunk.indexOf(NEWLINE, start);
        const end = newline < 0 || newline >= bytesRead ? -1 : newline;
        if (end < 0) {
          // The line continues in the next chunk: only its length is noted until its end is found.
          carriedBytes += bytesRead - start;
          break;
        }
        lineNumber++;
        const lineBytes = carriedBytes + (end - start);
        if (lineBytes > maxLineBytes) {
          options.onOversizedLine?.(lineNumber, lineBytes);
        } else if (carriedBytes === 0) {
          options.onLine(chunk.subarray(start, end), lineNumber);
        } else {
          // Read again in one piece rather than copied chunk by chunk and joined: half the memory, one buffer.
          if (!longLine || longLine.length < lineBytes) longLine = Buffer.allocUnsafe(lineBytes);
          const lineRead = readSync(fd, longLine, 0, lineBytes, committed);
          options.onLine(longLine.subarray(0, lineRead), lineNumber);
        }
        committed += lineBytes + 1;
        carriedBytes = 0;
        start = end + 1;
      }
      // Keep the bytes before the newest line end while they are at hand (the buffer is reused).
      const tailLength = Math.min(tailBytes, committed);
      if (tailLength > 0 && committed - tailLength >= position && committed !== tailEnd) {
        tail = Buffer.from(chunk.subarray(committed - tailLength - position, committed - position));
        tailEnd = committed;
      }
      position += bytesRead;
      options.onBytes?.(position - options.fromOffset);
      if (!pending) break;
      bytesRead = await pending;
      pending = null;
      await yieldWhenSliceIsUsed();
    }
    const tailLength = Math.min(tailBytes, committed);
    if (tailEnd !== committed && tailLength > 0) {
      tail = Buffer.alloc(tailLength);
      readSync(fd, tail, 0, tailLength, committed - tailLength);
    }
    return { offset: committed, lines: lineNumber, size: position, tail: tail.subarray(0, tailLength) };
  } finally {
    // A read still in flight (after an abort) must finish before its file closes and its buffer is reused.
    await pending?.catch(() => undefined);
    closeSync(fd);
    if (shared) for (const buffer of buffers) shared.giveBack(buffer);
  }
}
