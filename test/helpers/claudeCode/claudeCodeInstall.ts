/**
 * The real Claude Code CLI for tests: one pinned version, installed on demand into a cache folder outside the
 * repository (never a dependency of the app: users must not download it). `.ci/run` installs it with
 * `npm run claude-code:install`; elsewhere the tests that need it skip and say why (claude-code-state.md §8.1).
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** Bump on purpose to see what a new Claude Code changes in the files it writes. */
export const CLAUDE_CODE_VERSION = '2.1.328';
const PACKAGE = '@anthropic-ai/claude-code';
/** The wrapper package's placeholder for the native binary is a few hundred bytes; the real one is ~370 MB. */
const MIN_BINARY_BYTES = 1024 * 1024;

const run = promisify(execFile);

export function claudeCodeCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.CCMEM_CLAUDE_CODE_CACHE ?? join(homedir(), '.cache', 'ccmem-test', `claude-code-${CLAUDE_CODE_VERSION}`);
}

function installedVersion(dir: string): string | null {
  try {
    return (JSON.parse(readFileSync(join(dir, 'node_modules', PACKAGE, 'package.json'), 'utf8')) as { version?: string }).version ?? null;
  } catch {
    return null;
  }
}

function isBinary(path: string): boolean {
  try {
    return statSync(path).size >= MIN_BINARY_BYTES;
  } catch {
    return false;
  }
}

/** The native binary of the pinned version in the cache, or null when it is not installed there. */
export function installedClaudeCode(env: NodeJS.ProcessEnv = process.env): string | null {
  const dir = claudeCodeCacheDir(env);
  if (installedVersion(dir) !== CLAUDE_CODE_VERSION) return null;
  const exe = process.platform === 'win32' ? 'claude.exe' : 'claude';
  const candidates = [
    // The platform package holds the binary itself; the wrapper's bin is a copy made by its postinstall script.
    join(dir, 'node_modules', `${PACKAGE}-${process.platform}-${process.arch}`, exe),
    join(dir, 'node_modules', `${PACKAGE}-${process.platform}-${process.arch}-musl`, exe),
    join(dir, 'node_modules', PACKAGE, 'bin', 'claude.exe'),
  ];
  return candidates.find((path) => existsSync(path) && isBinary(path)) ?? null;
}

/** Installs the pinned version into the cache (a no-op when it is there) and returns the binary's path. */
export async function installClaudeCode(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const found = installedClaudeCode(env);
  if (found) return found;
  const dir = claudeCodeCacheDir(env);
  await mkdir(dir, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  await run(npm, ['install', '--prefix', dir, '--no-audit', '--no-fund', '--no-save', `${PACKAGE}@${CLAUDE_CODE_VERSION}`], {
    maxBuffer: 16 * 1024 * 1024,
  });
  const binary = installedClaudeCode(env);
  if (!binary)
    throw new Error(
      `${PACKAGE}@${CLAUDE_CODE_VERSION} installed into ${dir}, but no native binary for ${process.platform}-${process.arch} was found`,
    );
  const { stdout } = await run(binary, ['--version']);
  if (!stdout.includes(CLAUDE_CODE_VERSION)) throw new Error(`${binary} reports ${stdout.trim()}, not ${CLAUDE_CODE_VERSION}`);
  return binary;
}
