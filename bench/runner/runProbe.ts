import { fork } from 'node:child_process';
import { join } from 'node:path';
import type { ProbeReply } from '../probes/probeProtocol';

const REPO_ROOT = join(import.meta.dirname, '..', '..');
const PROBE_TIMEOUT_MS = 10 * 60 * 1000;
const STDERR_TAIL_CHARS = 2_000;

/** Where the built probes are (see `buildProbes`); until one is named, probes run from source through tsx. */
let builtProbesDir: string | null = null;

/** Runs the probes built into `dir` from now on, as the app runs its engine: bundled. */
export function useBuiltProbes(dir: string): void {
  builtProbesDir = dir;
}

/**
 * Runs probe `name` (`bench/probes/<name>.ts`, or its build) in a new Node process and returns its one result. The
 * child's stdout goes to our stderr, so `--json` output stays clean whatever the engine prints.
 */
export function runProbe<Input, Output>(name: string, input: Input, env: NodeJS.ProcessEnv = {}): Promise<Output> {
  return new Promise((resolve, reject) => {
    const script = builtProbesDir ? join(builtProbesDir, `${name}.mjs`) : join(REPO_ROOT, 'bench', 'probes', `${name}.ts`);
    const child = fork(script, [], {
      cwd: REPO_ROOT,
      execArgv: builtProbesDir ? [] : ['--import', 'tsx'],
      env: { ...process.env, ...env },
      stdio: ['ignore', 2, 'pipe', 'ipc'],
      serialization: 'advanced',
    });
    // The child's stderr is passed on, and its end kept for the error when the child dies without answering.
    let stderrTail = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      stderrTail = (stderrTail + chunk.toString()).slice(-STDERR_TAIL_CHARS);
    });
    let settled = false;
    const timer = setTimeout(() => {
      child.kill();
      finish(() => reject(new Error(`probe ${name} timed out`)));
    }, PROBE_TIMEOUT_MS);
    const finish = (settle: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      settle();
    };
    child.once('message', (reply: ProbeReply<Output>) =>
      finish(() => (reply.ok ? resolve(reply.output) : reject(new Error(`probe ${name} failed: ${reply.error}`)))),
    );
    child.once('error', (error) => finish(() => reject(error)));
    // 'close' comes after the last message has been delivered, so a probe that answered is never reported as lost.
    child.once('close', (code) =>
      finish(() => reject(new Error(`probe ${name} exited with code ${code} before answering${stderrTail ? `:\n${stderrTail}` : ''}`))),
    );
    child.send(input as object);
  });
}
