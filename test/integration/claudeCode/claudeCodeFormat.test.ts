/**
 * Conformance with today's Claude Code: the pinned real CLI (CLAUDE_CODE_VERSION) writes sessions into temp homes
 * against the scripted fake API, and `ccmem` reads them back. The day a new Claude Code changes its files, bumping
 * the pinned version shows here what broke. Three homes run side by side (each `claude -p` takes about a second):
 * conversation shapes (resume, continue, fork, compact, rename), memory writes with tool hooks and a sub-folder
 * session, and sub-agents (parallel, nested, one with project memory).
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../../../electron/cli/main';
import { sanitizePathPrefix } from '../../../shared/claude/sanitizePath';
import type { SessionJson } from '../../../electron/cli/commands/sessions';
import type { TranscriptEntry } from '../../../shared/transcript/transcriptEntry';
import {
  answerClaudeCodeSideCall,
  createClaudeCodeHome,
  type ClaudeCodeHome,
  type ClaudeCodeRun,
} from '../../helpers/claudeCode/claudeCodeHome';
import { describeWithClaudeCode } from '../../helpers/claudeCode/describeWithClaudeCode';
import {
  startFakeAnthropicServer,
  textTurn,
  toolUseTurn,
  type FakeAnthropicServer,
  type FakeResponse,
} from '../../helpers/fakeAnthropicServer';

const STREAM = ['--output-format', 'stream-json', '--verbose'];

interface Harness {
  readonly fake: FakeAnthropicServer;
  readonly home: ClaudeCodeHome;
  readonly env: NodeJS.ProcessEnv;
  claude(args: readonly string[], cwd: string, ...turns: FakeResponse[]): Promise<ClaudeCodeRun>;
  ccmem(argv: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }>;
  json<T>(argv: readonly string[]): Promise<T>;
}

async function harness(binary: string, name: string): Promise<Harness> {
  const fake = await startFakeAnthropicServer({ answerSideCall: answerClaudeCodeSideCall });
  const home = await createClaudeCodeHome({ binary, apiUrl: fake.url });
  const env = { HOME: home.home, CLAUDE_CONFIG_DIR: home.configDir, CCMEM_DATA_DIR: join(home.tmp, `data-${name}`) };
  const ccmem = async (argv: readonly string[]) => {
    let stdout = '';
    let stderr = '';
    const code = await runCli([...argv], { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env });
    return { code, stdout, stderr };
  };
  return {
    fake,
    home,
    env,
    async claude(args, cwd, ...turns) {
      fake.enqueue(...turns);
      const run = await home.run([...args, ...STREAM], { cwd });
      expect(run.result, `claude ${args.join(' ')}: ${run.stderr}`).toMatchObject({ type: 'result', is_error: false });
      expect(fake.pending(), `claude ${args.join(' ')} left scripted turns unused`).toBe(0);
      return run;
    },
    ccmem,
    async json<T>(argv: readonly string[]) {
      const result = await ccmem([...argv, '--json']);
      expect(result.code, `ccmem ${argv.join(' ')}: ${result.stderr}`).toBe(0);
      return JSON.parse(result.stdout) as T;
    },
  };
}

const sessionIdOf = (run: ClaudeCodeRun): string => String(run.result?.session_id);
const texts = (entries: readonly TranscriptEntry[]): string[] =>
  entries.flatMap((entry) =>
    entry.body.kind === 'user' || entry.body.kind === 'assistant'
      ? entry.body.blocks.flatMap((block) => (block.kind === 'text' ? [block.text] : []))
      : [],
  );

describeWithClaudeCode("today's Claude Code, read back by ccmem", (binary) => {
  const harnesses: Harness[] = [];
  let talk: Harness;
  let memory: Harness;
  let agents: Harness;
  const ids: Record<string, string> = {};
  let teaShop = '';
  let studio = '';
  let agentLab = '';
  let memoryDir = '';

  beforeAll(async () => {
    [talk, memory, agents] = await Promise.all([harness(binary, 'talk'), harness(binary, 'memory'), harness(binary, 'agents')]);
    harnesses.push(talk, memory, agents);

    const conversation = async (): Promise<void> => {
      teaShop = await talk.home.project('tea-shop');
      const first = await talk.claude(
        ['-p', 'Remember that I like green tea'],
        teaShop,
        textTurn('Noted: green tea.', { input_tokens: 1200, output_tokens: 30 }),
      );
      ids.main = sessionIdOf(first);
      await talk.claude(
        ['-p', 'And oolong too', '--continue'],
        teaShop,
        textTurn('Oolong too.', { input_tokens: 1300, output_tokens: 20 }),
      );
      await talk.claude(
        ['-p', 'What do I drink?', '--resume', ids.main],
        teaShop,
        textTurn('Green and oolong.', { input_tokens: 1400, output_tokens: 25 }),
      );
      const fork = await talk.claude(
        ['-p', 'A forked question', '--resume', ids.main, '--fork-session'],
        teaShop,
        textTurn('A forked answer.', { input_tokens: 1500, output_tokens: 15 }),
      );
      ids.fork = sessionIdOf(fork);
      await talk.claude(['-p', '/compact', '--resume', ids.main], teaShop);
      await talk.claude(
        ['-p', 'After the compaction', '--resume', ids.main],
        teaShop,
        textTurn('Still here.', { input_tokens: 600, output_tokens: 10 }),
      );
      await talk.claude(['-p', '/rename Tea notes', '--resume', ids.main], teaShop);
    };

    const memoryWrites = async (): Promise<void> => {
      studio = await memory.home.project('studio');
      await execFileAsync('git', ['init', '-q', studio]);
      memoryDir = join(memory.home.configDir, 'projects', sanitizePathPrefix(studio), 'memory');
      // Tool hooks whose results Claude Code records as attachments beside the call.
      await writeFile(
        join(memory.home.configDir, 'settings.json'),
        JSON.stringify({
          hooks: {
            PreToolUse: [{ matcher: 'Write', hooks: [{ type: 'command', command: 'echo pre-check passed' }] }],
            PostToolUse: [{ matcher: 'Edit', hooks: [{ type: 'command', command: 'echo lint complained >&2; exit 1' }] }],
          },
        }),
      );
      // History starts from what the project has after a first session, so the write below is a change with a cause.
      await memory.claude(['-p', 'Hello'], studio, textTurn('Hello.'));
      expect((await memory.ccmem(['history', '--json'])).code).toBe(0);
      const topic = join(memoryDir, 'brushes.md');
      const save = await memory.claude(
        ['-p', 'Remember my favourite brushes', '--allowedTools', 'Write', 'Edit'],
        studio,
        toolUseTurn([
          {
            name: 'Write',
            input: { file_path: topic, content: '---\nname: brushes\ndescription: favourite brushes\ntype: user\n---\n\nSable brushes.\n' },
          },
        ]),
        toolUseTurn([
          { name: 'Edit', input: { file_path: topic, old_string: 'Sable brushes.', new_string: 'Sable and squirrel brushes.' } },
        ]),
        textTurn('Saved to memory.'),
      );
      ids.memory = sessionIdOf(save);
      const web = join(studio, 'web');
      await mkdir(web);
      ids.subFolder = sessionIdOf(await memory.claude(['-p', 'Work on the web folder'], web, textTurn('On it.')));
    };

    const subagents = async (): Promise<void> => {
      agentLab = await agents.home.project('agent-lab');
      const agent = (description: string, prompt: string, type = 'general-purpose') => ({
        name: 'Agent',
        input: { description, prompt, subagent_type: type, run_in_background: false },
      });
      ids.parallel = sessionIdOf(
        await agents.claude(
          ['-p', 'Ask two agents about teas'],
          agentLab,
          toolUseTurn([agent('Count teas', 'Count the teas'), agent('List teas', 'List the teas')]),
          textTurn('An agent answers.', { input_tokens: 300, output_tokens: 11 }),
          textTurn('The other agent answers.', { input_tokens: 300, output_tokens: 11 }),
          textTurn('Both agents answered.'),
        ),
      );
      ids.nested = sessionIdOf(
        await agents.claude(
          ['-p', 'Start an agent that starts another'],
          agentLab,
          toolUseTurn([agent('Outer', 'Start an inner agent')]),
          toolUseTurn([agent('Inner', 'Do the inner work')]),
          textTurn('Inner work done.'),
          textTurn('Outer done.'),
          textTurn('Both levels done.'),
        ),
      );
      await mkdir(join(agentLab, '.claude', 'agents'), { recursive: true });
      await writeFile(
        join(agentLab, '.claude', 'agents', 'tea-expert.md'),
        '---\nname: tea-expert\ndescription: Knows teas\nmemory: project\n---\n\nYou know teas.\n',
      );
      ids.expert = sessionIdOf(
        await agents.claude(
          ['-p', 'Ask the tea expert', '--allowedTools', 'Write', 'Edit'],
          agentLab,
          toolUseTurn([agent('Ask the expert', 'Remember that oolong is liked', 'tea-expert')]),
          toolUseTurn([
            {
              name: 'Write',
              input: { file_path: join(agentLab, '.claude', 'agent-memory', 'tea-expert', 'MEMORY.md'), content: '- oolong is liked\n' },
            },
          ]),
          textTurn('Remembered.'),
          textTurn('The expert remembered.'),
        ),
      );
    };

    await Promise.all([conversation(), memoryWrites(), subagents()]);
    // Thirteen `claude -p` runs in three chains: about 15 s on an idle machine, far more on a busy one.
  }, 300_000);

  afterAll(async () => {
    for (const h of harnesses) {
      await h.fake.close();
      await h.home.dispose();
    }
  });

  it('resume, continue, compact and rename: one session with its title, prompts, turns, tokens and compaction', async () => {
    const sessions = await talk.json<SessionJson[]>(['sessions']);
    const main = sessions.find((s) => s.sessionId === ids.main)!;
    expect(main).toMatchObject({
      mainTranscript: true,
      title: 'Tea notes',
      titleSource: 'custom-title',
      agentName: 'Tea notes',
      userPrompts: 4,
      assistantTurns: 4,
      tokens: { input: 1200 + 1300 + 1400 + 600, output: 30 + 20 + 25 + 10, cacheCreation: 0, cacheRead: 0 },
      compactions: 1,
      versions: ['2.1.328'],
      badLines: 0,
    });
    // /rename also writes the title beside the transcript.
    expect(
      JSON.parse(await readFile(join(talk.home.configDir, 'projects', sanitizePathPrefix(teaShop), ids.main, 'custom-title.json'), 'utf8')),
    ).toEqual({
      customTitle: 'Tea notes',
    });
    // The live branch crosses the compaction back to the first prompt, and hides the request records.
    const entries = await talk.json<TranscriptEntry[]>(['transcript', ids.main]);
    expect(texts(entries)).toEqual(
      expect.arrayContaining(['Remember that I like green tea', 'Noted: green tea.', 'After the compaction', 'Still here.']),
    );
    expect(entries.some((entry) => entry.body.kind === 'compact-boundary')).toBe(true);
    expect(entries.filter((entry) => entry.type.startsWith('api-request') || entry.body.kind === 'unknown')).toEqual([]);
    expect(entries.every((entry) => entry.danglingParentUuid === null)).toBe(true);
  });

  it('a forked session starts when the fork was made, and holds the copied history', async () => {
    const sessions = await talk.json<SessionJson[]>(['sessions']);
    const main = sessions.find((s) => s.sessionId === ids.main)!;
    const fork = sessions.find((s) => s.sessionId === ids.fork)!;
    expect(fork.firstTimestamp! > main.firstTimestamp!).toBe(true);
    // The copied prompts count, and its title is the first of them (Claude Code writes no title line for a fork here).
    expect(fork).toMatchObject({ title: 'Remember that I like green tea', userPrompts: 4, assistantTurns: 4 });
    const entries = await talk.json<TranscriptEntry[]>(['transcript', ids.fork]);
    expect(texts(entries)).toEqual(expect.arrayContaining(['Remember that I like green tea', 'A forked question', 'A forked answer.']));
  });

  it('search finds prompts in the conversation, not in the request records (unless asked)', async () => {
    const plain = await talk.json<{ requestRecord: boolean; sessionId: string }[]>(['search', 'Remember that I like green tea']);
    expect(plain.length).toBeGreaterThan(0);
    expect(plain.every((hit) => !hit.requestRecord)).toBe(true);
    const all = await talk.json<{ requestRecord: boolean }[]>(['search', 'Remember that I like green tea', '--request-records']);
    expect(all.some((hit) => hit.requestRecord)).toBe(true);
    expect(all.length).toBeGreaterThan(plain.length);
  });

  it('Write and Edit into the memory folder: memory writes, history caused by the session, hooks under their calls', async () => {
    const sessions = await memory.json<SessionJson[]>(['sessions']);
    const save = sessions.find((s) => s.sessionId === ids.memory)!;
    expect(save.memoryWrites).toEqual([join(memoryDir, 'brushes.md')]);
    expect(save).toMatchObject({ title: 'Remember my favourite brushes', userPrompts: 1, assistantTurns: 3, toolCalls: 2 });
    // Claude Code rewrites the frontmatter of what it writes into memory (metadata.originSessionId).
    expect(await readFile(join(memoryDir, 'brushes.md'), 'utf8')).toContain(`originSessionId: ${ids.memory}`);

    const history = await memory.json<{
      changeSets: { cause: string; sessionId: string | null; files: { path: string; kind: string }[] }[];
    }>(['history']);
    const bySession = history.changeSets.filter((set) => set.sessionId === ids.memory && set.cause === 'session');
    expect(bySession.flatMap((set) => set.files.map((file) => [file.path, file.kind]))).toContainEqual(['brushes.md', 'added']);

    const entries = await memory.json<TranscriptEntry[]>(['transcript', ids.memory]);
    const hooks = entries.flatMap((entry) => (entry.body.kind === 'attachment' && entry.body.hook ? [entry.body.hook] : []));
    expect(hooks.map((hook) => [hook.event, hook.outcome, hook.text])).toEqual([
      ['PreToolUse', 'hook_success', 'pre-check passed'],
      ['PostToolUse', 'hook_non_blocking_error', expect.stringContaining('lint complained')],
    ]);
    const callIds = entries.flatMap((entry) =>
      entry.body.kind === 'assistant' ? entry.body.blocks.flatMap((block) => (block.kind === 'tool-call' ? [block.call.id] : [])) : [],
    );
    expect(hooks.every((hook) => callIds.includes(hook.toolUseId!))).toBe(true);
  });

  it("a session started in a sub-folder of the repository uses the root's memory folder", async () => {
    const projects = await memory.json<{ slug: string; memoryDir: string; memoryOwner: string | null; memorySharedWith: string[] }[]>([
      'projects',
    ]);
    const root = projects.find((p) => p.slug === sanitizePathPrefix(studio))!;
    const web = projects.find((p) => p.slug === sanitizePathPrefix(join(studio, 'web')))!;
    expect(web).toMatchObject({ memoryDir, memoryOwner: root.slug });
    expect(root).toMatchObject({ memoryDir, memoryOwner: null, memorySharedWith: [web.slug] });
  });

  it('parallel, nested and memory-keeping sub-agents: listed with their types, tokens and nesting', async () => {
    const sessions = await agents.json<SessionJson[]>(['sessions']);
    const parallel = sessions.find((s) => s.sessionId === ids.parallel)!;
    expect(parallel.subagents.map((a) => [a.agentType, a.description, a.depth, a.tokens.output]).sort()).toEqual([
      ['general-purpose', 'Count teas', 1, 11],
      ['general-purpose', 'List teas', 1, 11],
    ]);
    const nested = sessions.find((s) => s.sessionId === ids.nested)!;
    const outer = nested.subagents.find((a) => a.description === 'Outer')!;
    const inner = nested.subagents.find((a) => a.description === 'Inner')!;
    expect([outer.depth, outer.parentAgentId, inner.depth, inner.parentAgentId]).toEqual([1, null, 2, outer.agentId]);
    // In the outer agent's own transcript, its Agent call names the inner agent.
    const outerEntries = await agents.json<TranscriptEntry[]>(['transcript', ids.nested, '--agent', outer.agentId]);
    const calls = outerEntries.flatMap((entry) =>
      entry.body.kind === 'assistant' ? entry.body.blocks.flatMap((block) => (block.kind === 'tool-call' ? [block.call] : [])) : [],
    );
    expect(calls.map((call) => [call.name, call.subagent?.agentId])).toEqual([['Agent', inner.agentId]]);

    const expert = sessions.find((s) => s.sessionId === ids.expert)!;
    expect(expert.subagents.map((a) => a.agentType)).toEqual(['tea-expert']);
    const memories = await agents.json<{ agentType: string; scope: string; fileCount: number }[]>(['agents']);
    expect(memories).toContainEqual(expect.objectContaining({ agentType: 'tea-expert', scope: 'project', fileCount: 1 }));
    const found = await agents.json<{ kind: string; agentType: string | null }[]>(['search', 'oolong is liked']);
    expect(found).toContainEqual(expect.objectContaining({ kind: 'agent-memory', agentType: 'tea-expert' }));
  });
});

const execFileAsync = promisify(execFile);
