/**
 * A real temp ~/.claude that is both what ccmem manages and the home of the real Claude Code it runs for jobs,
 * pointed at the fake Anthropic API; with traps a job must not spring: a user MCP server and a SessionStart
 * hook that would leave marker files, and a CLAUDE.md whose text must not reach the model.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../../electron/cli/main';
import type { Engine } from '../../../electron/core/engine';
import type { JobLimits } from '../../../electron/core/jobs/JobService';
import { JobService } from '../../../electron/core/jobs/JobService';
import { llmEnvironmentFrom } from '../../../electron/core/settings/LlmSettingsService';
import { SessionSecretStore } from '../../../electron/core/settings/secretStore';
import { createScenarioHome, topicFile, type ProjectBuilder, type ScenarioHome } from '../../fixtures/scenarioHome';
import type { SessionFacts } from '../../fixtures/sessionLines';
import { snapshotTree, type TreeSnapshot } from '../../fixtures/treeSnapshot';
import { answerClaudeCodeSideCall, TEST_API_KEY, TEST_OAUTH_TOKEN, type ClaudeCodeAuth } from '../../helpers/claudeCode/claudeCodeHome';
import { startFakeAnthropicServer, type FakeAnthropicServer } from '../../helpers/fakeAnthropicServer';
import { createTestEngine } from '../../fixtures/testEngine';

export const CLAUDE_MD_MARKER = 'CLAUDE-MD-TEXT-MUST-NOT-REACH-THE-JOB';

/** Claude Code's own bookkeeping under its config root, the only entries a job may add or change there. */
const HOUSEKEEPING = [
  /^claude$/,
  /^claude\/\.claude\.json(\.lock)?$/,
  /^claude\/backups(\/|$)/,
  /^claude\/plugins(\/|$)/,
  /^claude\/sessions(\/|$)/,
  /^claude\/\.last-cleanup$/,
];

