const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

/** Reads of this size keep the splitter near the disk's speed (toolchain.md: hand-rolled splitter over 1 MiB reads). */
export const READ_CHUNK_BYTES = 1024 * 1024;

/** Longer lines (a pasted video, a runaway tool result) are skipped and counted, so memory stays bounded. */
export const MAX_LINE_BYTES = 32 * 1024 * 1024;

/** Where the splitter's bytes come from: a file on disk, or an archived copy of one. */
export interface ChunkSource {
  /**
   * Reads up to `length` bytes at `position` into the start of `buffer` and gives the count; fewer than asked means
   * the source ends there (for now). `ahead`: the splitter splits the previous chunk meanwhile, so a source that can
   * read in the background should; otherwise the bytes are wanted at once, and a source may read them blocking.
   */
  read(buffer: Buffer, length: number, position: number, ahead: boolean): number | Promise<number>;
}

export interface LineVisitor {
  /**
   * One complete line: `bytes` (without the newline or a trailing CR) is only valid during the call, or null
   * when the line was longer than the limit and skipped. `offset` and `length` place the line in the source (its CR
   * included, its newline not); `number` counts every line, empty ones included.
   */
  (bytes: Buffer | null, offset: number, length: number, number: number): void;
}

export interface SplitOptions {
  /** Where to start: 0 or an offset a previous read returned (always the start of a line). */
  readonly start: number;
  /** Stop at this offset (a size the caller saw, so a growing file cannot keep it reading), or Infinity: the source's end. */
  readonly end: number;
  /** The number of the line at `start`. */
  readonly firstLineNumber: number;
  readonly maxLineBytes?: number;
  /**
   * One or two buffers of the same size, the size of each read: while the lines of one are split, the next chunk is
   * read into the other. Without a second, one is made when the first read ahead needs it.
   */
  readonly buffers: readonly Buffer[];
  readonly signal?: AbortSignal;
  /** A `performance.now()` time after which the read stops at the next chunk boundary (the rest is read next time). */
  readonly deadline?: number;
  /** Awaited between chunks: lets the event loop breathe during a long read. */
  readonly betweenChunks?: () => Promise<void> | undefined;
  /** Bytes consumed so far in this read, for progress. */
  readonly onBytes?: (bytes: number) => void;
  /** Also return this many bytes just before the returned offset (to notice later if they were rewritten). */
  readonly tailBytes?: number;
  /** Also return a last line that has no newline (yet). */
  readonly keepPartialTail?: boolean;
}

export interface SplitResult {
  /** Offset just past the last complete line: where the next read starts. A partial last line is held back. */
  readonly committedBytes: number;
  /** The number the next line will get. */
  readonly nextLineNumber: number;
  /** Where the read stopped: the source's end (for now) when it reached it. */
  readonly readTo: number;
  /** Up to `tailBytes` bytes just before `committedBytes`. */
  readonly tail: Buffer;
  /** With `keepPartialTail`: a last line without its newline (nor a trailing CR); null when none, too long, or not reached. */
  readonly partialTail: Buffer | null;
  /** False when the read stopped at its deadline before `end`. */
  readonly reachedEnd: boolean;
}

const NO_BYTES = Buffer.alloc(0);

/** A source may answer at once (a blocking read): then there is nothing to wait for. */
async function settled(count: number | Promise<number>): Promise<number> {
  return count;
}

/**
 * The one JSONL line splitter: streams the complete lines of a source region chunk by chunk, never holding more
 * than two chunks plus one line. The rules every reader of transcripts shares live here:
 * - a line ends at a newline; a trailing CR is not part of its bytes;
 * - a line longer than a chunk is only measured as it streams by, then read again whole once its end is seen;
 * - a line longer than `maxLineBytes` is visited as null and never held;
 * - a last line without a newline (still being written) is not visited, and the returned offset points at its start,
 *   so each line is delivered exactly once across reads;
 * - a read shorter than asked is the source's end for now.
 */
