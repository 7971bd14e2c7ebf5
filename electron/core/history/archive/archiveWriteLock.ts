import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { errorCode } from '../../fs/readSafely';
import { isProcessAlive } from '../../lock/consolidationLockStatus';

const LOCK_NAME = 'write.lock';
/** A lock file without a readable PID this old was left by a crash between creating and writing it. */
const UNREADABLE_LOCK_STALE_MS = 10_000;
const WAIT_STEP_MS = 200;

/** Gives the lock back. */
export type ReleaseLock = () => Promise<void>;

export type LockAttempt =
  { readonly acquired: true; readonly release: ReleaseLock } | { readonly acquired: false; readonly holderPid: number | null };

async function holder(path: string): Promise<{ pid: number | null; ageMs: number } | null> {
  try {
    const [text, stats] = await Promise.all([fs.readFile(path, 'utf8'), fs.stat(path)]);
    const pid = /^\d{1,10}$/.test(text.trim()) ? Number(text.trim()) : null;
    return { pid, ageMs: Date.now() - stats.mtimeMs };
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
}

async function tryOnce(dir: string): Promise<LockAttempt> {
  const path = join(dir, LOCK_NAME);
  await fs.mkdir(dir, { recursive: true });
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await fs.open(path, 'wx', 0o600);
      try {
        await handle.writeFile(String(process.pid));
      } finally {
        await handle.close();
      }
      return {
        acquired: true,
        release: async () => {
          // Only our own lock is removed: a lock taken over as stale in the meantime belongs to its new holder.
          const now = await holder(path).catch(() => null);
          if (now?.pid === process.pid) await fs.rm(path, { force: true });
        },
      };
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
    }
    const current = await holder(path);
    if (current === null) continue;
    const stale =
      current.pid === null ? current.ageMs > UNREADABLE_LOCK_STALE_MS : current.pid !== process.pid && !isProcessAlive(current.pid);
    if (!stale) return { acquired: false, holderPid: current.pid };
    await fs.rm(path, { force: true });
  }
  return { acquired: false, holderPid: null };
}

/**
 * The archive's write lock, across processes: the desktop app, `ccmem serve` and `ccmem archive` may share one app
 * data folder, and two writers appending to one data file would corrupt it. A file holding the writer's PID, taken
 * with an exclusive create; a lock whose process is gone is taken over. With `wait`, polls until it is free.
 */
export async function acquireArchiveLock(
  dir: string,
  options: { readonly wait: boolean; readonly signal?: AbortSignal; readonly onWait?: (holderPid: number | null) => void },
): Promise<LockAttempt> {
  for (let waited = false; ; waited = true) {
    const attempt = await tryOnce(dir);
    if (attempt.acquired || !options.wait || options.signal?.aborted) return attempt;
    if (!waited) options.onWait?.(attempt.holderPid);
    await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
  }
}
