import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionSecretStore } from '../../../electron/core/settings/secretStore';
import type { ProjectBuilder } from '../../fixtures/scenarioHome';
import { snapshotTree } from '../../fixtures/treeSnapshot';
import { textTurn, toolUseTurn } from '../../helpers/fakeAnthropicServer';
import { ccmemInWorld, createJobWorld, type JobWorld } from './jobWorld';
import { createTestEngine } from '../../fixtures/testEngine';

describe('ccmem dream --due', () => {
  let world: JobWorld;
  /** Consolidated two hours ago, six sessions before that: its gate is shut. */
  let notDue: ProjectBuilder;
  beforeEach(async () => {
    // The world's project has six sessions and has never been consolidated: its gate would fire now.
    world = await createJobWorld();
    notDue = world.home.project(world.home.workPath('blog'));
    for (let i = 0; i < 6; i++) await notDue.session({ turns: 1 });
    await notDue.memoryIndex('- [Style](style.md) — short posts\n');
    await notDue.lock({ body: '', mtime: new Date(Date.now() - 2 * 3_600_000) });
  });
  afterEach(async () => {
    await world.cleanup();
  });

  it('runs a staged dream only where the gate fires, prints the array of job outputs, and applies nothing', async () => {
    world.fake.enqueue(
      toolUseTurn([{ name: 'edit_file', input: { path: 'feedback_tests.md', old_string: '`make test`', new_string: '`make test-unit`' } }]),
      textTurn('Updated the test command.'),
    );
    const notDueBefore = await snapshotTree(notDue.memoryDir);
    const dueMemoryBefore = await world.memorySnapshot();
    const startedAt = Date.now();

    const { code, stdout, stderr } = await ccmemInWorld(world, 'dream', '--due', '--via', 'api', '--json');
    expect(code, stderr).toBe(0);
    const outputs = JSON.parse(stdout) as Record<string, unknown>[];
    expect(outputs).toHaveLength(1);
    // The same per-job JSON as `ccmem dream --json`.
    expect(Object.keys(outputs[0])).toEqual(['jobId', 'summary', 'usage', 'proposals']);
    expect(outputs[0]).toMatchObject({
      summary: 'Updated the test command.',
      proposals: [{ path: 'feedback_tests.md', kind: 'modify', accepted: true, rejectedReason: null }],
    });
    expect(stderr).toContain('1 of 2 project(s) due');
    expect(world.fake.requests).toHaveLength(2);

    // The project that was not due is untouched, lock included, byte for byte and mtime.
    expect(await snapshotTree(notDue.memoryDir)).toEqual(notDueBefore);
    // The due one: only the lock moved, to the run's start, with no holder left in it.
    const memoryAfter = await world.memorySnapshot();
    const lock = join(world.project.memoryDir, '.consolidate-lock');
    expect(await fs.readFile(lock, 'utf8')).toBe('');
    expect((await fs.stat(lock)).mtimeMs).toBeGreaterThanOrEqual(startedAt - 1000);
    memoryAfter.delete('.consolidate-lock');
    expect(memoryAfter).toEqual(dueMemoryBefore);

    // The proposals wait for review in `ccmem serve`: the inbox of an engine over the same data folder has them.
    const engine = await createTestEngine(world.home, {
      dataDir: world.dataDir,
      shell: 'web',
      llm: { secrets: new SessionSecretStore(), environment: { apiKey: null, baseUrl: null, maxRetries: 0 } },
    });
    try {
      expect(await engine.inbox.list()).toMatchObject([
        { jobId: outputs[0].jobId, trigger: 'schedule', files: [{ path: 'feedback_tests.md', stale: false }] },
      ]);
    } finally {
      await engine.dispose();
    }

    // Run again: the gate is shut now (and proposals wait), so nothing runs.
    const again = await ccmemInWorld(world, 'dream', '--due', '--json');
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual([]);
    expect(world.fake.requests).toHaveLength(2);
  });

  it('refuses what it cannot do, before anything runs', async () => {
    // No claude to run (the environment has no PATH and no CCMEM_CLAUDE_PATH): the run stops at the first due project.
    const viaClaude = await ccmemInWorld(world, 'dream', '--due', '--via', 'claude-code');
    expect(viaClaude.code).toBe(1);
    expect(viaClaude.stderr).toContain('claude');
    expect((await ccmemInWorld(world, 'dream', '--due', '--via', 'pigeon')).code).toBe(2);
    expect((await ccmemInWorld(world, 'dream', '--due', '--apply')).code).toBe(2);
    expect((await ccmemInWorld(world, 'dream', '--due', '--project', world.project.slug)).code).toBe(2);
    expect(world.fake.requests).toEqual([]);
    await expect(fs.stat(join(world.project.memoryDir, '.consolidate-lock'))).rejects.toThrow();
  });
});
