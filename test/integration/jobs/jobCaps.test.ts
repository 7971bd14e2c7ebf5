import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_JOB_LIMITS } from '../../../electron/core/jobs/JobService';
import { textTurn, toolUseTurn } from '../../helpers/fakeAnthropicServer';
import { createJobWorld, type JobWorld } from './jobWorld';

const write = (path: string) => toolUseTurn([{ name: 'write_file', input: { path, content: `${path}\n` } }]);

describe('the caps on a job', () => {
  let world: JobWorld;
  afterEach(async () => {
    await world.cleanup();
  });

  it('stop a model that keeps going at the turn cap, keeping what it staged for review', async () => {
    world = await createJobWorld({ limits: { ...DEFAULT_JOB_LIMITS, dream: { ...DEFAULT_JOB_LIMITS.dream, maxTurns: 2 } } });
    world.fake.enqueue(write('one.md'), write('two.md'), textTurn('never asked for'));
    const record = await world.finished(await world.jobs.startDream({ kind: 'project', ...world.ref }));
    expect(record).toMatchObject({ status: 'ready', stopReason: 'turn-cap', turns: 2 });
    expect(record.proposals.map((p) => p.path)).toEqual(['one.md', 'two.md']);
    expect(world.fake.requests).toHaveLength(2);
  });

  it('stop before a call would pass the token cap', async () => {
    world = await createJobWorld({ limits: { ...DEFAULT_JOB_LIMITS, dream: { ...DEFAULT_JOB_LIMITS.dream, maxTokens: 5000 } } });
    const big = { input_tokens: 3000, output_tokens: 200 };
    world.fake.enqueue(
      toolUseTurn([{ name: 'write_file', input: { path: 'one.md', content: 'one\n' } }], { usage: big }),
      toolUseTurn([{ name: 'write_file', input: { path: 'two.md', content: 'two\n' } }], { usage: big }),
    );
    const record = await world.finished(await world.jobs.startDream({ kind: 'project', ...world.ref }));
    expect(record).toMatchObject({ status: 'ready', stopReason: 'token-cap', usage: { input: 3000, output: 200 } });
    expect(world.fake.requests).toHaveLength(1);
  });

  it('stop before a call would pass the spending cap from the settings', async () => {
    world = await createJobWorld();
    await world.engine.llmSettings.update({ maxCostUsdPerJob: 0.01 });
    const record = await world.finished(await world.jobs.startDream({ kind: 'project', ...world.ref }));
    expect(record).toMatchObject({ status: 'ready', stopReason: 'cost-cap', turns: 0, proposals: [] });
    expect(world.fake.requests).toHaveLength(0);
  });
});