export interface ClaudeCodeJobWorld {
  readonly home: ScenarioHome;
  readonly project: ProjectBuilder;
  readonly ref: { readonly configRoot: string; readonly slug: string };
  readonly sessions: readonly SessionFacts[];
  readonly fake: FakeAnthropicServer;
  readonly dataDir: string;
  /** What `ccmem` and the engine run with; Claude Code inherits it. */
  readonly env: NodeJS.ProcessEnv;
  /** Files the user's MCP server and SessionStart hook would create if Claude Code started them. */
  readonly markers: readonly string[];
  ccmem(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  /** An engine over the same home and environment (created once). */
  engine(): Promise<Engine>;
  /** A job service with other caps over that engine's parts. */
  jobsWithLimits(limits: JobLimits): Promise<JobService>;
  snapshot(): Promise<TreeSnapshot>;
  /** Paths (relative to the temp folder) that differ between two snapshots and are not Claude Code's housekeeping or the app's data. */
  unexpectedChanges(before: TreeSnapshot, after: TreeSnapshot): string[];
  /** Run folders the app left in its data folder. */
  leftoverRuns(): Promise<string[]>;
  cleanup(): Promise<void>;
}

export async function createClaudeCodeJobWorld(options: {
  readonly binary: string;
  readonly auth: ClaudeCodeAuth;
}): Promise<ClaudeCodeJobWorld> {
  const home = await createScenarioHome({ prefix: 'ccmem-cc-jobs-' });
  const project = home.project(home.workPath('shop'));
  const sessions: SessionFacts[] = [];
  const prompts = [
    ['We moved the API to v2 on 2026-04-28, the migration is done', 'Thanks'],
    ['Always run the unit tests with make test-unit now, make test is gone', 'ok'],
    ['Our incident tracker is at https://tracker.example.com/SHOP', 'noted'],
  ];
  // Months old: Claude Code's own cleanup deletes transcripts past 30 days, which a job must never let it do.
  for (const [index, pair] of prompts.entries()) {
    sessions.push(await project.session({ turns: 2, prompts: pair, start: `2026-05-0${index + 1}T09:00:00.000Z` }));
  }
  await project.memoryIndex('- [Tests](feedback_tests.md) — run the unit tests with make test\n', { mtime: '2026-04-20T09:00:00.000Z' });
  await project.memory(
    'feedback_tests.md',
    topicFile({
      variant: 'flat',
      name: 'Tests',
      description: 'How to run the tests',
      type: 'feedback',
      body: 'Run the unit tests with `make test`.\n',
    }),
    { mtime: '2026-04-20T09:00:00.000Z' },
  );
  await fs.mkdir(join(home.tmp, 'tmp'));
  const markers = [join(home.tmp, 'user-mcp-server-started'), join(home.tmp, 'session-start-hook-ran')];
  await home.rawFile(
    '.claude.json',
    JSON.stringify({ mcpServers: { userserver: { type: 'stdio', command: '/bin/sh', args: ['-c', `touch ${markers[0]}`] } } }),
  );
  await home.rawFile(
    'settings.json',
    JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: `touch ${markers[1]}` }] }] } }),
  );
  await home.rawFile('CLAUDE.md', `# Instructions\nAlways say ${CLAUDE_MD_MARKER}.\n`);
  if (options.auth === 'subscription') {
    const credentials = {
      claudeAiOauth: {
        accessToken: TEST_OAUTH_TOKEN,
        refreshToken: 'sk-ant-ort01-ccmem-test-refresh',
        expiresAt: Date.now() + 365 * 86_400_000,
        scopes: ['user:inference', 'user:profile'],
        subscriptionType: 'max',
      },
    };
    await fs.writeFile(join(home.root, '.credentials.json'), JSON.stringify(credentials), { mode: 0o600 });
  }
  const fake = await startFakeAnthropicServer({ answerSideCall: answerClaudeCodeSideCall });
  const dataDir = join(home.tmp, 'data');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home.tmp,
    CLAUDE_CONFIG_DIR: home.root,
    CCMEM_DATA_DIR: dataDir,
    CCMEM_CLAUDE_PATH: options.binary,
    TMPDIR: join(home.tmp, 'tmp'),
    LANG: 'C.UTF-8',
    ANTHROPIC_BASE_URL: fake.url,
    ...(options.auth === 'api-key' ? { ANTHROPIC_API_KEY: TEST_API_KEY } : {}),
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
  };
  let engine: Engine | null = null;
  const services: JobService[] = [];
  const world: ClaudeCodeJobWorld = {
    home,
    project,
    ref: { configRoot: home.root, slug: project.slug },
    sessions,
    fake,
    dataDir,
    env,
    markers,
    async ccmem(...argv) {
      let stdout = '';
      let stderr = '';
      const code = await runCli(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env });
      return { code, stdout, stderr };
    },
    async engine() {
      engine ??= await createTestEngine(home, {
        dataDir,
        // As the desktop app does: no key for the API backend, so jobs run through Claude Code.
        llm: { secrets: new SessionSecretStore(), environment: llmEnvironmentFrom(env, { useApiKey: false }) },
      });
      return engine;
    },
    async jobsWithLimits(limits) {
      const parts = await world.engine();
      const jobs = new JobService({ home: parts.home, llm: parts.llmSettings, writer: parts.writer, dataDir, limits });
      services.push(jobs);
      return jobs;
    },
    snapshot: () => snapshotTree(home.tmp),
    unexpectedChanges(before, after) {
      const paths = new Set([...before.keys(), ...after.keys()]);
      return [...paths]
        .filter((path) => before.get(path) !== after.get(path))
        .filter((path) => !HOUSEKEEPING.some((pattern) => pattern.test(path)) && path !== 'data' && !path.startsWith('data/'));
    },
    async leftoverRuns() {
      return fs.readdir(join(dataDir, 'claude-code-runs')).catch(() => []);
    },
    async cleanup() {
      for (const jobs of services) await jobs.dispose();
      await engine?.dispose();
      await fake.close();
      await home.cleanup();
    },
  };
  return world;
}

/** The processes alive now whose command line runs `binary` with an MCP config: what a job starts. */
export function jobProcesses(binary: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const args = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      if (args[0] === binary && args.includes('--mcp-config')) found.push(Number(name));
    } catch {
      // Gone while we looked.
    }
  }
  return found;
}

/** TCP ports this process is listening on (Linux /proc), to see a job's MCP server come and go. */
export function listeningPorts(): Set<number> {
  const inodes = new Set<string>();
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const match = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/self/fd/${fd}`));
      if (match) inodes.add(match[1]);
    } catch {
      // Closed while we looked.
    }
  }
  const ports = new Set<number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const row of text.split('\n').slice(1)) {
      const fields = row.trim().split(/\s+/);
      // Field 3 is the state (0A: listening), field 9 the socket's inode.
      if (fields.length > 9 && fields[3] === '0A' && inodes.has(fields[9])) ports.add(parseInt(fields[1].split(':')[1], 16));
    }
  }
  return ports;
}
