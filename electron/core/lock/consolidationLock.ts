import { constants, promises as fs } from 'node:fs';
import { join } from 'node:path';
import { CodedError } from '../../../shared/result';
import { isProcessAlive, LOCK_FILE_NAME } from './consolidationLockStatus';
import { HOLDER_STALE_MS } from './liveDreamLock';

export interface HeldConsolidationLock {
  readonly path: string;
  /** The lock's mtime before we took it; 0 when there was no lock. Rollback puts it back. */
  readonly priorMtimeMs: number;
  readonly pid: number;
}

function parseHolder(body: string): number | undefined {
  const pid = Number.parseInt(body.trim(), 10);
  return Number.isNaN(pid) ? undefined : pid;
}

/** Writes the whole lock body without following a symlink at the lock's path. */
async function writeLockBody(path: string, body: string): Promise<void> {
  const handle = await fs.open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NOFOLLOW ?? 0), 0o644);
  try {
    await handle.writeFile(body, 'utf8');
  } finally {
    await handle.close();
  }
}

async function refuseSymlink(path: string): Promise<void> {
  const stats = await fs.lstat(path).catch(() => null);
  if (stats && !stats.isFile()) throw new CodedError('FORBIDDEN', `${path} is not a regular file; the lock is left alone`);
}

async function holdsOurPid(lock: HeldConsolidationLock): Promise<boolean> {
  const body = await fs.readFile(lock.path, 'utf8').catch(() => null);
  return body !== null && parseHolder(body) === lock.pid;
}

/**
 * Takes `.consolidate-lock` exactly as Claude Code does (claude-code-state.md §7.5): a recent lock whose PID
 * runs blocks (null); otherwise write our PID (mtime = now) and read it back; a different body means
 * another process won the race (null). On success returns the prior mtime for a rollback.
 */
export async function tryAcquireConsolidationLock(memoryDir: string, pid: number = process.pid): Promise<HeldConsolidationLock | null> {
  const path = join(memoryDir, LOCK_FILE_NAME);
  await refuseSymlink(path);
  let priorMtimeMs: number | undefined;
  let holderPid: number | undefined;
  try {
    const [stats, body] = await Promise.all([fs.stat(path), fs.readFile(path, 'utf8')]);
    priorMtimeMs = stats.mtimeMs;
    holderPid = parseHolder(body);
  } catch {
    // No lock yet (or unreadable): it is free to take.
  }
  if (priorMtimeMs !== undefined && Date.now() - priorMtimeMs < HOLDER_STALE_MS && holderPid !== undefined && isProcessAlive(holderPid)) {
    return null;
  }
  await fs.mkdir(memoryDir, { recursive: true });
  await writeLockBody(path, String(pid));
  const lock: HeldConsolidationLock = { path, priorMtimeMs: priorMtimeMs ?? 0, pid };
  return (await holdsOurPid(lock)) ? lock : null;
}

/**
 * Undoes our acquisition: no prior lock → remove it; else clear the PID (so this live process is no holder)
 * and set the mtime back, so Claude Code's time gate sees the last real consolidation. Leaves a lock that
 * another process has taken since alone.
 */
export async function rollbackConsolidationLock(lock: HeldConsolidationLock): Promise<void> {
  if (!(await holdsOurPid(lock))) return;
  if (lock.priorMtimeMs === 0) {
    await fs.unlink(lock.path);
    return;
  }
  await writeLockBody(lock.path, '');
  await fs.utimes(lock.path, lock.priorMtimeMs / 1000, lock.priorMtimeMs / 1000);
}

/**
 * After a successful dream the mtime stays at the time we took the lock, as Claude Code's own dream leaves
 * it; only the PID is cleared, because this app keeps running and would otherwise look like a live holder.
 */
export async function releaseConsolidationLockAfterDream(lock: HeldConsolidationLock): Promise<void> {
  if (!(await holdsOurPid(lock))) return;
  const { mtimeMs } = await fs.stat(lock.path);
  await writeLockBody(lock.path, '');
  // Seconds as a number keep the sub-millisecond part a Date would drop.
  await fs.utimes(lock.path, mtimeMs / 1000, mtimeMs / 1000);
}
