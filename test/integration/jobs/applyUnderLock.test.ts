import { spawn, type ChildProcess } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { JobRecord } from '../../../shared/jobs/jobTypes';
import { DEAD_PID } from '../../fixtures/scenarioHome';
import { textTurn, toolUseTurn } from '../../helpers/fakeAnthropicServer';
import { createJobWorld, type JobWorld } from './jobWorld';

const HOUR = 3_600_000;

async function lockState(world: JobWorld): Promise<{ body: string; mtimeMs: number } | null> {
  const path = join(world.project.memoryDir, '.consolidate-lock');
  const stats = await fs.stat(path).catch(() => null);
  // utimes keeps sub-millisecond noise on some file systems; whole milliseconds are what the protocol sets.
  return stats ? { body: await fs.readFile(path, 'utf8'), mtimeMs: Math.round(stats.mtimeMs) } : null;
}

/** A two-file dream: one edit and one new file. */
async function readyDream(world: JobWorld): Promise<JobRecord> {
  world.fake.enqueue(
    toolUseTurn([
      { name: 'edit_file', input: { path: 'feedback_tests.md', old_string: '`make test`', new_string: '`make test-unit`' } },
      { name: 'write_file', input: { path: 'project_api_v2.md', content: 'API v2 since 2026-04-28.\n' } },
    ]),
    textTurn('Updated the test command and recorded the v2 date.'),
  );
  return world.finished(await world.jobs.startDream({ kind: 'project', ...world.ref }));
}

const acceptAll = (record: JobRecord) => record.proposals.map((p) => ({ path: p.path, decision: 'accept' as const }));

