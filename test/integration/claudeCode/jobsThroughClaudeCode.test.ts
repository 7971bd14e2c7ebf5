/**
 * Dreams and extraction replays through the real Claude Code CLI against the fake API: the same job (prompts, six
 * tools over the staging overlay, validator, caps, cancel, record), only the model runs in Claude Code. The model
 * here is scripted, and partly malicious.
 */
import { execFile } from 'node:child_process';
import { existsSync, promises as fs } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { JobRecord } from '../../../shared/jobs/jobTypes';
import type { FakeAnthropicServer } from '../../helpers/fakeAnthropicServer';
import { textTurn, toolUseTurn } from '../../helpers/fakeAnthropicServer';
import { TEST_API_KEY, TEST_OAUTH_TOKEN } from '../../helpers/claudeCode/claudeCodeHome';
import { describeWithClaudeCode } from '../../helpers/claudeCode/describeWithClaudeCode';
import { DEFAULT_JOB_LIMITS } from '../../../electron/core/jobs/JobService';
import { snapshotTree } from '../../fixtures/treeSnapshot';
import { lineOf } from '../jobs/jobWorld';
import { CLAUDE_MD_MARKER, createClaudeCodeJobWorld, jobProcesses, listeningPorts, type ClaudeCodeJobWorld } from './claudeCodeJobWorld';

const JOB_TOOLS = ['list_dir', 'read_file', 'grep', 'write_file', 'edit_file', 'delete_file'].map((name) => `mcp__ccmem__${name}`);

/** Resolves once the fake has taken the n-th scripted response (side calls do not count). */
async function queuedRequest(fake: FakeAnthropicServer, n: number): Promise<void> {
  for (let count = 1; fake.requests.filter((r) => r.fromQueue).length < n; count++) await fake.waitForRequest(count);
}

function queued(fake: FakeAnthropicServer) {
  return fake.requests.filter((r) => r.fromQueue);
}

