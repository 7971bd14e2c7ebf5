import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';

/** Long enough for the competitor to be spinning before the measurement starts. */
const WARM_UP_MS = 300;

/**
 * Runs `measure` while another process keeps one core fully busy (a tight loop in a new Node process), so a
 * figure shows what a user gets while something else is compiling or indexing. The competitor is stopped after.
 */
export async function withCpuCompetitor<T>(measure: () => Promise<T>): Promise<T> {
  const competitor = spawn(process.execPath, ['-e', 'for (;;);'], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => competitor.once('exit', () => resolve()));
  try {
    await sleep(WARM_UP_MS);
    if (competitor.exitCode !== null) throw new Error(`the CPU competitor exited with ${competitor.exitCode}`);
    return await measure();
  } finally {
    competitor.kill('SIGKILL');
    await exited;
  }
}
