import { execFile, spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';

/** The name of the job's MCP server; Claude Code shows its tools to the model as `mcp__ccmem__<tool>`. */
export const JOB_MCP_SERVER = 'ccmem';

/**
 * Claude Code's own memory and the user's hooks are off for a job's process: its auto-memory would load and write
 * the memory we are reviewing, and a user's SessionStart hook would run inside our job. Its transcript cleanup is
 * pushed out of reach too: at startup Claude Code deletes the user's transcripts older than `cleanupPeriodDays`
 * (30 by default), and a job must change nothing of theirs; the user's own next session cleans up as it always does.
 */
const JOB_SETTINGS = JSON.stringify({ autoMemoryEnabled: false, disableAllHooks: true, cleanupPeriodDays: 36_500 });

/** Lines longer than this on Claude Code's output are not parsed (none of the messages we read gets near it). */
const MAX_LINE_CHARS = 32 * 1024 * 1024;
/** Kept from stderr to explain a failure. */
const STDERR_TAIL_CHARS = 4000;
/** How long Claude Code gets to exit on SIGTERM before the whole group is killed. */
const TERMINATE_GRACE_MS = 2000;

export interface ClaudeCodeArgsOptions {
  readonly system: string;
  readonly model: string;
  readonly maxTurns: number;
  /** The MCP config file naming the job's tool server, or null for a run with no tools at all. */
  readonly mcpConfigFile: string | null;
  /** The tool names as Claude Code shows them (`mcp__ccmem__read_file`); every other call is denied. */
  readonly allowedTools: readonly string[];
}

/**
 * The print-mode arguments of every run: streamed JSON out, our system prompt, no built-in tools, only our MCP
 * server, no transcript kept, Claude Code's memory and the user's hooks off. The prompt itself goes to stdin (it
 * can be far longer than one argument may be, and other users can read a process's arguments). Never `--bare`:
 * it skips the keychain, where a subscription login lives on macOS.
 */
export function claudeCodeArgs(options: ClaudeCodeArgsOptions): string[] {
  const args = [
    '--print',
    '--output-format',
    'stream-json',
    '--verbose',
    '--system-prompt',
    options.system,
    '--model',
    options.model,
    '--max-turns',
    String(options.maxTurns),
    // With built-in tools on, MCP tools hide behind ToolSearch; with none, the model sees ours directly.
    '--tools',
    '',
    '--strict-mcp-config',
    '--no-session-persistence',
    '--settings',
    JOB_SETTINGS,
  ];
  if (options.mcpConfigFile) args.push('--mcp-config', options.mcpConfigFile);
  // Without this list every MCP call is denied in print mode; nothing else is on it.
  if (options.allowedTools.length > 0) args.push('--allowedTools', options.allowedTools.join(','));
  return args;
}

/** Writes the MCP config naming the job's server and its secret, readable by this user only. */
export async function writeMcpConfig(dir: string, server: { readonly url: string; readonly secret: string }): Promise<string> {
  const file = join(dir, 'mcp-config.json');
  const config = {
    mcpServers: { [JOB_MCP_SERVER]: { type: 'http', url: server.url, headers: { Authorization: `Bearer ${server.secret}` } } },
  };
  await fs.writeFile(file, JSON.stringify(config), { mode: 0o600, flag: 'wx' });
  return file;
}

export interface ClaudeCodeRunOptions {
  readonly path: string;
  readonly args: readonly string[];
  /** The prompt. */
  readonly stdin: string;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** Each `stream-json` message, in order. */
  readonly onMessage: (message: Record<string, unknown>) => void;
}

export interface ClaudeCodeExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** The end of what Claude Code wrote to stderr, to explain a failure. */
  readonly stderrTail: string;
  /** Whether `stop()` ended it. */
  readonly stopped: boolean;
}

export interface ClaudeCodeRun {
  readonly pid: number | undefined;
  /** Ends the run and everything it started (SIGTERM to its process group, SIGKILL after a grace period). */
  stop(): void;
  /** Settles when Claude Code has exited and every line it wrote was handled; never rejects. */
  readonly exited: Promise<ClaudeCodeExit>;
}

/** Kills a process group, or on Windows the process tree; a group already gone is fine. */
function killTree(pid: number, signal: NodeJS.Signals): void {
  if (process.platform === 'win32') {
    execFile('taskkill', ['/pid', String(pid), '/T', '/F'], { windowsHide: true }, () => undefined);
    return;
  }
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: nothing of the group is left.
  }
}