describeWithClaudeCode('jobs through the real Claude Code', (binary) => {
  let world: ClaudeCodeJobWorld;
  afterEach(async () => {
    await world.cleanup();
  });

  it(
    'a dream with a partly malicious model: a dry run writes nothing, refusals say why, only our tools run, usage comes from Claude Code; apply lands the legit edits',
    { timeout: 120_000 },
    async () => {
      world = await createClaudeCodeJobWorld({ binary, auth: 'api-key' });
      const memoryDir = world.project.memoryDir;
      const [v2, tests] = world.sessions;
      const testsLine = await lineOf(tests.file, 'make test-unit now');
      const outside = join(world.home.root, 'CLAUDE.md');
      const bashMarker = join(world.home.tmp, 'bash-ran');
      world.fake.enqueue(
        toolUseTurn(
          [
            { name: 'mcp__ccmem__list_dir', input: { path: '' } },
            { name: 'mcp__ccmem__grep', input: { pattern: 'make test-unit', path: '@transcripts' } },
          ],
          { usage: { input_tokens: 1200, output_tokens: 150 } },
        ),
        {
          kind: 'delay',
          // Long enough to look at the running job from outside.
          ms: 1500,
          then: toolUseTurn(
            [
              {
                name: 'mcp__ccmem__edit_file',
                input: {
                  path: 'feedback_tests.md',
                  old_string: '`make test`',
                  new_string: '`make test-unit`',
                  evidence: [
                    {
                      source: `@transcripts/${tests.sessionId}.jsonl`,
                      line: testsLine,
                      quote: 'run the unit tests with make test-unit now',
                    },
                    { source: 'feedback_tests.md', line: 6, quote: 'Run the unit tests with `make test`.' },
                  ],
                },
              },
              {
                name: 'mcp__ccmem__write_file',
                input: {
                  path: 'project_api_v2.md',
                  content: 'The API moved to v2 on 2026-04-28.\n',
                  evidence: [{ source: v2.sessionId, line: 1, quote: 'we moved the API to v3 yesterday' }],
                },
              },
              {
                name: 'mcp__ccmem__write_file',
                input: { path: 'reference_tracker.md', content: 'Incidents: https://tracker.example.com/SHOP\n' },
              },
              { name: 'mcp__ccmem__write_file', input: { path: '../escape.md', content: 'x' } },
              { name: 'mcp__ccmem__write_file', input: { path: outside, content: 'x' } },
              { name: 'mcp__ccmem__write_file', input: { path: '.consolidate-lock', content: '1' } },
              { name: 'mcp__ccmem__edit_file', input: { path: `@transcripts/${v2.sessionId}.jsonl`, old_string: 'v2', new_string: 'v9' } },
              { name: 'mcp__ccmem__delete_file', input: { path: 'MEMORY.md' } },
              { name: 'Write', input: { file_path: join(memoryDir, 'evil.md'), content: 'written by the built-in tool' } },
              { name: 'Bash', input: { command: `touch ${bashMarker}` } },
            ],
            { usage: { input_tokens: 2400, output_tokens: 640 } },
          ),
        },
        textTurn('Updated the test command and added two notes.', { input_tokens: 3100, output_tokens: 777 }),
      );
      const before = await world.snapshot();
      const portsBefore = listeningPorts();
      const running = world.ccmem('dream', '--project', world.project.slug, '--via', 'claude-code', '--json');
      await queuedRequest(world.fake, 2);
      // Mid-run: Claude Code runs with our MCP config, and the job's tool server listens.
      expect(jobProcesses(binary)).toHaveLength(1);
      expect(listeningPorts().size).toBe(portsBefore.size + 1);
      const { code, stdout, stderr } = await running;
      expect(code, stderr).toBe(0);

      const json = JSON.parse(stdout) as {
        jobId: string;
        usage: unknown;
        proposals: { path: string; accepted: boolean; rejectedReason: string | null; evidence: Record<string, unknown>[] }[];
      };
      expect(Object.keys(json)).toEqual(['jobId', 'summary', 'usage', 'proposals']);
      // Claude Code's result message: every scripted turn's usage, not our running estimate.
      expect(json.usage).toEqual({ input: 1200 + 2400 + 3100, output: 150 + 640 + 777 });
      const accepted = json.proposals.filter((p) => p.accepted);
      expect(accepted.map((p) => p.path)).toEqual(['feedback_tests.md', 'project_api_v2.md', 'reference_tracker.md']);
      expect(accepted[0].evidence).toMatchObject([
        { sessionId: tests.sessionId, file: null, line: testsLine, verified: true },
        { sessionId: null, file: 'feedback_tests.md', line: 6, verified: true },
      ]);
      expect(accepted[1].evidence).toMatchObject([
        { sessionId: v2.sessionId, line: 1, verified: false, problem: 'the line does not contain the quoted text' },
      ]);
      expect(accepted[2].evidence).toEqual([]);
      expect(Object.fromEntries(json.proposals.filter((p) => !p.accepted).map((p) => [p.path, p.rejectedReason]))).toEqual({
        '../escape.md': 'outside the memory folder',
        [outside]: 'outside the memory folder',
        '.consolidate-lock': 'the consolidation lock is not a memory file',
        [`@transcripts/${v2.sessionId}.jsonl`]: 'transcripts are read-only',
        'MEMORY.md': 'MEMORY.md cannot be deleted',
      });

      // Claude Code's built-in tools never ran: the model was told they do not exist.
      const toolResults = queued(world.fake)[2].rawBody;
      expect(toolResults).toContain('No such tool available: Write');
      expect(toolResults).toContain('No such tool available: Bash');
      expect(existsSync(join(memoryDir, 'evil.md'))).toBe(false);
      expect(existsSync(bashMarker)).toBe(false);
      // Only our six tools were offered, our system prompt was used, and the user's CLAUDE.md, MCP server and hook stayed out.
      for (const request of queued(world.fake)) {
        expect((request.body.tools as { name: string }[]).map((t) => t.name).sort()).toEqual([...JOB_TOOLS].sort());
        expect(JSON.stringify(request.body.system)).toContain('You tidy up a long-term memory folder');
        expect(request.rawBody).not.toContain(CLAUDE_MD_MARKER);
        expect(request.headers['x-api-key']).toBe(TEST_API_KEY);
      }
      for (const marker of world.markers) expect(existsSync(marker), marker).toBe(false);

      // Nothing anywhere but Claude Code's housekeeping and the app's own data; no transcript; nothing left running.
      expect(world.unexpectedChanges(before, await world.snapshot())).toEqual([]);
      expect(await world.leftoverRuns()).toEqual([]);
      expect(jobProcesses(binary)).toEqual([]);
      expect(listeningPorts()).toEqual(portsBefore);

      const engine = await world.engine();
      const record = await engine.jobs.getJob(json.jobId);
      expect(record).toMatchObject({ via: 'claude-code', status: 'ready', summary: 'Updated the test command and added two notes.' });
      // An API key pays in dollars: Claude Code's own total for these tokens at Sonnet's list price.
      expect(record.costUsd).toBeCloseTo((6700 * 3 + 1567 * 15) / 1_000_000, 6);

      const applyStarted = Date.now();
      const outcome = await engine.jobs.apply(
        record.id,
        record.proposals.map((p) => ({ path: p.path, decision: 'accept' as const })),
      );
      expect(outcome.applied.map((f) => f.path)).toEqual(['feedback_tests.md', 'project_api_v2.md', 'reference_tracker.md']);
      expect(await fs.readFile(join(memoryDir, 'feedback_tests.md'), 'utf8')).toContain('Run the unit tests with `make test-unit`.');
      expect(await fs.readFile(join(memoryDir, 'project_api_v2.md'), 'utf8')).toBe('The API moved to v2 on 2026-04-28.\n');
      expect((await fs.readdir(memoryDir)).sort()).toEqual([
        '.consolidate-lock',
        'MEMORY.md',
        'feedback_tests.md',
        'project_api_v2.md',
        'reference_tracker.md',
      ]);
      const lock = await fs.stat(join(memoryDir, '.consolidate-lock'));
      expect(await fs.readFile(join(memoryDir, '.consolidate-lock'), 'utf8')).toBe('');
      expect(lock.mtimeMs).toBeGreaterThanOrEqual(applyStarted - 1000);
      const changeSet = await engine.history.changeSet(outcome.changeSetId!);
      expect(changeSet.map((entry) => [entry.path, entry.cause])).toEqual([
        ['feedback_tests.md', 'dream'],
        ['project_api_v2.md', 'dream'],
        ['reference_tracker.md', 'dream'],
      ]);

      // The traps are real: a plain Claude Code run in this home starts the user's MCP server and hook, and reads CLAUDE.md.
      world.fake.enqueue(textTurn('Hello.'));
      await new Promise((resolve) =>
        execFile(binary, ['-p', 'hello'], { cwd: world.project.cwd, env: world.env, timeout: 60_000 }, resolve),
      );
      for (const marker of world.markers) expect(existsSync(marker), marker).toBe(true);
      expect(queued(world.fake).at(-1)?.rawBody).toContain(CLAUDE_MD_MARKER);
    },
  );

  it(
    'runs on a subscription login: the bearer token reaches the API, and the job shows tokens, not dollars',
    { timeout: 120_000 },
    async () => {
      world = await createClaudeCodeJobWorld({ binary, auth: 'subscription' });
      // From before Settings asks claude for its version and login, and tests it with one turn.
      const before = await world.snapshot();
      const engine = await world.engine();
      const view = await engine.llmSettings.getView();
      expect(view).toMatchObject({
        backend: 'auto',
        keySource: 'none',
        effectiveBackend: 'claude-code',
        claudeCode: { found: true, path: binary, source: 'environment', version: '2.1.328', loggedIn: true, billing: 'subscription' },
      });
      const test = await engine.llmSettings.testConnection();
      expect(test).toMatchObject({ via: 'claude-code', ok: true, message: 'Claude Code 2.1.328 answered with your Claude subscription' });

      const tracker = world.sessions[2];
      const line = await lineOf(tracker.file, 'incident tracker');
      world.fake.enqueue(
        toolUseTurn(
          [
            {
              name: 'mcp__ccmem__write_file',
              input: {
                path: 'reference_tracker.md',
                content: 'Incidents: https://tracker.example.com/SHOP\n',
                evidence: [{ source: tracker.sessionId, line, quote: 'Our incident tracker is at https://tracker.example.com/SHOP' }],
              },
            },
          ],
          { usage: { input_tokens: 1500, output_tokens: 90 } },
        ),
        textTurn('Saved where incidents are tracked.', { input_tokens: 1700, output_tokens: 25 }),
      );
      // No `via`: with no API key, Settings' automatic choice is Claude Code.
      const started = await engine.jobs.startDream({ kind: 'project', ...world.ref });
      const record = await engine.jobs.waitForJob(started.id);
      expect(record).toMatchObject({ status: 'ready', via: 'claude-code', costUsd: null, usage: { input: 3200, output: 115 }, turns: 2 });
      expect(record.proposals.map((p) => p.path)).toEqual(['reference_tracker.md']);
      expect(record.proposals[0].evidence).toMatchObject([{ sessionId: tracker.sessionId, line, verified: true }]);
      for (const request of queued(world.fake)) {
        expect(request.headers.authorization).toBe(`Bearer ${TEST_OAUTH_TOKEN}`);
        expect(request.headers['x-api-key']).toBeUndefined();
      }
      expect(world.unexpectedChanges(before, await world.snapshot())).toEqual([]);
      expect(jobProcesses(binary)).toEqual([]);
    },
  );

  it('replays extraction through Claude Code, citing the lines the excerpt shows', { timeout: 120_000 }, async () => {
    world = await createClaudeCodeJobWorld({ binary, auth: 'api-key' });
    const tracker = world.sessions[2];
    const line = await lineOf(tracker.file, 'incident tracker');
    world.fake.enqueue(
      toolUseTurn([
        {
          name: 'mcp__ccmem__write_file',
          input: {
            path: 'reference_tracker.md',
            content:
              '---\nname: Tracker\ndescription: Where incidents are tracked\ntype: reference\n---\nhttps://tracker.example.com/SHOP\n',
            evidence: [{ source: tracker.sessionId, line, quote: 'incident tracker is at https://tracker.example.com/SHOP' }],
          },
        },
      ]),
      textTurn('Saved where incidents are tracked.'),
    );
    const before = await world.snapshot();
    const { code, stdout, stderr } = await world.ccmem('extract', '--session', tracker.sessionId, '--via', 'claude-code', '--json');
    expect(code, stderr).toBe(0);
    const json = JSON.parse(stdout) as { usage: unknown; proposals: { path: string; accepted: boolean; evidence: unknown[] }[] };
    expect(json.usage).toEqual({ input: 2000, output: 300 });
    expect(json.proposals).toMatchObject([
      { path: 'reference_tracker.md', accepted: true, evidence: [{ sessionId: tracker.sessionId, line, verified: true }] },
    ]);
    expect(queued(world.fake)[0].rawBody).toContain(`(line ${line}) [user] Our incident tracker is at https://tracker.example.com/SHOP`);
    expect(world.unexpectedChanges(before, await world.snapshot())).toEqual([]);
    expect(await world.leftoverRuns()).toEqual([]);
  });

  it('cancel stops Claude Code and everything it started, and stages nothing', { timeout: 120_000 }, async () => {
    world = await createClaudeCodeJobWorld({ binary, auth: 'api-key' });
    const engine = await world.engine();
    world.fake.enqueue(toolUseTurn([{ name: 'mcp__ccmem__write_file', input: { path: 'half.md', content: 'half\n' } }]), { kind: 'hang' });
    const memoryBefore = await snapshotTree(world.project.memoryDir);
    const portsBefore = listeningPorts();
    const started = await engine.jobs.startDream({ kind: 'project', ...world.ref }, { via: 'claude-code' });
    await queuedRequest(world.fake, 2);
    expect(jobProcesses(binary)).toHaveLength(1);
    const summary = await engine.jobs.cancel(started.id);
    expect(summary.status).toBe('cancelled');
    const record: JobRecord = await engine.jobs.getJob(started.id);
    expect(record.proposals).toEqual([]);
    expect(jobProcesses(binary)).toEqual([]);
    expect(listeningPorts()).toEqual(portsBefore);
    expect(await world.leftoverRuns()).toEqual([]);
    expect(await snapshotTree(world.project.memoryDir)).toEqual(memoryBefore);
    expect(existsSync(join(world.project.memoryDir, 'half.md'))).toBe(false);
  });

  const write = (path: string) =>
    toolUseTurn([{ name: 'mcp__ccmem__write_file', input: { path, content: `${path}\n` } }], {
      usage: { input_tokens: 5000, output_tokens: 100 },
    });

  it('stops Claude Code once a call would pass the token cap, keeping what the last answer staged', { timeout: 120_000 }, async () => {
    world = await createClaudeCodeJobWorld({ binary, auth: 'api-key' });
    const jobs = await world.jobsWithLimits({ ...DEFAULT_JOB_LIMITS, dream: { ...DEFAULT_JOB_LIMITS.dream, maxTokens: 8000 } });
    world.fake.enqueue(write('one.md'), write('two.md'), write('three.md'), textTurn('never asked for'));
    const record = await jobs.waitForJob((await jobs.startDream({ kind: 'project', ...world.ref }, { via: 'claude-code' })).id);
    expect(record).toMatchObject({ status: 'ready', stopReason: 'token-cap' });
    // The answer that reached the cap still had its tool call run; Claude Code was stopped waiting for its result.
    // (Should its result have gone out first on a loaded machine, one more call may slip through, but never its tools.)
    expect(record.proposals.map((p) => p.path)).toEqual(['one.md']);
    expect(queued(world.fake).length).toBeLessThanOrEqual(2);
    expect(jobProcesses(binary)).toEqual([]);
    expect(await world.leftoverRuns()).toEqual([]);
  });

  it("ends a run at the turn cap through Claude Code's own --max-turns", { timeout: 120_000 }, async () => {
    world = await createClaudeCodeJobWorld({ binary, auth: 'api-key' });
    const jobs = await world.jobsWithLimits({ ...DEFAULT_JOB_LIMITS, dream: { ...DEFAULT_JOB_LIMITS.dream, maxTurns: 1 } });
    world.fake.enqueue(write('four.md'), textTurn('never asked for'));
    const record = await jobs.waitForJob((await jobs.startDream({ kind: 'project', ...world.ref }, { via: 'claude-code' })).id);
    expect(record).toMatchObject({ status: 'ready', stopReason: 'turn-cap', turns: 1 });
    expect(record.proposals.map((p) => p.path)).toEqual(['four.md']);
    expect(queued(world.fake)).toHaveLength(1);
  });

  it('says what to do when Claude Code is not logged in', { timeout: 60_000 }, async () => {
    world = await createClaudeCodeJobWorld({ binary, auth: 'subscription' });
    await fs.rm(join(world.home.root, '.credentials.json'));
    const engine = await world.engine();
    expect((await engine.llmSettings.getView()).claudeCode).toMatchObject({ found: true, loggedIn: false, billing: null });
    await expect(engine.jobs.startDream({ kind: 'project', ...world.ref })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: 'Claude Code is not logged in: run `claude` and sign in with /login, or use an API key',
    });
    expect(world.fake.requests).toEqual([]);
  });
});
