import { randomBytes } from 'node:crypto';
import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';

/**
 * `replaceFileAtomically` for a thread that has nothing else to do meanwhile (the catalog's scan worker): the same
 * private temp file beside the target and rename, in blocking calls, which cost a fraction of the promise round trips
 * of the asynchronous one. The folder must exist.
 */
export function replaceFileAtomicallySync(path: string, text: string): void {
  const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    const fd = openSync(temp, 'wx', 0o600);
    try {
      writeSync(fd, text);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    // The write's own error is the one to report, not a failed clean-up's.
    try {
      rmSync(temp, { force: true });
    } catch {
      // Nothing more to undo.
    }
    throw error;
  }
}
