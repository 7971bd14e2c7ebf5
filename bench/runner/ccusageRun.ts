import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The ccusage version the comparison is pinned to (a dev dependency). */
const CCUSAGE_VERSION = '17.2.1';

function ccusageBin(): string {
  const require = createRequire(import.meta.url);
  const packageJson = require.resolve('ccusage/package.json');
  const { version, bin } = require(packageJson) as { version: string; bin: { ccusage: string } };
  if (version !== CCUSAGE_VERSION) throw new Error(`ccusage ${CCUSAGE_VERSION} is expected, ${version} is installed`);
  return join(dirname(packageJson), bin.ccusage);
}

export interface CcusageRun {
  readonly seconds: number;
  readonly sessions: number;
}

/**
 * `ccusage session --json` over one config root, timed from spawn to exit (its whole job: find, read and
 * total every JSONL file). `--offline` uses its bundled prices: this machine has no network, and a failing
 * price download is not file work.
 */
export function runCcusageSession(root: string): Promise<CcusageRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [ccusageBin(), 'session', '--json', '--offline'], {
      env: { ...process.env, CLAUDE_CONFIG_DIR: root },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      const seconds = (performance.now() - started) / 1000;
      if (code !== 0) {
        reject(new Error(`ccusage exited with ${code}: ${Buffer.concat(stderr).toString().slice(0, 500)}`));
        return;
      }
      try {
        const report = JSON.parse(Buffer.concat(stdout).toString()) as { sessions?: unknown[] };
        if (!Array.isArray(report.sessions) || report.sessions.length === 0) throw new Error('ccusage reported no session');
        resolve({ seconds, sessions: report.sessions.length });
      } catch (error) {
        reject(error);
      }
    });
  });
}
