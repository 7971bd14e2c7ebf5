import { promises as fs } from 'node:fs';

const NEWLINE = 0x0a;
const CHUNK_BYTES = 1024 * 1024;

interface Checkpoint {
  readonly offset: number;
  /** Newlines before `offset`. */
  readonly newlines: number;
}

/**
 * Turns byte offsets in transcripts into 1-based line numbers by counting newlines, streamed in 1 MiB reads.
 * Transcripts only grow, so the count up to the furthest offset asked so far is kept and later questions
 * count on from there.
 */
export class LineNumbers {
  private readonly checkpoints = new Map<string, Checkpoint>();

  async lineAt(path: string, offset: number): Promise<number | null> {
    const known = this.checkpoints.get(path);
    const start = known && known.offset <= offset ? known : { offset: 0, newlines: 0 };
    let newlines = start.newlines;
    let handle;
    try {
      handle = await fs.open(path, 'r');
    } catch {
      return null;
    }
    try {
      const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
      let position = start.offset;
      while (position < offset) {
        const { bytesRead } = await handle.read(buffer, 0, Math.min(CHUNK_BYTES, offset - position), position);
        if (bytesRead === 0) return null;
        for (let at = buffer.indexOf(NEWLINE, 0); at >= 0 && at < bytesRead; at = buffer.indexOf(NEWLINE, at + 1)) newlines++;
        position += bytesRead;
      }
    } finally {
      await handle.close();
    }
    if (!known || offset > known.offset) this.checkpoints.set(path, { offset, newlines });
    return newlines + 1;
  }
}
