import type { ConsolidationLockStatus } from '../../../shared/model/memory';

/** Claude Code's HOLDER_STALE_MS: a lock older than this no longer blocks, whoever holds it. */
export const HOLDER_STALE_MS = 60 * 60 * 1000;

/**
 * Whether a dream is running on this memory right now, by Claude Code's own rule (consolidationLock.ts):
 * the lock names a PID that is alive and is younger than an hour. Our own process never blocks itself.
 */
export function isLiveDreamLock(lock: ConsolidationLockStatus, now: number): boolean {
  if (!lock.exists || lock.holderPid === null || lock.holderAlive !== true || lock.lastConsolidatedAt === null) return false;
  if (lock.holderPid === process.pid) return false;
  return now - Date.parse(lock.lastConsolidatedAt) < HOLDER_STALE_MS;
}