describe('applying a job under .consolidate-lock', () => {
  let world: JobWorld;
  let sleeper: ChildProcess | null = null;
  afterEach(async () => {
    sleeper?.kill();
    sleeper = null;
    await world.cleanup();
  });

  it('applies the files that did not change and reports the one that did as a conflict', async () => {
    world = await createJobWorld();
    const record = await readyDream(world);
    const changed = join(world.project.memoryDir, 'feedback_tests.md');
    await fs.writeFile(changed, 'Claude Code rewrote this meanwhile.\n');
    const outcome = await world.jobs.apply(record.id, acceptAll(record));
    expect(outcome.conflicts).toEqual([{ path: 'feedback_tests.md', reason: 'changed on disk since the job started' }]);
    expect(outcome.applied).toEqual([{ path: 'project_api_v2.md', kind: 'add' }]);
    expect(await fs.readFile(changed, 'utf8')).toBe('Claude Code rewrote this meanwhile.\n');
    expect(await fs.readFile(join(world.project.memoryDir, 'project_api_v2.md'), 'utf8')).toBe('API v2 since 2026-04-28.\n');
    const entries = await world.engine.history.changeSet(outcome.changeSetId!);
    expect(entries.map((e) => [e.path, e.cause, e.before])).toEqual([['project_api_v2.md', 'dream', null]]);
    expect((await lockState(world))?.body).toBe('');
    await world.expectNoKeyLeak();
  });

  it('creates new files in new subfolders, and a memory folder that did not exist yet', async () => {
    world = await createJobWorld();
    await fs.rm(world.project.memoryDir, { recursive: true });
    world.fake.enqueue(
      toolUseTurn([
        { name: 'write_file', input: { path: 'MEMORY.md', content: '- [Deploys](ops/deploys.md) — how deploys work\n' } },
        { name: 'write_file', input: { path: 'ops/deploys.md', content: 'Deploys go through the pipeline.\n' } },
      ]),
      textTurn('Started a memory.'),
    );
    const record = await world.finished(await world.jobs.startDream({ kind: 'project', ...world.ref }));
    const outcome = await world.jobs.apply(record.id, acceptAll(record));
    expect(outcome.conflicts).toEqual([]);
    expect(outcome.applied.map((a) => a.path).sort()).toEqual(['MEMORY.md', 'ops/deploys.md']);
    expect(await fs.readFile(join(world.project.memoryDir, 'ops', 'deploys.md'), 'utf8')).toBe('Deploys go through the pipeline.\n');
    expect((await lockState(world))?.body).toBe('');
  });

  it('rolls the lock back to its prior mtime when every file conflicts', async () => {
    const prior = '2026-05-03T00:00:00.000Z';
    world = await createJobWorld({ lock: { pid: DEAD_PID, mtime: prior } });
    const record = await readyDream(world);
    await fs.writeFile(join(world.project.memoryDir, 'feedback_tests.md'), 'changed\n');
    await fs.writeFile(join(world.project.memoryDir, 'project_api_v2.md'), 'someone else wrote it\n');
    const outcome = await world.jobs.apply(record.id, acceptAll(record));
    expect(outcome.applied).toEqual([]);
    expect(outcome.conflicts.map((c) => c.path).sort()).toEqual(['feedback_tests.md', 'project_api_v2.md']);
    expect(outcome.changeSetId).toBeNull();
    expect(await lockState(world)).toEqual({ body: '', mtimeMs: Date.parse(prior) });
  });

  it('refuses while a live process holds a recent lock, and touches neither the lock nor the memory', async () => {
    sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    const mtime = new Date(Date.now() - 5 * 60_000).toISOString();
    world = await createJobWorld({ lock: { pid: sleeper.pid!, mtime } });
    const record = await readyDream(world);
    const lockBefore = await lockState(world);
    const memoryBefore = await world.memorySnapshot();
    await expect(world.jobs.apply(record.id, acceptAll(record))).rejects.toMatchObject({
      code: 'LOCK_HELD',
      details: { holderPid: sleeper.pid },
    });
    expect(await lockState(world)).toEqual(lockBefore);
    expect(lockBefore).toEqual({ body: String(sleeper.pid), mtimeMs: Date.parse(mtime) });
    expect(await world.memorySnapshot()).toEqual(memoryBefore);
    expect((await world.jobs.getJob(record.id)).status).toBe('ready');
  });

  it('takes over a stale lock (live PID, over an hour old) and a dead holder, like Claude Code', async () => {
    sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    for (const lock of [
      { pid: sleeper.pid!, mtime: new Date(Date.now() - 2 * HOUR).toISOString() },
      { pid: DEAD_PID, mtime: new Date(Date.now() - 60_000).toISOString() },
      { body: 'not a pid', mtime: new Date(Date.now() - 60_000).toISOString() },
    ]) {
      world = await createJobWorld({ lock });
      const record = await readyDream(world);
      const before = Date.now();
      const outcome = await world.jobs.apply(record.id, acceptAll(record));
      expect(outcome.applied).toHaveLength(2);
      const state = await lockState(world);
      expect(state?.body).toBe('');
      expect(state!.mtimeMs).toBeGreaterThanOrEqual(before - 1000);
      await world.cleanup();
    }
    world = await createJobWorld();
  });

  it('leaves no lock behind after an extraction when there was none, and puts a prior mtime back', async () => {
    for (const prior of [null, '2026-05-02T00:00:00.000Z']) {
      world = await createJobWorld(prior ? { lock: { pid: DEAD_PID, mtime: prior } } : {});
      world.fake.enqueue(
        toolUseTurn([
          { name: 'write_file', input: { path: 'reference_tracker.md', content: 'Tracker: https://tracker.example.com/SHOP\n' } },
        ]),
        textTurn('Saved the tracker.'),
      );
      const record = await world.finished(
        await world.jobs.startExtraction({ kind: 'session', ...world.ref, sessionId: world.sessions[3].sessionId }),
      );
      const outcome = await world.jobs.apply(record.id, acceptAll(record));
      expect(outcome.applied).toEqual([{ path: 'reference_tracker.md', kind: 'add' }]);
      expect((await world.engine.history.changeSet(outcome.changeSetId!)).map((e) => e.cause)).toEqual(['extraction']);
      expect(await lockState(world)).toEqual(prior ? { body: '', mtimeMs: Date.parse(prior) } : null);
      await world.cleanup();
    }
    world = await createJobWorld();
  });
});
