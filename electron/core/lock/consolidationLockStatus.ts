import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { ConsolidationLockStatus } from '../../../shared/model/memory';

export const LOCK_FILE_NAME = '.consolidate-lock';

/** Whether a process with this PID runs here; EPERM means it runs under another user. */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Reads `.consolidate-lock` without touching it: its mtime is Claude Code's lastConsolidatedAt, its body the holder PID. */
export async function readConsolidationLockStatus(memoryDir: string): Promise<ConsolidationLockStatus> {
  const path = join(memoryDir, LOCK_FILE_NAME);
  let stats;
  try {
    stats = await fs.lstat(path);
  } catch {
    return { exists: false, lastConsolidatedAt: null, holderPid: null, holderAlive: null };
  }
  let holderPid: number | null = null;
  if (stats.isFile() && stats.size <= 64) {
    const body = (await fs.readFile(path, 'utf8').catch(() => '')).trim();
    const pid = /^\d{1,10}$/.test(body) ? Number(body) : NaN;
    holderPid = Number.isSafeInteger(pid) && pid > 0 ? pid : null;
  }
  return {
    exists: true,
    lastConsolidatedAt: new Date(stats.mtimeMs).toISOString(),
    holderPid,
    holderAlive: holderPid === null ? null : isProcessAlive(holderPid),
  };
}
