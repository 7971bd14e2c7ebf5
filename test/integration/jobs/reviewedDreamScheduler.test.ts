import { promises as fs } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { BackgroundStatus, ReviewInboxChange } from '../../../shared/jobs/backgroundJobs';
import type { JobRecord } from '../../../shared/jobs/jobTypes';
import { errorResponse, textTurn, toolUseTurn } from '../../helpers/fakeAnthropicServer';
import { createJobWorld, type JobWorld } from './jobWorld';

const LOCK = '.consolidate-lock';
const HOUR = 3_600_000;

interface LockFacts {
  readonly body: string;
  readonly mtimeMs: number;
}

async function lockFacts(world: JobWorld): Promise<LockFacts | null> {
  const path = join(world.project.memoryDir, LOCK);
  try {
    const [body, stats] = await Promise.all([fs.readFile(path, 'utf8'), fs.stat(path)]);
    return { body, mtimeMs: stats.mtimeMs };
  } catch {
    return null;
  }
}

/** The lock's body byte for byte, and its mtime to within the microsecond rounding of `utimes` (Claude Code's too). */
function expectLock(actual: LockFacts | null, expected: LockFacts): void {
  expect(actual?.body).toBe(expected.body);
  expect(Math.abs(actual!.mtimeMs - expected.mtimeMs)).toBeLessThan(0.01);
}

