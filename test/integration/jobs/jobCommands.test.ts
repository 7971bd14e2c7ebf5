import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { snapshotTree } from '../../fixtures/treeSnapshot';
import { textTurn, toolUseTurn } from '../../helpers/fakeAnthropicServer';
import { ccmemInWorld, createJobWorld, lineOf, type JobWorld } from './jobWorld';

async function scriptDream(world: JobWorld): Promise<{ sessionId: string; line: number }> {
  const session = world.sessions[1];
  const line = await lineOf(session.file, 'make test-unit now');
  world.fake.enqueue(
    toolUseTurn([
      {
        name: 'edit_file',
        input: {
          path: 'feedback_tests.md',
          old_string: '`make test`',
          new_string: '`make test-unit`',
          evidence: [
            { source: `@transcripts/${session.sessionId}.jsonl`, line, quote: 'run the unit tests with make test-unit now' },
            { source: 'feedback_tests.md', line: 6, quote: 'Run the unit tests with `make test`.' },
          ],
        },
      },
      { name: 'delete_file', input: { path: 'MEMORY.md' } },
    ]),
    textTurn('Updated the test command.'),
  );
  return { sessionId: session.sessionId, line };
}

describe('ccmem dream and ccmem extract', () => {
  let world: JobWorld;
  beforeEach(async () => {
    world = await createJobWorld();
  });
  afterEach(async () => {
    await world.cleanup();
  });

  it('dream --json prints exactly the documented schema and, without --apply, changes nothing under the config root', async () => {
    const cited = await scriptDream(world);
    const before = await snapshotTree(world.home.root);
    const { code, stdout, stderr } = await ccmemInWorld(world, 'dream', '--project', world.project.slug, '--json');
    expect(stderr).not.toMatch(/error/i);
    expect(code).toBe(0);
    const json = JSON.parse(stdout) as Record<string, unknown>;
    expect(Object.keys(json)).toEqual(['jobId', 'summary', 'usage', 'proposals']);
    expect(json.summary).toBe('Updated the test command.');
    expect(json.usage).toEqual({ input: 2000, output: 300 });
    const proposals = json.proposals as Record<string, unknown>[];
    expect(proposals.map((p) => Object.keys(p))).toEqual([
      ['path', 'kind', 'diff', 'accepted', 'rejectedReason', 'evidence'],
      ['path', 'kind', 'diff', 'accepted', 'rejectedReason', 'evidence'],
    ]);
    expect(proposals[0]).toMatchObject({ path: 'feedback_tests.md', kind: 'modify', accepted: true, rejectedReason: null });
    expect(proposals[0].evidence).toEqual([
      {
        sessionId: cited.sessionId,
        agentId: null,
        file: null,
        line: cited.line,
        text: 'run the unit tests with make test-unit now',
        verified: true,
        problem: null,
      },
      {
        sessionId: null,
        agentId: null,
        file: 'feedback_tests.md',
        line: 6,
        text: 'Run the unit tests with `make test`.',
        verified: true,
        problem: null,
      },
    ]);
    expect(proposals[0].diff).toContain('+Run the unit tests with `make test-unit`.');
    expect(proposals[1]).toEqual({
      path: 'MEMORY.md',
      kind: 'delete',
      diff: '',
      accepted: false,
      rejectedReason: 'MEMORY.md cannot be deleted',
      evidence: [],
    });
    expect(await snapshotTree(world.home.root)).toEqual(before);
    await world.expectNoKeyLeak(stdout + stderr);
  });

  it('dream --apply applies every accepted proposal under the lock', async () => {
    await scriptDream(world);
    const { code, stdout, stderr } = await ccmemInWorld(world, 'dream', '--project', world.project.slug, '--apply');
    expect(code).toBe(0);
    expect(stdout).toContain('MODIFY feedback_tests.md');
    expect(stderr).toContain('Applied 1 file(s)');
    expect(await fs.readFile(join(world.project.memoryDir, 'feedback_tests.md'), 'utf8')).toContain('`make test-unit`');
    expect(await fs.readFile(join(world.project.memoryDir, 'MEMORY.md'), 'utf8')).toContain('[Old plan]');
    expect(await fs.readFile(join(world.project.memoryDir, '.consolidate-lock'), 'utf8')).toBe('');
    await world.expectNoKeyLeak(stdout + stderr);
  });

  it('extract --session ID --json replays one session and reports the estimate first', async () => {
    world.fake.enqueue(
      toolUseTurn([
        { name: 'write_file', input: { path: 'reference_tracker.md', content: 'Tracker: https://tracker.example.com/SHOP\n' } },
      ]),
      textTurn('Saved where incidents are tracked.'),
    );
    const before = await snapshotTree(world.home.root);
    const session = world.sessions[3].sessionId;
    const { code, stdout, stderr } = await ccmemInWorld(world, 'extract', '--session', session, '--json');
    expect(code).toBe(0);
    expect(stderr).toMatch(/Reading 4 message\(s\) in 1 part\(s\)/);
    const json = JSON.parse(stdout) as { proposals: { path: string; kind: string; accepted: boolean }[] };
    expect(json.proposals).toMatchObject([{ path: 'reference_tracker.md', kind: 'add', accepted: true }]);
    expect(await snapshotTree(world.home.root)).toEqual(before);
  });

  it('explains what is missing', async () => {
    expect((await ccmemInWorld(world, 'dream')).code).toBe(2);
    expect((await ccmemInWorld(world, 'dream', '--project', 'no-such-project')).stderr).toContain('no project no-such-project');
    expect((await ccmemInWorld(world, 'extract', '--session', '00000000-0000-4000-8000-000000000000')).stderr).toContain('no session');
    expect((await ccmemInWorld(world, 'extract', '--session', world.sessions[0].sessionId, '--turns', '3-1')).code).toBe(2);
    // Turns past the session's end leave nothing to send: said before any key or model is asked for.
    const pastTheEnd = await ccmemInWorld(world, 'extract', '--session', world.sessions[0].sessionId, '--turns', '90-99');
    expect(pastTheEnd).toMatchObject({ code: 1, stderr: expect.stringContaining('has no conversation to replay in turns 90-99') });
    const badVia = await ccmemInWorld(world, 'dream', '--project', world.project.slug, '--via', 'openai');
    expect(badVia).toMatchObject({ code: 2, stderr: expect.stringContaining('--via must be claude-code or api, not openai') });
    // This environment has a key but no claude: naming Claude Code says so instead of falling back.
    const noClaude = await ccmemInWorld(world, 'extract', '--session', world.sessions[0].sessionId, '--via', 'claude-code');
    expect(noClaude.code).toBe(1);
    expect(noClaude.stderr).toContain('Claude Code was not found: No claude on the PATH');
  });
});
