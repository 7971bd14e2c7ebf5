/**
 * A throwaway home for the real Claude Code CLI, pointed at the fake Anthropic server: its own HOME and
 * CLAUDE_CONFIG_DIR in a temp folder, no inherited environment (so no real key or config leaks in), and either
 * an API key or a simulated subscription login (claude-code-state.md §8.1). `run` drives it in print mode.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FakeMessage } from '../fakeAnthropicServer';
import { textTurn } from '../fakeAnthropicServer';

export type ClaudeCodeAuth = 'api-key' | 'subscription';

/** What the fake server sees as the credential: `x-api-key` for a key, a bearer token for a subscription login. */
export const TEST_API_KEY = 'sk-ant-api03-ccmem-test-key';
export const TEST_OAUTH_TOKEN = 'sk-ant-oat01-ccmem-test-token';

export interface ClaudeCodeRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** The `--output-format stream-json` lines, parsed (lines that are not JSON are left out). */
  readonly messages: readonly Record<string, unknown>[];
  /** The final `result` message, when the run got that far. */
  readonly result: Record<string, unknown> | null;
}

export interface ClaudeCodeHome {
  /** Everything lives under this temp folder. */
  readonly tmp: string;
  readonly home: string;
  readonly configDir: string;
  /** A project folder (created, real path) that runs can use as their working directory. */
  project(name: string): Promise<string>;
  /** The environment a run gets; `extra` adds to it or (with undefined) takes away. */
  env(extra?: Readonly<Record<string, string | undefined>>): NodeJS.ProcessEnv;
  run(
    args: readonly string[],
    options: { readonly cwd: string; readonly env?: Readonly<Record<string, string | undefined>>; readonly timeoutMs?: number },
  ): Promise<ClaudeCodeRun>;
  dispose(): Promise<void>;
}

export interface ClaudeCodeHomeOptions {
  readonly binary: string;
  /** The fake Anthropic server's base URL. */
  readonly apiUrl: string;
  readonly auth?: ClaudeCodeAuth;
}

function parseLines(stdout: string): Record<string, unknown>[] {
  const messages: Record<string, unknown>[] = [];
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      messages.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // A line cut by a killed run: the assertions on what arrived decide.
    }
  }
  return messages;
}

export async function createClaudeCodeHome(options: ClaudeCodeHomeOptions): Promise<ClaudeCodeHome> {
  const tmp = await realpath(await mkdtemp(join(tmpdir(), 'ccmem-claude-code-')));
  const home = join(tmp, 'home');
  const configDir = join(home, '.claude');
  await mkdir(configDir, { recursive: true });
  await mkdir(join(tmp, 'tmp'));
  const auth = options.auth ?? 'api-key';
  if (auth === 'subscription') {
    const credentials = {
      claudeAiOauth: {
        accessToken: TEST_OAUTH_TOKEN,
        refreshToken: 'sk-ant-ort01-ccmem-test-refresh',
        expiresAt: Date.now() + 365 * 86_400_000,
        scopes: ['user:inference', 'user:profile'],
        subscriptionType: 'max',
      },
    };
    await writeFile(join(configDir, '.credentials.json'), JSON.stringify(credentials), { mode: 0o600 });
  }

  const env = (extra: Readonly<Record<string, string | undefined>> = {}): NodeJS.ProcessEnv => {
    const base: Record<string, string | undefined> = {
      PATH: process.env.PATH,
      HOME: home,
      CLAUDE_CONFIG_DIR: configDir,
      TMPDIR: join(tmp, 'tmp'),
      LANG: 'C.UTF-8',
      ANTHROPIC_BASE_URL: options.apiUrl,
      ANTHROPIC_API_KEY: auth === 'api-key' ? TEST_API_KEY : undefined,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_TELEMETRY: '1',
      ...extra,
    };
    return Object.fromEntries(Object.entries(base).filter((entry): entry is [string, string] => entry[1] !== undefined));
  };

  return {
    tmp,
    home,
    configDir,
    async project(name) {
      const dir = join(tmp, 'work', name);
      await mkdir(dir, { recursive: true });
      return realpath(dir);
    },
    env,
    run(args, runOptions) {
      return new Promise((resolve) => {
        const child = execFile(
          options.binary,
          [...args],
          {
            cwd: runOptions.cwd,
            env: env(runOptions.env),
            timeout: runOptions.timeoutMs ?? 60_000,
            maxBuffer: 64 * 1024 * 1024,
            killSignal: 'SIGKILL',
          },
          (error, stdout, stderr) => {
            const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
            const messages = parseLines(stdout);
            resolve({ code, stdout, stderr, messages, result: messages.find((m) => m.type === 'result') ?? null });
          },
        );
        // Print mode waits 3 s for piped input before it starts unless its stdin is closed.
        child.stdin?.end();
      });
    },
    dispose: () => rm(tmp, { recursive: true, force: true }),
  };
}

/** The text of the last block of the last message of a request. */
function lastText(body: Record<string, unknown>): string {
  const messages = Array.isArray(body.messages) ? (body.messages as { content?: unknown }[]) : [];
  const content = messages.at(-1)?.content;
  if (typeof content === 'string') return content;
  const block = Array.isArray(content) ? (content.at(-1) as { text?: unknown } | undefined) : undefined;
  return typeof block?.text === 'string' ? block.text : '';
}

/**
 * Answers Claude Code's side calls (a session title, a compaction summary) so a test's queue holds only the
 * conversation's turns. Conversation requests offer tools; so does 2.1.328's compaction (`/compact`), which asks
 * for a text-only `<summary>` in its last message.
 */
export function answerClaudeCodeSideCall(body: Record<string, unknown>): FakeMessage | null {
  if (/create a detailed summary of the conversation/i.test(lastText(body)))
    return textTurn(
      '<analysis>The scripted test conversation.</analysis>\n<summary>\n1. Primary Request and Intent: the scripted test conversation.\n</summary>',
      {
        input_tokens: 500,
        output_tokens: 40,
      },
    );
  const tools = Array.isArray(body.tools) ? body.tools : [];
  if (tools.length > 0) return null;
  const system = JSON.stringify(body.system ?? '');
  if (/title/i.test(system)) return textTurn('{"title":"Scripted session"}', { input_tokens: 50, output_tokens: 8 });
  return textTurn('Summary:\n1. Primary Request and Intent: the scripted test conversation.', { input_tokens: 500, output_tokens: 40 });
}