export async function splitLines(source: ChunkSource, options: SplitOptions, visit: LineVisitor): Promise<SplitResult> {
  const maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
  const buffers = [...options.buffers];
  const chunkBytes = buffers[0].length;
  const tailBytes = options.tailBytes ?? 0;
  let which = 0;
  let position = options.start;
  /** Start offset of the next line to visit. */
  let lineStart = options.start;
  let lineNumber = options.firstLineNumber;
  /** Bytes of that line seen in earlier chunks: it is longer than what was left of a chunk. */
  let carriedBytes = 0;
  /** Holds a line longer than a chunk, read again whole; reused for the next such line. */
  let longLine: Buffer | null = null;
  let tail = NO_BYTES;
  let tailEnd = -1;
  let reachedEnd = true;
  let pending: Promise<number> | null = null;
  const readLength = (at: number): number => Math.min(chunkBytes, options.end - at);
  try {
    let requested = readLength(position);
    let bytesRead = 0;
    if (requested > 0) {
      // Most transcripts fit in one chunk: a source that can read it blocking spares the promise.
      const first = source.read(buffers[0], requested, position, false);
      bytesRead = typeof first === 'number' ? first : await first;
    }
    while (bytesRead > 0) {
      options.signal?.throwIfAborted();
      const chunk = buffers[which];
      which = 1 - which;
      const next = position + bytesRead;
      const more = bytesRead === requested && next < options.end;
      const stopAtDeadline = more && options.deadline !== undefined && performance.now() > options.deadline;
      if (more && !stopAtDeadline) {
        requested = readLength(next);
        pending = settled(source.read((buffers[which] ??= Buffer.allocUnsafe(chunkBytes)), requested, next, true));
      }
      let at = 0;
      while (at < bytesRead) {
        const newline = chunk.indexOf(NEWLINE, at);
        if (newline < 0 || newline >= bytesRead) {
          // The line continues in the next chunk: only its length is noted until its end is found.
          carriedBytes += bytesRead - at;
          break;
        }
        const length = carriedBytes + (newline - at);
        if (length > maxLineBytes) {
          visit(null, lineStart, length, lineNumber);
        } else if (carriedBytes === 0) {
          const end = newline > at && chunk[newline - 1] === CARRIAGE_RETURN ? newline - 1 : newline;
          visit(chunk.subarray(at, end), lineStart, length, lineNumber);
        } else {
          // Read again in one piece rather than copied chunk by chunk and joined: half the memory, one buffer.
          if (!longLine || longLine.length < length) longLine = Buffer.allocUnsafe(length);
          const again = source.read(longLine, length, lineStart, false);
          const got = typeof again === 'number' ? again : await again;
          visit(withoutCarriageReturn(longLine.subarray(0, got)), lineStart, length, lineNumber);
        }
        lineNumber++;
        lineStart += length + 1;
        carriedBytes = 0;
        at = newline + 1;
      }
      // Keep the bytes before the newest line end while they are at hand (the buffer is reused).
      const tailLength = Math.min(tailBytes, lineStart);
      if (tailLength > 0 && lineStart - tailLength >= position && lineStart !== tailEnd) {
        tail = Buffer.from(chunk.subarray(lineStart - tailLength - position, lineStart - position));
        tailEnd = lineStart;
      }
      position = next;
      options.onBytes?.(position - options.start);
      if (stopAtDeadline) {
        reachedEnd = false;
        break;
      }
      if (!pending) break;
      bytesRead = await pending;
      pending = null;
      await options.betweenChunks?.();
    }
    const tailLength = Math.min(tailBytes, lineStart);
    if (tailLength > 0 && tailEnd !== lineStart) {
      tail = Buffer.alloc(tailLength);
      await settled(source.read(tail, tailLength, lineStart - tailLength, false));
    }
    let partialTail: Buffer | null = null;
    if (options.keepPartialTail && reachedEnd && carriedBytes > 0 && carriedBytes <= maxLineBytes) {
      const partial = Buffer.allocUnsafe(carriedBytes);
      partialTail = withoutCarriageReturn(partial.subarray(0, await settled(source.read(partial, carriedBytes, lineStart, false))));
    }
    return {
      committedBytes: lineStart,
      nextLineNumber: lineNumber,
      readTo: position,
      tail: tail.subarray(0, tailLength),
      partialTail,
      reachedEnd,
    };
  } finally {
    // A read still in flight (after an abort, or a visitor that threw) must land before the caller closes the source.
    await pending?.catch(() => undefined);
  }
}

function withoutCarriageReturn(bytes: Buffer): Buffer {
  return bytes.length > 0 && bytes[bytes.length - 1] === CARRIAGE_RETURN ? bytes.subarray(0, bytes.length - 1) : bytes;
}
