import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contentHash } from '../../../electron/core/fs/contentHash';
import { textTurn, toolUseTurn } from '../../helpers/fakeAnthropicServer';
import { createJobWorld, INDEX_TEXT, type JobWorld } from './jobWorld';

const NEW_INDEX = [
  '- [Role](user_role.md) — backend developer, prefers Go and SQL',
  '- [Tests](feedback_tests.md) — run the unit tests with make test',
  '- [API v2](project_api_v2.md) — API moved to v2 on 2026-04-28',
  '',
].join('\n');
const API_V2 =
  '---\nname: API v2\ndescription: The API moved to v2 on 2026-04-28\ntype: project\n---\nThe API runs on v2 since 2026-04-28.\n';

function scriptGoodDream(world: JobWorld): void {
  world.fake.enqueue(
    toolUseTurn(
      [
        { name: 'list_dir', input: { path: '' } },
        { name: 'read_file', input: { path: 'feedback_tests.md' } },
        { name: 'read_file', input: { path: 'project_old_plan.md' } },
      ],
      { text: 'Phase 1: orienting.' },
    ),
    toolUseTurn([{ name: 'grep', input: { pattern: 'make test|v2', path: '@transcripts' } }]),
    toolUseTurn([
      { name: 'edit_file', input: { path: 'feedback_tests.md', old_string: '`make test`', new_string: '`make test-unit`' } },
      { name: 'delete_file', input: { path: 'project_old_plan.md' } },
      { name: 'write_file', input: { path: 'project_api_v2.md', content: API_V2 } },
      { name: 'write_file', input: { path: 'MEMORY.md', content: NEW_INDEX } },
    ]),
    textTurn('Merged the test command change, replaced the stale v2 plan with a dated fact, and updated the index.'),
  );
}

