import type { RandomAccessSource } from '../fs/randomAccessSource';

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/** Reads of this size keep the splitter near the disk's speed (toolchain.md: hand-rolled splitter over 1 MiB reads). */
export const READ_CHUNK_BYTES = 1024 * 1024;

/** Longer lines are skipped and counted instead of held in memory (a pasted video, a runaway tool output). */
export const MAX_LINE_BYTES = 32 * 1024 * 1024;

export interface LineVisitor {
  /**
   * One complete line: `bytes` (without the newline or a trailing CR) is only valid during the call, or null
   * when the line was longer than the limit and skipped. `number` counts every line, empty ones included.
   */
  (bytes: Buffer | null, offset: number, length: number, number: number): void;
}

export interface LineReadResult {
  /** Offset just past the last complete line: where the next read starts. */
  readonly committedBytes: number;
  /** The number the next line will get. */
  readonly nextLineNumber: number;
  /** A last line without its newline (still being written, or a file that ends without one); null when none or too long. */
  readonly partialTail: Buffer | null;
  /** False when the read stopped at its deadline before `end`. */
  readonly reachedEnd: boolean;
}

export interface LineReadOptions {
  readonly start: number;
  /** Stop at this offset (the size when the read began), so a file that keeps growing cannot keep us reading. */
  readonly end: number;
  readonly firstLineNumber: number;
  readonly maxLineBytes?: number;
  /** Lets the event loop breathe between chunks of a long read. */
  readonly yieldEvery?: number;
  /** A `performance.now()` time after which the read stops at the next chunk boundary (the rest is read next time). */
  readonly deadline?: number;
}

function trimCarriageReturn(bytes: Buffer): Buffer {
  return bytes.length > 0 && bytes[bytes.length - 1] === CARRIAGE_RETURN ? bytes.subarray(0, bytes.length - 1) : bytes;
}

/**
 * Streams the complete JSONL lines of a file region (on disk or archived) by byte offset, never holding more than one chunk plus one
 * line: a partial last line is held back (returned as `partialTail`, not visited), and a line longer than the
 * limit is skipped without being kept.
 */
export async function readLines(handle: RandomAccessSource, options: LineReadOptions, visit: LineVisitor): Promise<LineReadResult> {
  const maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
  // Two buffers: while the lines of one are visited, the next chunk is read into the other on the thread pool.
  // Sized to the read (a live append is often a few hundred bytes); the second exists only once a read-ahead does.
  const chunkBytes = Math.max(1, Math.min(READ_CHUNK_BYTES, options.end - options.start));
  const buffers: Buffer[] = [Buffer.allocUnsafe(chunkBytes)];
  let which = 0;
  const readAt = (buffer: Buffer, position: number): Promise<number> =>
    handle.read(buffer, 0, Math.min(buffer.length, options.end - position), position).then(({ bytesRead }) => bytesRead);
  let position = options.start;
  let lineStart = options.start;
  let lineNumber = options.firstLineNumber;
  let carry: Buffer[] = [];
  let carryBytes = 0;
  let skipping = false;
  let chunksRead = 0;
  let pending: Promise<number> | null = position < options.end ? readAt(buffers[0], position) : null;
  try {
    while (pending) {
      const bytesRead = await pending;
      pending = null;
      if (bytesRead === 0) break;
      const chunk = buffers[which];
      which = 1 - which;
      const next = position + bytesRead;
      const stopAtDeadline = options.deadline !== undefined && next < options.end && performance.now() > options.deadline;
      if (next < options.end && !stopAtDeadline) pending = readAt((buffers[which] ??= Buffer.allocUnsafe(chunkBytes)), next);
      let at = 0;
      while (at < bytesRead) {
        const newline = chunk.indexOf(NEWLINE, at);
        if (newline < 0 || newline >= bytesRead) {
          if (!skipping) {
            if (carryBytes + (bytesRead - at) > maxLineBytes) {
              skipping = true;
              carry = [];
              carryBytes = 0;
            } else {
              // The chunk buffer is reused: keep a copy of the line's beginning.
              carry.push(Buffer.from(chunk.subarray(at, bytesRead)));
              carryBytes += bytesRead - at;
            }
          }
          break;
        }
        const lineEnd = position + newline;
        const length = lineEnd - lineStart;
        if (skipping || carryBytes + (newline - at) > maxLineBytes) {
          visit(null, lineStart, length, lineNumber);
        } else if (carryBytes === 0) {
          visit(trimCarriageReturn(chunk.subarray(at, newline)), lineStart, length, lineNumber);
        } else {
          carry.push(chunk.subarray(at, newline));
          visit(trimCarriageReturn(Buffer.concat(carry, carryBytes + newline - at)), lineStart, length, lineNumber);
        }
        carry = [];
        carryBytes = 0;
        skipping = false;
        lineNumber++;
        lineStart = lineEnd + 1;
        at = newline + 1;
      }
      position = next;
      chunksRead++;
      if (stopAtDeadline) return { committedBytes: lineStart, nextLineNumber: lineNumber, partialTail: null, reachedEnd: false };
      if (options.yieldEvery && chunksRead % options.yieldEvery === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    }
  } finally {
    // A read still in flight (after a visitor threw) must land before the caller closes the file.
    await pending?.catch(() => undefined);
  }
  return {
    committedBytes: lineStart,
    nextLineNumber: lineNumber,
    partialTail: !skipping && carryBytes > 0 ? trimCarriageReturn(Buffer.concat(carry, carryBytes)) : null,
    reachedEnd: true,
  };
}
