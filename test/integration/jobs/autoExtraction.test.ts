import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BackgroundJobScheduler } from '../../../electron/core/jobs/BackgroundJobScheduler';
import { textTurn, toolUseTurn } from '../../helpers/fakeAnthropicServer';
import { assistantChunk, toolUse } from '../../fixtures/transcriptLines';
import { createJobWorld, type JobWorld } from './jobWorld';

async function until<T>(what: string, probe: () => Promise<T | null | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null && value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('automatic extraction replays', () => {
  let world: JobWorld;
  let scheduler: BackgroundJobScheduler;
  afterEach(async () => {
    await scheduler.dispose();
    await world.cleanup();
  });

  async function setUp(): Promise<void> {
    world = await createJobWorld({ watch: true });
    await world.engine.ready;
    // The engine's own scheduler waits half an hour for a session to end; this one, a moment.
    await world.engine.background.dispose();
    const { home, jobs, inbox, catalog, live, writer } = world.engine;
    scheduler = new BackgroundJobScheduler({
      home,
      jobs,
      inbox,
      catalog,
      live,
      writer,
      dataDir: world.dataDir,
      readOnly: false,
      sessionEndIdleMs: 300,
    });
    await scheduler.start();
  }

  it('replays sessions that ended with enough prompts and no extraction, and only those', async () => {
    await setUp();
    const status = await scheduler.updateSettings({ autoExtraction: { enabled: true, minPrompts: 2 } });
    expect(status.settings.autoExtraction).toMatchObject({ enabled: true, minPrompts: 2 });
    world.fake.enqueue(
      toolUseTurn([
        {
          name: 'write_file',
          input: { path: 'project_tracker.md', content: '---\nname: Tracker\ndescription: d\ntype: reference\n---\nThe tracker.\n' },
        },
      ]),
      textTurn('Saved where the incident tracker lives.'),
    );
    const now = new Date();
    const unextracted = await world.project.session({ turns: 3, prompts: ['Our tracker is new', 'Use it', 'Thanks'], mtime: now });
    // Claude Code's extractor ran in this one.
    await world.project.session({
      turns: 3,
      mtime: now,
      extraLines: [JSON.stringify({ type: 'system', subtype: 'memory_saved', writtenPaths: ['a.md'], timestamp: now.toISOString() })],
    });
    // Too short.
    await world.project.session({ turns: 1, mtime: now });
    // The session wrote memory itself.
    await world.project.session({
      turns: 3,
      mtime: now,
      extraLines: [
        assistantChunk({
          messageId: 'msg_memory_write',
          usage: { output: 5 },
          block: toolUse('toolu_mem', 'Write', { file_path: join(world.project.memoryDir, 'x.md'), content: 'x' }),
        }),
      ],
    });

    const job = await until('the replay', async () =>
      (await world.engine.jobs.listJobs()).find((j) => j.trigger === 'auto-extraction' && j.status !== 'running'),
    );
    const record = await world.engine.jobs.getJob(job.id);
    expect(record.status).toBe('ready');
    expect(record.source).toMatchObject({ kind: 'session', sessionId: unextracted.sessionId });
    expect(record.proposals.map((p) => p.path)).toEqual(['project_tracker.md']);
    const inbox = await world.engine.inbox.list();
    expect(inbox).toMatchObject([{ jobId: job.id, kind: 'extraction', trigger: 'auto-extraction' }]);
    // Long enough for the other three to have ended too: none of them is replayed, and nothing else was asked.
    await new Promise((resolve) => setTimeout(resolve, 800));
    const replayed = (await world.engine.jobs.listJobs()).filter((j) => j.trigger === 'auto-extraction');
    expect(replayed.map((j) => (j.source?.kind === 'session' ? j.source.sessionId : null))).toEqual([unextracted.sessionId]);
    expect(world.fake.requests).toHaveLength(2);
    // A session replayed once is remembered across restarts.
    const ledger = await import('node:fs/promises').then((fs) =>
      fs.readFile(join(world.dataDir, 'background', 'extractions.json'), 'utf8'),
    );
    expect(ledger).toContain(unextracted.sessionId);
  });

  it('is off by default: a finished session without extraction starts nothing', async () => {
    await setUp();
    expect((await scheduler.status()).settings.autoExtraction.enabled).toBe(false);
    await world.project.session({ turns: 6, mtime: new Date() });
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(await world.engine.jobs.listJobs()).toEqual([]);
    expect(world.fake.requests).toEqual([]);
  });
});