/**
 * Starts `claude` in its own process group (so a cancel reaches whatever it started), feeds it the prompt and
 * hands each line of its `stream-json` output to `onMessage`. When the main process exits, whatever is left of its
 * group is killed too: nothing a job starts outlives it.
 */
export function startClaudeCode(options: ClaudeCodeRunOptions): ClaudeCodeRun {
  const child = spawn(options.path, [...options.args], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: process.platform !== 'win32',
    windowsHide: true,
  });
  let stopped = false;
  let exitedAlready = false;
  let stderrTail = '';
  let pending = '';
  let graceTimer: NodeJS.Timeout | null = null;

  function handleLine(line: string): void {
    if (!line.startsWith('{') || line.length > MAX_LINE_CHARS) return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      return;
    }
    if (message && typeof message === 'object' && !Array.isArray(message)) options.onMessage(message as Record<string, unknown>);
  }

  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    pending += chunk;
    let newline = pending.indexOf('\n');
    while (newline >= 0) {
      handleLine(pending.slice(0, newline).trim());
      pending = pending.slice(newline + 1);
      newline = pending.indexOf('\n');
    }
    if (pending.length > MAX_LINE_CHARS) pending = '';
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderrTail = (stderrTail + chunk).slice(-STDERR_TAIL_CHARS);
  });
  // A Claude Code that exits before reading its prompt closes the pipe; the exit says why.
  child.stdin.on('error', () => undefined);
  child.stdin.end(options.stdin);

  const exited = new Promise<ClaudeCodeExit>((resolve) => {
    let spawnError: string | null = null;
    child.once('error', (error) => {
      spawnError = error.message;
      if (child.pid === undefined) resolve({ code: null, signal: null, stderrTail: error.message, stopped });
    });
    child.once('exit', () => {
      exitedAlready = true;
      if (graceTimer) clearTimeout(graceTimer);
      if (child.pid !== undefined) killTree(child.pid, 'SIGKILL');
    });
    child.once('close', (code, signal) => {
      if (pending.trim() !== '') handleLine(pending.trim());
      pending = '';
      resolve({ code, signal, stderrTail: spawnError ?? stderrTail, stopped });
    });
  });

  return {
    pid: child.pid,
    stop() {
      if (stopped || exitedAlready || child.pid === undefined) return;
      stopped = true;
      const pid = child.pid;
      killTree(pid, 'SIGTERM');
      graceTimer = setTimeout(() => killTree(pid, 'SIGKILL'), TERMINATE_GRACE_MS);
    },
    exited,
  };
}

/** A run's private folder in the app data folder: Claude Code's working directory, temp and cache live inside it. */
export interface ClaudeCodeRunFolder {
  readonly root: string;
  /** The working directory: an empty folder that is no project of the user's. */
  readonly cwd: string;
  /** What the run's environment adds: its temp and cache folders, and no CLAUDE.md files loaded into the job. */
  readonly env: Readonly<Record<string, string>>;
  /** Removes the folder and everything in it. */
  dispose(): Promise<void>;
}

export async function createRunFolder(runsDir: string): Promise<ClaudeCodeRunFolder> {
  await fs.mkdir(runsDir, { recursive: true, mode: 0o700 });
  const root = await fs.mkdtemp(join(runsDir, 'run-'));
  const cwd = join(root, 'work');
  const tmp = join(root, 'tmp');
  const cache = join(root, 'cache');
  for (const dir of [cwd, tmp, cache]) await fs.mkdir(dir, { mode: 0o700 });
  return {
    root,
    cwd,
    env: {
      TMPDIR: tmp,
      TMP: tmp,
      TEMP: tmp,
      XDG_CACHE_HOME: cache,
      // The user's CLAUDE.md files are instructions for their coding sessions, not for reviewing their memory.
      CLAUDE_CODE_DISABLE_CLAUDE_MDS: '1',
    },
    dispose: () => fs.rm(root, { recursive: true, force: true, maxRetries: 3 }),
  };
}

/** The text of a `result` message that reports a failure: its own words, or the errors it lists. */
export function resultError(result: Record<string, unknown>): string {
  const errors = Array.isArray(result.errors) ? result.errors.filter((e): e is string => typeof e === 'string') : [];
  const text = typeof result.result === 'string' && result.result.trim() !== '' ? result.result : errors.join('; ');
  return (text || `Claude Code reported ${typeof result.subtype === 'string' ? result.subtype : 'an error'}`).slice(0, 1000);
}
