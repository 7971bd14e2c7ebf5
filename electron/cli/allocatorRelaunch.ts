import { spawn } from 'node:child_process';
import { constants } from 'node:os';

/**
 * glibc serves a request of 128 KB or more with a mapping of its own, but once such a block is freed it raises that
 * threshold to the block's size (up to 32 MB): from then on the engine's read buffers, cache files and line index
 * columns come from the allocator's heap and arenas, which keep the freed space. Fixing the threshold turns that off;
 * on a 2.5 GB home the first start's peak falls from 335–341 MB to 272–292 (docs/performance.md, round seven). glibc
 * reads it only when a process starts, so a long-running `ccmem serve` starts itself again with it set.
 */
export const MMAP_THRESHOLD_VARIABLE = 'MALLOC_MMAP_THRESHOLD_';
export const FIXED_MMAP_THRESHOLD = '131072';
/** Set in the relaunched server: its parent's pid, so it stops when that process is gone. */
export const RELAUNCHED_BY_VARIABLE = 'CCMEM_RELAUNCHED_BY';

const FORWARDED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const PARENT_CHECK_MS = 1000;

/**
 * Whether to start again: only on Linux (other systems' allocators do not do this), only from the installed
 * command's own process, and not when the user chose a threshold (any value) or this is the relaunched one.
 */
export function shouldRelaunchForAllocator(env: NodeJS.ProcessEnv, entryScript: string | undefined, platform = process.platform): boolean {
  return (
    platform === 'linux' &&
    entryScript !== undefined &&
    env[MMAP_THRESHOLD_VARIABLE] === undefined &&
    env[RELAUNCHED_BY_VARIABLE] === undefined
  );
}

/**
 * Runs the same command again in a new process with the threshold fixed, and resolves with its exit code. The new
 * process is in a process group of its own, so a Ctrl-C in the terminal reaches it once, through this one, which
 * passes on every stopping signal it gets; output goes straight to this process's streams.
 */
export function relaunchForAllocator(entryScript: string, argv: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const child = spawn(process.execPath, [...process.execArgv, entryScript, ...argv], {
    stdio: 'inherit',
    detached: true,
    env: { ...env, [MMAP_THRESHOLD_VARIABLE]: FIXED_MMAP_THRESHOLD, [RELAUNCHED_BY_VARIABLE]: String(process.pid) },
  });
  const forwarders = FORWARDED_SIGNALS.map((signal) => {
    const forward = () => child.kill(signal);
    process.on(signal, forward);
    return () => process.off(signal, forward);
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      for (const stop of forwarders) stop();
      resolve(code ?? 128 + (signal ? constants.signals[signal] : 0));
    });
  });
}

/**
 * In the relaunched server: calls `onOrphaned` once the process that started it is gone (killed without a chance to
 * pass a signal on), so a server nobody can stop any more does not keep its port and the home's watchers.
 */
export function stopWhenParentIsGone(env: NodeJS.ProcessEnv, onOrphaned: () => void): () => void {
  const parent = Number(env[RELAUNCHED_BY_VARIABLE]);
  if (!Number.isInteger(parent) || parent <= 0) return () => undefined;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onOrphaned();
  }, PARENT_CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}
