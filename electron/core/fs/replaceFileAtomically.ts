import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';

export interface ReplaceOptions {
  /** fsync before the rename, for records that must survive a crash (history blobs); bookkeeping skips it. */
  readonly durable?: boolean;
  /** The caller made the folder already (a writer of thousands of files in one folder saves a `mkdir` for each). */
  readonly folderExists?: boolean;
}

/** Writes the new content into the temp file (for content written in pieces, at positions of its choosing). */
export type ContentWriter = (handle: FileHandle) => Promise<void>;

/**
 * Writes a file of the app's own data folder so that a reader sees the old bytes or the new ones, never half:
 * a private temp file beside it (owner-only), then a rename. A failure on the way removes the temp file again.
 * Not for memory files: those go through the safe writer, which also guards against foreign changes.
 */
export async function replaceFileAtomically(
  path: string,
  data: string | Uint8Array | ContentWriter,
  options: ReplaceOptions = {},
): Promise<void> {
  if (!options.folderExists) await fs.mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    const handle = await fs.open(temp, 'wx', 0o600);
    try {
      if (typeof data === 'function') await data(handle);
      else await handle.writeFile(data);
      if (options.durable) await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temp, path);
  } catch (error) {
    // The write's own error is the one to report, not a failed clean-up's.
    await fs.rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
}