async function until<T>(what: string, probe: () => Promise<T | null | undefined> | T | null | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null && value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The scheduled job of the world's project, once it has stopped running. */
async function scheduledJob(world: JobWorld): Promise<JobRecord> {
  const summary = await until('a scheduled job', async () =>
    (await world.engine.jobs.listJobs()).find((job) => job.trigger === 'schedule' && job.status !== 'running'),
  );
  return world.engine.jobs.getJob(summary.id);
}

function turnOnForProject(world: JobWorld): Promise<BackgroundStatus> {
  return world.engine.background.updateSettings({ project: { ...world.ref, reviewedDreams: true } });
}

describe('reviewed dreams on Claude Code’s schedule', () => {
  let world: JobWorld;
  afterEach(async () => {
    await world.cleanup();
  });

  it('runs a staged dream when the gate fires, holding the lock as Claude Code does, and its approval is applied', async () => {
    // Six sessions and no lock: Claude Code's gate is open (never consolidated, 6 ≥ 5 sessions).
    world = await createJobWorld({ watch: true });
    await world.engine.ready;
    const changes: ReviewInboxChange[] = [];
    world.engine.inbox.onDidChange((change) => changes.push(change));
    world.fake.enqueue(
      {
        kind: 'delay',
        ms: 1500,
        then: toolUseTurn([
          { name: 'edit_file', input: { path: 'feedback_tests.md', old_string: '`make test`', new_string: '`make test-unit`' } },
          {
            name: 'write_file',
            input: { path: 'project_cart.md', content: '---\nname: Cart\ndescription: d\ntype: project\n---\nRefactored.\n' },
          },
        ]),
      },
      textTurn('Updated the test command and noted the cart refactor.'),
    );
    const memoryBefore = await world.memorySnapshot();
    const startedAt = Date.now();
    await turnOnForProject(world);

    // While the model works, the lock holds our PID and was written just now.
    await world.fake.waitForRequest(1);
    const during = await lockFacts(world);
    expect(during?.body).toBe(String(process.pid));
    expect(during!.mtimeMs).toBeGreaterThanOrEqual(startedAt - 1000);

    const record = await scheduledJob(world);
    expect(record.status).toBe('ready');
    expect(record.trigger).toBe('schedule');
    expect(record.proposals.map((p) => p.path)).toEqual(['feedback_tests.md', 'project_cart.md']);
    // Proposals only: nothing of the memory changed but the lock, whose mtime stays at the run's start.
    const after = await lockFacts(world);
    expectLock(after, { body: '', mtimeMs: during!.mtimeMs });
    const memoryNow = await world.memorySnapshot();
    memoryNow.delete(LOCK);
    expect(memoryNow).toEqual(memoryBefore);
    // For Claude Code the consolidation is done: its gate is shut for a day.
    const gate = await world.engine.jobs.dreamGate(world.ref);
    expect(Date.parse(gate.lastConsolidatedAt!)).toBe(Math.floor(during!.mtimeMs));
    expect(gate.wouldFire).toBe(false);

    // The inbox holds it, and said so when it arrived.
    const inbox = await world.engine.inbox.list();
    expect(inbox).toHaveLength(1);
    expect(inbox[0]).toMatchObject({
      jobId: record.id,
      kind: 'dream',
      trigger: 'schedule',
      summary: 'Updated the test command and noted the cart refactor.',
      files: [
        { path: 'feedback_tests.md', kind: 'modify', stale: false },
        { path: 'project_cart.md', kind: 'add', stale: false },
      ],
    });
    await until('the arrival event', () => changes.find((change) => change.arrived?.jobId === record.id));
    expect(changes.find((change) => change.arrived)?.count).toBe(1);

    // Approve one file, reject the other: the existing apply path writes it under the lock, as one dream change set.
    const outcome = await world.engine.jobs.apply(record.id, [
      { path: 'feedback_tests.md', decision: 'accept' },
      { path: 'project_cart.md', decision: 'reject' },
    ]);
    expect(outcome.applied).toEqual([{ path: 'feedback_tests.md', kind: 'modify' }]);
    expect(outcome.changeSetId).not.toBeNull();
    expect(await fs.readFile(join(world.project.memoryDir, 'feedback_tests.md'), 'utf8')).toContain('`make test-unit`');
    await expect(fs.stat(join(world.project.memoryDir, 'project_cart.md'))).rejects.toThrow();
    expect(await world.engine.inbox.list()).toEqual([]);
    await until('the inbox to empty', () => changes.some((change) => change.count === 0 && change.arrived === null));
    expect(world.fake.requests).toHaveLength(2);
    await world.expectNoKeyLeak();
  });

  it('checks the gate again when a session changes: the fifth session since the last consolidation fires it', async () => {
    world = await createJobWorld({ watch: true });
    // A day and a half ago Claude Code consolidated (dead holder); four sessions since.
    const consolidated = Date.now() - 36 * HOUR;
    await world.project.lock({ body: '', mtime: new Date(consolidated).toISOString() });
    for (const session of world.sessions.slice(0, 4)) {
      await fs.utimes(session.file, new Date(consolidated + HOUR), new Date(consolidated + HOUR));
    }
    for (const session of world.sessions.slice(4)) {
      await fs.utimes(session.file, new Date(consolidated - HOUR), new Date(consolidated - HOUR));
    }
    await world.engine.ready;
    await turnOnForProject(world);
    expect((await world.engine.jobs.dreamGate(world.ref)).sessionsSince).toBe(4);
    expect(await world.engine.jobs.listJobs()).toEqual([]);

    world.fake.enqueue(textTurn('Nothing needed changing.'));
    // Claude Code appends to a session: the catalog's update reaches the scheduler, the gate opens.
    await fs.appendFile(
      world.sessions[5].file,
      `${JSON.stringify({ type: 'system', subtype: 'turn_duration', timestamp: new Date().toISOString() })}\n`,
    );
    const record = await scheduledJob(world);
    expect(record.status).toBe('ready');
    expect(record.proposals).toEqual([]);
    // Even a dream that changed nothing counts as a consolidation for Claude Code.
    const lock = await lockFacts(world);
    expect(lock?.body).toBe('');
    expect(lock!.mtimeMs).toBeGreaterThan(consolidated + HOUR);
    expect(await world.engine.inbox.list()).toEqual([]);
  });

  it('counts sessions of the repository’s sub-folders, which share its memory, toward the gate', async () => {
    world = await createJobWorld({ watch: true });
    const consolidated = Date.now() - 36 * HOUR;
    await world.project.lock({ body: '', mtime: new Date(consolidated).toISOString() });
    await mkdir(join(world.home.workPath('shop'), '.git'), { recursive: true });
    const api = world.home.project(join(world.home.workPath('shop'), 'services', 'api'));
    const apiSessions = [];
    for (let i = 0; i < 4; i++) apiSessions.push(await api.session({ turns: 1 }));
    // One session of the root and three of services/api since the last consolidation: four.
    const touch = (file: string, ms: number) => fs.utimes(file, new Date(ms), new Date(ms));
    for (const [index, session] of world.sessions.entries()) await touch(session.file, consolidated + (index === 0 ? 1 : -1) * HOUR);
    for (const [index, session] of apiSessions.entries()) await touch(session.file, consolidated + (index < 3 ? 1 : -1) * HOUR);
    await world.engine.ready;
    await world.engine.home.refresh();
    await turnOnForProject(world);
    expect((await world.engine.jobs.dreamGate(world.ref)).sessionsSince).toBe(4);
    expect(await world.engine.jobs.listJobs()).toEqual([]);

    // Work goes on in services/api: the fifth session since opens the root's gate.
    world.fake.enqueue(textTurn('Nothing needed changing.'));
    await fs.appendFile(
      apiSessions[3].file,
      `${JSON.stringify({ type: 'system', subtype: 'turn_duration', timestamp: new Date().toISOString() })}\n`,
    );
    const record = await scheduledJob(world);
    expect(record.status).toBe('ready');
    expect(record.target.memoryDir).toBe(world.project.memoryDir);
  });

  it('rolls the lock back exactly as Claude Code does when the dream fails: prior mtime, empty body', async () => {
    const prior = new Date(Date.now() - 48 * HOUR);
    world = await createJobWorld({ watch: true, lock: { body: '424242', mtime: prior.toISOString() } });
    const priorMtimeMs = (await fs.stat(join(world.project.memoryDir, LOCK))).mtimeMs;
    // The sessions are older than the lock; five new ones open the gate.
    for (const [index, session] of world.sessions.entries()) {
      const time = new Date(priorMtimeMs + (index < 5 ? 1 : -1) * HOUR);
      await fs.utimes(session.file, time, time);
    }
    await world.engine.ready;
    world.fake.enqueue({ kind: 'delay', ms: 1000, then: errorResponse(400, 'scripted failure') });
    await turnOnForProject(world);
    await world.fake.waitForRequest(1);
    expect((await lockFacts(world))?.body).toBe(String(process.pid));

    const record = await scheduledJob(world);
    expect(record.status).toBe('failed');
    expectLock(await lockFacts(world), { body: '', mtimeMs: priorMtimeMs });
    const status = await world.engine.background.status();
    expect(status.problems[0]?.message).toContain('failed');
    expect(await world.engine.inbox.list()).toEqual([]);
  });

  it('removes a lock it created when the dream is cancelled, as Claude Code does without a prior lock', async () => {
    world = await createJobWorld({ watch: true });
    await world.engine.ready;
    world.fake.enqueue({ kind: 'hang' });
    await turnOnForProject(world);
    await world.fake.waitForRequest(1);
    expect((await lockFacts(world))?.body).toBe(String(process.pid));
    const running = await until('the running job', async () => (await world.engine.background.status()).runningJobId);
    await world.engine.jobs.cancel(running);
    const record = await scheduledJob(world);
    expect(record.status).toBe('cancelled');
    expect(await lockFacts(world)).toBeNull();
  });

  it('waits for the next day when the daily token budget is spent, and says so', async () => {
    world = await createJobWorld({ watch: true });
    await world.engine.ready;
    await world.engine.background.updateSettings({ dailyTokenBudget: 10_000 });
    const today = new Date();
    const pad = (n: number) => String(n).padStart(2, '0');
    const day = `${today.getFullYear()}-${pad(today.getMonth() + 1)}-${pad(today.getDate())}`;
    await fs.mkdir(join(world.dataDir, 'background'), { recursive: true });
    await fs.writeFile(join(world.dataDir, 'background', 'budget.json'), JSON.stringify({ day, spent: 10_000 }));

    await turnOnForProject(world);
    const status = await until('the dream to wait', async () => {
      const current = await world.engine.background.status();
      return current.waiting.length > 0 ? current : null;
    });
    expect(status.waiting).toMatchObject([{ kind: 'dream', trigger: 'schedule', reason: 'budget', label: world.project.cwd }]);
    expect(status.budget).toMatchObject({ day, limit: 10_000, spent: 10_000, exhausted: true });
    const midnight = new Date(today.getFullYear(), today.getMonth(), today.getDate() + 1);
    expect(status.budget.resumesAt).toBe(midnight.toISOString());
    expect(world.fake.requests).toEqual([]);
    expect(await lockFacts(world)).toBeNull();

    // A bigger budget lets it start at once.
    world.fake.enqueue(textTurn('Nothing to do.'));
    await world.engine.background.updateSettings({ dailyTokenBudget: 50_000 });
    expect((await scheduledJob(world)).status).toBe('ready');
    // The scheduler adds a job's tokens to the day's spending once the job's record has settled: a moment after.
    const ledger = join(world.dataDir, 'background', 'budget.json');
    const spent = async () => (JSON.parse(await fs.readFile(ledger, 'utf8')) as { spent: number }).spent;
    await until('the job’s tokens in the day’s spending', async () => (await spent()) !== 10_000);
    expect(await spent()).toBe(10_000 + 1100);
  });

  it('keeps to Claude Code’s schedule after the user had the app turn Claude Code’s own auto-dream off', async () => {
    world = await createJobWorld({ watch: true });
    await fs.writeFile(join(world.home.root, 'settings.json'), '{ "autoDreamEnabled": true }\n');
    await world.engine.ready;
    const status = await world.engine.background.turnOffClaudeCodeAutoDream(world.home.root);
    expect(status.claudeCodeAutoDream[0]).toMatchObject({ autoDreamEnabled: false, turnedOffByApp: { configRoot: world.home.root } });
    world.fake.enqueue(textTurn('Nothing to change.'));
    await turnOnForProject(world);
    expect((await scheduledJob(world)).status).toBe('ready');
  });

  it('leaves a project alone while a live process holds its lock, and never starts without the setting', async () => {
    world = await createJobWorld({ watch: true });
    await world.engine.ready;
    // Off by default: the open gate starts nothing.
    expect((await world.engine.background.status()).settings.reviewedDreams.mode).toBe('off');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await world.engine.jobs.listJobs()).toEqual([]);

    // A live holder (this test's parent process) took the lock a minute ago: even a forced start is refused.
    const held = { body: String(process.ppid), mtime: new Date(Date.now() - 60_000).toISOString() };
    await world.project.lock(held);
    const before = await lockFacts(world);
    await expect(
      world.engine.jobs.startDream({ kind: 'project', ...world.ref }, { trigger: 'schedule', holdConsolidationLock: true }),
    ).rejects.toMatchObject({ code: 'LOCK_HELD' });
    expect(await lockFacts(world)).toEqual(before);
    expect(world.fake.requests).toEqual([]);
  });
});
