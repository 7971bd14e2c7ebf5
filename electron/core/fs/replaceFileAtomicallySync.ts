import { randomBytes } from 'node:crypto';
import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';

/**
 * Temp names are this thread's random token and a count: as private as a random name per file (the temp file is
 * created exclusively, so a clash only fails that write), without a call for random bytes on each of a build's
 * hundreds of state writes.
 */
const THREAD_TOKEN = randomBytes(6).toString('hex');
let tempCount = 0;

/**
 * `replaceFileAtomically` for a thread that has nothing else to do meanwhile (the catalog's scan worker): the same
 * private temp file beside the target and rename, in blocking calls, which cost a fraction of the promise round trips
 * of the asynchronous one. The folder must exist.
 */
export function replaceFileAtomicallySync(path: string, text: string): void {
  const temp = `${path}.${THREAD_TOKEN}${(tempCount++).toString(36)}.tmp`;
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