describe('a dream against the fake Anthropic server', () => {
  let world: JobWorld;
  beforeEach(async () => {
    world = await createJobWorld();
  });
  afterEach(async () => {
    await world.cleanup();
  });

  it('stages every change for review and writes nothing until it is applied', async () => {
    scriptGoodDream(world);
    const outsideBefore = await world.outsideSnapshot();
    const memoryBefore = await world.memorySnapshot();
    const record = await world.finished(await world.jobs.startDream({ kind: 'project', ...world.ref }));

    expect(record.status).toBe('ready');
    expect(record.error).toBeNull();
    expect(record.summary).toContain('Merged the test command change');
    expect(record.proposals.map((p) => [p.path, p.kind])).toEqual([
      ['feedback_tests.md', 'modify'],
      ['MEMORY.md', 'modify'],
      ['project_api_v2.md', 'add'],
      ['project_old_plan.md', 'delete'],
    ]);
    const tests = record.proposals.find((p) => p.path === 'feedback_tests.md')!;
    expect(tests.diff).toContain('-Run the unit tests with `make test`.');
    expect(tests.diff).toContain('+Run the unit tests with `make test-unit`.');
    expect(record.usage).toEqual({ input: 4000, output: 700 });
    expect(record.costUsd).toBeCloseTo((4000 * 3 + 700 * 15) / 1_000_000, 8);
    expect(record.turns).toBe(4);
    expect(await world.memorySnapshot()).toEqual(memoryBefore);
    expect(await world.outsideSnapshot()).toEqual(outsideBefore);

    // What the model was sent: our tools, the four phases, the index as data, tool results as data.
    const [first, second, third] = world.fake.requests;
    expect(first.body.model).toBe('claude-sonnet-4-6');
    expect((first.body.tools as { name: string }[]).map((t) => t.name)).toEqual([
      'list_dir',
      'read_file',
      'grep',
      'write_file',
      'edit_file',
      'delete_file',
    ]);
    expect(first.body.system).toMatch(/1\. Orient\.[\s\S]*2\. Gather recent signal\.[\s\S]*3\. Consolidate\.[\s\S]*4\. Prune and index\./);
    expect(JSON.stringify(first.body.messages)).toContain(`<memory_index>\\n${INDEX_TEXT.split('\n')[0]}`);
    expect(second.rawBody).toContain('<memory_file path=\\"feedback_tests.md\\">');
    expect(third.rawBody).toContain('make test-unit now');
    expect(third.rawBody).toContain(`@transcripts/${world.sessions[1].sessionId}.jsonl`);
    await world.expectNoKeyLeak();
  });

  it('applies the approved proposals atomically, as one dream change set, and leaves the lock at the apply time', async () => {
    scriptGoodDream(world);
    const record = await world.finished(await world.jobs.startDream({ kind: 'project', ...world.ref }));
    const outsideBefore = await world.outsideSnapshot();
    const before = Date.now();
    const outcome = await world.jobs.apply(
      record.id,
      record.proposals.map((p) => ({ path: p.path, decision: 'accept' as const })),
    );
    const after = Date.now();

    expect(outcome.conflicts).toEqual([]);
    expect(outcome.applied.map((a) => a.path).sort()).toEqual(record.proposals.map((p) => p.path).sort());
    const memoryDir = world.project.memoryDir;
    expect(await fs.readFile(join(memoryDir, 'MEMORY.md'), 'utf8')).toBe(NEW_INDEX);
    expect(await fs.readFile(join(memoryDir, 'project_api_v2.md'), 'utf8')).toBe(API_V2);
    expect(await fs.readFile(join(memoryDir, 'feedback_tests.md'), 'utf8')).toContain('`make test-unit`');
    await expect(fs.stat(join(memoryDir, 'project_old_plan.md'))).rejects.toThrow();

    // One change set, cause 'dream', with every old and new version stored.
    const entries = await world.engine.history.changeSet(outcome.changeSetId!);
    expect(entries).toHaveLength(4);
    for (const entry of entries) {
      expect(entry.cause).toBe('dream');
      const proposal = record.proposals.find((p) => p.path === entry.path)!;
      expect(entry.before).toBe(proposal.baseHash);
      if (proposal.before !== null) expect((await world.engine.history.readBlob(entry.before!)).toString('utf8')).toBe(proposal.before);
      if (entry.after !== null) expect(contentHash(await fs.readFile(join(memoryDir, entry.path)))).toBe(entry.after);
    }

    // The lock: taken at apply time, PID cleared afterwards so this running app is no holder.
    const lock = join(memoryDir, '.consolidate-lock');
    expect(await fs.readFile(lock, 'utf8')).toBe('');
    const { mtimeMs } = await fs.stat(lock);
    expect(mtimeMs).toBeGreaterThanOrEqual(before - 1000);
    expect(mtimeMs).toBeLessThanOrEqual(after + 1000);

    expect(await world.outsideSnapshot()).toEqual(outsideBefore);
    const stored = await world.jobs.getJob(record.id);
    expect(stored.status).toBe('applied');
    expect(stored.outcome?.changeSetId).toBe(outcome.changeSetId);
    await world.expectNoKeyLeak();
  });

  it("is in history as this app's own dream: noted, listed as kept, and the recorder has nothing left to record", async () => {
    scriptGoodDream(world);
    await world.engine.memoryHistory.recordNow();
    const record = await world.finished(await world.jobs.startDream({ kind: 'project', ...world.ref }));
    const outcome = await world.jobs.apply(
      record.id,
      record.proposals.map((p) => ({ path: p.path, decision: 'accept' as const })),
    );
    // The lock moved and four files changed: the recorder must not take that for a dream of Claude Code's.
    const report = await world.engine.memoryHistory.recordNow();
    expect(report.versions).toBe(0);
    const dreams = await world.engine.memoryHistory.listDreams(world.ref);
    expect(dreams.map((item) => [item.changeSet.id, item.changeSet.cause, item.review?.decision])).toEqual([
      [outcome.changeSetId, 'dream', 'kept'],
    ]);
    expect(dreams[0].changeSet.evidence).toEqual({ kind: 'app-edit', summary: expect.stringContaining(record.id) });
    expect(await world.engine.memoryHistory.unreviewedDreamCounts()).toEqual([]);
    // Nor is a later edit by hand taken for the rest of a dream.
    await fs.writeFile(join(world.project.memoryDir, 'user_role.md'), 'Edited by hand afterwards.\n');
    expect((await world.engine.memoryHistory.recordNow()).versions).toBe(1);
    const [latest] = (await world.engine.memoryHistory.listChangeSets({ limit: 1 })).changeSets;
    expect([latest.files.map((file) => file.path), latest.cause]).toEqual([['user_role.md'], 'external']);
  });

  it('applies only the approved files and hunks, or an edited proposal', async () => {
    scriptGoodDream(world);
    const record = await world.finished(await world.jobs.startDream({ kind: 'project', ...world.ref }));
    const index = record.proposals.find((p) => p.path === 'MEMORY.md')!;
    expect(index.parts.filter((p) => p.kind === 'change').map((p) => p.after)).toEqual([
      '- [Role](user_role.md) — backend developer, prefers Go and SQL\n',
      '- [API v2](project_api_v2.md) — API moved to v2 on 2026-04-28\n',
    ]);
    const outcome = await world.jobs.apply(record.id, [
      { path: 'MEMORY.md', decision: 'hunks', hunks: [1] },
      { path: 'project_api_v2.md', decision: 'accept' },
      { path: 'feedback_tests.md', decision: 'edit', content: 'Edited by hand.\n' },
      { path: 'project_old_plan.md', decision: 'reject' },
    ]);
    expect(outcome.applied.map((a) => a.path).sort()).toEqual(['MEMORY.md', 'feedback_tests.md', 'project_api_v2.md']);
    expect(outcome.rejected).toEqual(['project_old_plan.md']);
    const memoryDir = world.project.memoryDir;
    expect(await fs.readFile(join(memoryDir, 'MEMORY.md'), 'utf8')).toBe(
      [
        '- [Role](user_role.md) — backend developer, prefers Go',
        '- [Tests](feedback_tests.md) — run the unit tests with make test',
        '- [API v2](project_api_v2.md) — API moved to v2 on 2026-04-28',
        '',
      ].join('\n'),
    );
    expect(await fs.readFile(join(memoryDir, 'feedback_tests.md'), 'utf8')).toBe('Edited by hand.\n');
    expect(await fs.readFile(join(memoryDir, 'project_old_plan.md'), 'utf8')).toContain('We migrate to v2 next week.');
  });
});
