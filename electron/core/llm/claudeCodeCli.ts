import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import type { ClaudeCodeBilling, ClaudeCodeSource } from '../../../shared/jobs/llmSettings';

/** The `claude` the engine runs, and where it was named. */
export interface ClaudeCodeLocation {
  readonly path: string;
  readonly source: ClaudeCodeSource;
}

export type ClaudeCodeLookup =
  { readonly found: true; readonly location: ClaudeCodeLocation } | { readonly found: false; readonly message: string };

/** How Claude Code says it signs in (`claude auth status`). */
export interface ClaudeCodeAuth {
  readonly loggedIn: boolean;
  readonly authMethod: string | null;
  readonly billing: ClaudeCodeBilling | null;
}

const PROBE_TIMEOUT_MS = 20_000;
/** Variables Claude Code sets for programs it starts; inherited, they would make our job look nested in a session. */
const NESTED_SESSION_VARIABLES = ['CLAUDECODE', 'CLAUDE_CODE_ENTRYPOINT', 'CLAUDE_CODE_SSE_PORT'];

async function isExecutableFile(path: string): Promise<boolean> {
  try {
    const stats = await fs.stat(path);
    if (!stats.isFile()) return false;
    await fs.access(path, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Finds the user's `claude`: `CCMEM_CLAUDE_PATH` first, then the path typed into Settings, then the PATH of the
 * environment the engine runs in. A named path that is not an executable file is reported, not skipped: the
 * user asked for that one.
 */
export async function locateClaudeCode(options: {
  readonly environmentPath: string | null;
  readonly settingsPath: string | null;
  readonly env: NodeJS.ProcessEnv;
}): Promise<ClaudeCodeLookup> {
  const named: readonly [string | null, ClaudeCodeSource, string][] = [
    [options.environmentPath, 'environment', 'CCMEM_CLAUDE_PATH'],
    [options.settingsPath, 'settings', 'The path in Settings'],
  ];
  for (const [path, source, label] of named) {
    if (path === null) continue;
    if (!isAbsolute(path)) return { found: false, message: `${label} (${path}) is not an absolute path` };
    if (!(await isExecutableFile(path))) return { found: false, message: `${label} names ${path}, which is not an executable file` };
    return { found: true, location: { path, source } };
  }
  const platform = process.platform;
  const exe = platform === 'win32' ? 'claude.exe' : 'claude';
  const dirs = (options.env.PATH ?? '').split(platform === 'win32' ? ';' : delimiter);
  // A desktop app started from the Finder or a launcher does not get the login shell's PATH: try where installers put it.
  const home = options.env.HOME ?? options.env.USERPROFILE;
  if (home && isAbsolute(home)) dirs.push(join(home, '.local', 'bin'), join(home, '.claude', 'local'));
  if (platform === 'darwin') dirs.push('/usr/local/bin', '/opt/homebrew/bin');
  for (const dir of dirs) {
    if (dir === '' || !isAbsolute(dir)) continue;
    const candidate = join(dir, exe);
    if (await isExecutableFile(candidate)) return { found: true, location: { path: candidate, source: 'path' } };
  }
  return { found: false, message: `No ${exe} on the PATH; install Claude Code or give its path in Settings (or CCMEM_CLAUDE_PATH)` };
}

/** The environment a spawned Claude Code gets: the engine's own, less the markers of a surrounding Claude Code session. */
export function claudeCodeEnv(base: NodeJS.ProcessEnv, extra: Readonly<Record<string, string>> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  for (const name of NESTED_SESSION_VARIABLES) delete env[name];
  return { ...env, ...extra };
}

function run(
  path: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      path,
      [...args],
      { env, cwd, timeout: PROBE_TIMEOUT_MS, maxBuffer: 1024 * 1024, killSignal: 'SIGKILL', windowsHide: true },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr || (error && typeof error.code !== 'number' ? error.message : '')) });
      },
    );
  });
}

/** The version `claude --version` prints (`2.1.328` of `2.1.328 (Claude Code)`), or throws with what went wrong. */
export async function claudeCodeVersion(path: string, env: NodeJS.ProcessEnv, cwd: string): Promise<string> {
  const { code, stdout, stderr } = await run(path, ['--version'], env, cwd);
  const line = stdout.split('\n')[0]?.trim() ?? '';
  if (code !== 0 || line === '') throw new Error(`${path} --version failed${stderr.trim() ? `: ${stderr.trim().slice(0, 300)}` : ''}`);
  return /^\d+\.\d+\S*/.exec(line)?.[0] ?? line.slice(0, 200);
}

/**
 * How Claude Code signs in, from `claude auth status` (JSON; exit code 1 when logged out). A login with no API key
 * (`claude.ai`, or a long-lived `oauth_token`) is a subscription: it shows tokens, never dollars.
 */
export async function claudeCodeAuth(path: string, env: NodeJS.ProcessEnv, cwd: string): Promise<ClaudeCodeAuth> {
  const { stdout, stderr } = await run(path, ['auth', 'status'], env, cwd);
  let status: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(stdout.slice(stdout.indexOf('{')));
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
    status = parsed as Record<string, unknown>;
  } catch {
    throw new Error(`claude auth status gave no status${stderr.trim() ? `: ${stderr.trim().slice(0, 300)}` : ''}`);
  }
  const loggedIn = status.loggedIn === true;
  const authMethod = typeof status.authMethod === 'string' ? status.authMethod : null;
  // Bedrock, Vertex and the like bill in dollars through their own accounts, as a key does.
  const thirdParty = typeof status.apiProvider === 'string' && status.apiProvider !== 'firstParty';
  const usesKey = authMethod === 'api_key' || typeof status.apiKeySource === 'string' || thirdParty;
  return { loggedIn, authMethod, billing: !loggedIn ? null : usesKey ? 'api-key' : 'subscription' };
}

/** Everything a job needs to run the user's Claude Code, fixed when the job starts. */
export interface ClaudeCodeInvocation {
  readonly path: string;
  /** What `claude --version` printed. */
  readonly version: string;
  /** The environment it runs in (the engine's own, less nested-session markers). */
  readonly env: NodeJS.ProcessEnv;
  readonly billing: ClaudeCodeBilling;
  /** Where each run gets a private working folder in the app data folder (never a project of the user's). */
  readonly runsDir: string;
}
