import { spawn } from 'node:child_process';

export interface TimedCommand {
  /** From spawn to the first byte on stdout; null when it printed nothing. */
  readonly firstByteMs: number | null;
  /** From spawn to exit. */
  readonly totalMs: number;
  readonly code: number | null;
  readonly stdoutBytes: number;
}

const STDERR_TAIL_CHARS = 500;

/**
 * Runs a command in a new process, timing its first output byte and its exit; stdout is counted, not kept. Rejects
 * when it exits with a code not in `okCodes` (grep answers 1 when it finds nothing).
 */
export function timeCommand(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  okCodes: readonly number[] = [0],
): Promise<TimedCommand> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let firstByteMs: number | null = null;
    let stdoutBytes = 0;
    let stderr = '';
    const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk: Buffer) => {
      firstByteMs ??= performance.now() - started;
      stdoutBytes += chunk.length;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-STDERR_TAIL_CHARS);
    });
    child.once('error', reject);
    child.once('close', (code) => {
      const totalMs = performance.now() - started;
      if (code === null || !okCodes.includes(code)) reject(new Error(`${command} ${args.join(' ')} exited with ${code}: ${stderr}`));
      else resolve({ firstByteMs, totalMs, code, stdoutBytes });
    });
  });
}
