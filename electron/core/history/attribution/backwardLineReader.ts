import { promises as fs } from 'node:fs';

const NEWLINE = 0x0a;
const CHUNK_BYTES = 1024 * 1024;
/** Longer lines (inline images, huge tool output) never hold evidence of a memory write; they are skipped unread. */
const MAX_LINE_BYTES = 8 * 1024 * 1024;

export interface BackwardReadOptions {
  /** Stop after this many bytes from the end, however far the caller wanted to go. */
  readonly maxBytes: number;
  /**
   * Called per line, newest first, with the line's byte offset. The buffer is only valid during the call.
   * Returning `false` stops the read (the caller has gone back far enough).
   */
  readonly onLine: (line: Buffer, offset: number) => boolean;
}

export interface BackwardReadResult {
  /** True when the read stopped at `maxBytes` before reaching the start or being told to stop. */
  readonly capped: boolean;
}

/**
 * Reads the lines of a JSONL file from its end towards its start in 1 MiB steps, so recent evidence in a
 * transcript of gigabytes costs only the bytes after it. A last line without its newline (still being
 * written) is delivered too; the caller's JSON parse decides whether it is whole.
 */
export async function readLinesBackward(path: string, options: BackwardReadOptions): Promise<BackwardReadResult> {
  const handle = await fs.open(path, 'r');
  try {
    const { size } = await handle.stat();
    let position = size;
    /** Bytes of the line that started in an earlier (lower) chunk and continues into the chunks read already. */
    let carry: Buffer = Buffer.alloc(0);
    let skippingLongLine = false;
    const lowest = Math.max(0, size - options.maxBytes);
    while (position > lowest) {
      const length = Math.min(CHUNK_BYTES, position - lowest);
      position -= length;
      const chunk = Buffer.allocUnsafe(length);
      const { bytesRead } = await handle.read(chunk, 0, length, position);
      const data = skippingLongLine ? chunk.subarray(0, bytesRead) : Buffer.concat([chunk.subarray(0, bytesRead), carry]);
      let end = data.length;
      for (let newline = data.lastIndexOf(NEWLINE, end - 1); newline >= 0; newline = data.lastIndexOf(NEWLINE, end - 1)) {
        const start = newline + 1;
        if (skippingLongLine) skippingLongLine = false;
        else if (end > start && !options.onLine(data.subarray(start, end), position + start)) return { capped: false };
        end = newline;
      }
      // What is left before the first newline belongs to a line that starts further back.
      if (skippingLongLine || end > MAX_LINE_BYTES) {
        skippingLongLine = true;
        carry = Buffer.alloc(0);
      } else carry = Buffer.from(data.subarray(0, end));
    }
    if (position === 0 && !skippingLongLine && carry.length > 0) options.onLine(carry, 0);
    return { capped: position > 0 };
  } finally {
    await handle.close();
  }
}
