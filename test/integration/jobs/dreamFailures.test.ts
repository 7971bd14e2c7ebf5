import { afterEach, describe, expect, it } from 'vitest';
import { JobService } from '../../../electron/core/jobs/JobService';
import { LlmSettingsService } from '../../../electron/core/settings/LlmSettingsService';
import { SessionSecretStore } from '../../../electron/core/settings/secretStore';
import { errorResponse, textTurn, toolUseTurn } from '../../helpers/fakeAnthropicServer';
import { createJobWorld, type JobWorld } from './jobWorld';

const WRITE = toolUseTurn([{ name: 'write_file', input: { path: 'new_fact.md', content: 'A fact.\n' } }]);

describe('a dream when the model call fails or is cancelled', () => {
  let world: JobWorld;
  afterEach(async () => {
    await world.cleanup();
  });

  async function dreamUntilDone(setup: (world: JobWorld) => void, options: { maxRetries?: number } = {}) {
    world = await createJobWorld(options);
    setup(world);
    const memoryBefore = await world.memorySnapshot();
    const outsideBefore = await world.outsideSnapshot();
    const record = await world.finished(await world.jobs.startDream({ kind: 'project', ...world.ref }));
    // Whatever happened, the memory folder (and its absent lock) and everything else are as before.
    expect(await world.memorySnapshot()).toEqual(memoryBefore);
    expect(await world.outsideSnapshot()).toEqual(outsideBefore);
    await world.expectNoKeyLeak(JSON.stringify(record));
    return record;
  }

  it('retries a 429 and then succeeds', async () => {
    const record = await dreamUntilDone(
      (w) => w.fake.enqueue(errorResponse(429, 'slow down', { 'retry-after-ms': '1' }), WRITE, textTurn('Added a fact.')),
      {
        maxRetries: 1,
      },
    );
    expect(record.status).toBe('ready');
    expect(record.proposals.map((p) => p.path)).toEqual(['new_fact.md']);
    expect(world.fake.requests).toHaveLength(3);
    expect(world.fake.requests[1].rawBody).toBe(world.fake.requests[0].rawBody);
  });

  it('fails on a 429 without retries, and on 400 and 500, with the reason', async () => {
    for (const [status, expected] of [
      [429, /Rate limited \(429\)/],
      [400, /The request was refused \(400\)/],
      [500, /The model's server failed \(500\)/],
    ] as const) {
      const record = await dreamUntilDone((w) => w.fake.enqueue(errorResponse(status, `scripted ${status}`)));
      expect(record.status).toBe('failed');
      expect(record.error).toMatch(expected);
      expect(record.proposals).toEqual([]);
      await world.cleanup();
    }
    world = await createJobWorld();
  });

  it('fails when the stream is cut mid-way, and drops what the unfinished dream staged', async () => {
    const record = await dreamUntilDone((w) =>
      w.fake.enqueue(WRITE, {
        kind: 'cut',
        message: toolUseTurn([{ name: 'write_file', input: { path: 'second.md', content: 'x' } }]),
        afterEvents: 3,
      }),
    );
    expect(record.status).toBe('failed');
    expect(record.error).toMatch(/stopped part-way/);
    expect(record.proposals).toEqual([]);
    expect(world.fake.requests).toHaveLength(2);
  });

  it('cancels mid-turn: the request is aborted and nothing is proposed', async () => {
    world = await createJobWorld();
    world.fake.enqueue(WRITE, { kind: 'hang' });
    const memoryBefore = await world.memorySnapshot();
    const started = await world.jobs.startDream({ kind: 'project', ...world.ref });
    await world.fake.waitForRequest(2);
    const cancelled = await world.jobs.cancel(started.id);
    expect(cancelled.status).toBe('cancelled');
    const record = await world.jobs.getJob(started.id);
    expect(record.proposals).toEqual([]);
    expect(record.error).toBeNull();
    expect(record.usage.input).toBe(1000);
    expect(await world.memorySnapshot()).toEqual(memoryBefore);
    await expect(world.jobs.apply(started.id, [])).resolves.toMatchObject({ applied: [], changeSetId: null });
  });

  it('refuses to start without an API key, before calling the model', async () => {
    world = await createJobWorld();
    const noKey = new LlmSettingsService(world.dataDir, new SessionSecretStore(), { apiKey: null, baseUrl: world.fake.url, maxRetries: 0 });
    const jobs = new JobService({ home: world.engine.home, llm: noKey, writer: world.engine.writer, dataDir: world.dataDir });
    await expect(jobs.startDream({ kind: 'project', ...world.ref })).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(world.fake.requests).toHaveLength(0);
  });
});
