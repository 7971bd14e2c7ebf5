import { open } from 'node:fs/promises';

/** What a reader needs to know about the bytes it reads: their length, age and identity (a replaced file is another). */
export interface SourceStats {
  readonly size: number;
  readonly mtimeMs: number;
  readonly dev: number;
  readonly ino: number;
}

/**
 * Bytes read by offset: a file on disk (a `FileHandle` is one as it is) or an archived copy of a transcript that
 * Claude Code deleted. Transcript readers take one of these, so they read an archived copy exactly as the file.
 */
export interface RandomAccessSource {
  stat(): Promise<SourceStats>;
  read(buffer: Buffer, offset: number, length: number, position: number): Promise<{ readonly bytesRead: number }>;
  close(): Promise<void>;
}

/** Opens the bytes at a path for reading; rejects like `fs.open` (`ENOENT`) when there are none. */
export type SourceOpener = (path: string) => Promise<RandomAccessSource>;

export const openFromDisk: SourceOpener = (path) => open(path, 'r');
