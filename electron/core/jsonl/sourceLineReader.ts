import type { RandomAccessSource } from '../fs/randomAccessSource';
import { READ_CHUNK_BYTES, splitLines, type ChunkSource, type LineVisitor } from './lineSplitter';

export { MAX_LINE_BYTES, type LineVisitor } from './lineSplitter';

export interface LineReadResult {
  /** Offset just past the last complete line: where the next read starts. */
  readonly committedBytes: number;
  /** The number the next line will get. */
  readonly nextLineNumber: number;
  /** A last line without its newline (still being written, or a file that ends without one); null when none or too long. */
  readonly partialTail: Buffer | null;
  /** False when the read stopped at its deadline before `end`. */
  readonly reachedEnd: boolean;
  /** Up to `tailBytes` bytes just before `committedBytes`. */
  readonly tail: Buffer;
}

export interface LineReadOptions {
  readonly start: number;
  /** Stop at this offset (the size when the read began), so a file that keeps growing cannot keep us reading. */
  readonly end: number;
  readonly firstLineNumber: number;
  readonly maxLineBytes?: number;
  /** Lets the event loop breathe after every this many chunks of a long read. */
  readonly yieldEvery?: number;
  /** A `performance.now()` time after which the read stops at the next chunk boundary (the rest is read next time). */
  readonly deadline?: number;
  /** Also return this many bytes just before the returned offset. */
  readonly tailBytes?: number;
}

function sourceChunks(handle: RandomAccessSource): ChunkSource {
  return { read: (buffer, length, position) => handle.read(buffer, 0, length, position).then(({ bytesRead }) => bytesRead) };
}

/**
 * Streams the complete JSONL lines of a file region (on disk or archived) by byte offset (see `splitLines` for the
 * rules): a partial last line is held back (returned as `partialTail`, not visited).
 */
export async function readLines(handle: RandomAccessSource, options: LineReadOptions, visit: LineVisitor): Promise<LineReadResult> {
  // Sized to the read (a live append is often a few hundred bytes); the second buffer exists only once a read-ahead does.
  const chunkBytes = Math.max(1, Math.min(READ_CHUNK_BYTES, options.end - options.start));
  const { yieldEvery } = options;
  let chunks = 0;
  const result = await splitLines(
    sourceChunks(handle),
    {
      start: options.start,
      end: options.end,
      firstLineNumber: options.firstLineNumber,
      maxLineBytes: options.maxLineBytes,
      buffers: [Buffer.allocUnsafe(chunkBytes)],
      deadline: options.deadline,
      betweenChunks: yieldEvery
        ? () => (++chunks % yieldEvery === 0 ? new Promise<void>((resolve) => setImmediate(resolve)) : undefined)
        : undefined,
      tailBytes: options.tailBytes,
      keepPartialTail: true,
    },
    visit,
  );
  return {
    committedBytes: result.committedBytes,
    nextLineNumber: result.nextLineNumber,
    partialTail: result.partialTail,
    reachedEnd: result.reachedEnd,
    tail: result.tail,
  };
}
