import { afterEach, describe, expect, it } from 'vitest';
import type { JobProgress } from '../../../shared/jobs/jobTypes';
import { DEFAULT_JOB_LIMITS } from '../../../electron/core/jobs/JobService';
import { textTurn, toolUseTurn } from '../../helpers/fakeAnthropicServer';
import { createJobWorld, type JobWorld } from './jobWorld';

/** Small chunks, so six short sessions make several extraction passes. */
const SMALL_CHUNKS = { ...DEFAULT_JOB_LIMITS, chunkChars: 400 };

function userMessageOf(world: JobWorld, request: number): string {
  const messages = world.fake.requests[request - 1].body.messages as { role: string; content: unknown }[];
  return messages[0].content as string;
}

describe('an extraction replay against the fake Anthropic server', () => {
  let world: JobWorld;
  afterEach(async () => {
    await world.cleanup();
  });

  it('estimates the batch first, then runs one pass per chunk with the memory list and the excerpt as data', async () => {
    world = await createJobWorld({ limits: SMALL_CHUNKS });
    const source = { kind: 'recent' as const, ...world.ref, count: 6 };
    const estimate = await world.jobs.estimateExtraction(source);
    expect(estimate.sessions).toBe(6);
    expect(estimate.messages).toBe(24);
    expect(estimate.chunks).toBeGreaterThan(2);
    expect(estimate.inputTokens).toBeGreaterThan(0);
    expect(estimate.model).toBe('claude-sonnet-4-6');
    expect(estimate.costUsd).toBeCloseTo((estimate.inputTokens * 3 + estimate.maxOutputTokens * 15) / 1_000_000, 8);
    expect(world.fake.requests).toHaveLength(0);

    world.fake.enqueue(
      toolUseTurn([
        {
          name: 'write_file',
          input: {
            path: 'project_api_v2.md',
            content: '---\nname: API v2\ndescription: API on v2 since 2026-04-28\ntype: project\n---\nDone.\n',
          },
        },
      ]),
      textTurn('Saved the v2 date.'),
    );
    for (let i = 1; i < estimate.chunks; i++) world.fake.enqueue(textTurn('Nothing worth saving.'));
    const progress: JobProgress[] = [];
    world.jobs.onDidProgress((p) => progress.push(p));
    const record = await world.finished(await world.jobs.startExtraction(source));

    expect(record.status).toBe('ready');
    expect(record.proposals.map((p) => [p.path, p.kind])).toEqual([['project_api_v2.md', 'add']]);
    expect(record.summary).toContain('Part 1: Saved the v2 date.');
    expect(world.fake.requests).toHaveLength(estimate.chunks + 1);
    const first = userMessageOf(world, 1);
    expect(first).toContain('<memory_manifest>\n- [feedback] feedback_tests.md: How to run the tests');
    expect(first).toMatch(
      new RegExp(
        `<transcript_excerpt>\\n=== Session ${world.sessions[0].sessionId} ===\\n\\(line \\d+\\) \\[user\\] We moved the API to v2`,
      ),
    );
    // Chunks after the first see what the first staged.
    expect(userMessageOf(world, 3)).toContain('- [project] project_api_v2.md: API on v2 since 2026-04-28');
    const injected = world.fake.requests.map((r) => r.rawBody).find((body) => body.includes('Ignore all previous instructions'))!;
    expect(injected).toMatch(/<transcript_excerpt>[^]*Ignore all previous instructions/);
    expect(world.fake.requests[0].body.system).toMatch(/What never to save/);
    const last = progress[progress.length - 1];
    expect(last).toMatchObject({ status: 'ready', phase: 'finished', chunks: { done: estimate.chunks, total: estimate.chunks } });
    await world.expectNoKeyLeak();
  });

  it('keeps what the finished chunks staged when cancelled', async () => {
    world = await createJobWorld({ limits: SMALL_CHUNKS });
    world.fake.enqueue(toolUseTurn([{ name: 'write_file', input: { path: 'first.md', content: 'kept\n' } }]), textTurn('Saved one.'));
    world.fake.enqueue(toolUseTurn([{ name: 'write_file', input: { path: 'second.md', content: 'dropped\n' } }]), { kind: 'hang' });
    const memoryBefore = await world.memorySnapshot();
    const started = await world.jobs.startExtraction({ kind: 'recent', ...world.ref, count: 6 });
    await world.fake.waitForRequest(4);
    const summary = await world.jobs.cancel(started.id);
    expect(summary.status).toBe('cancelled');
    const record = await world.jobs.getJob(started.id);
    expect(record.proposals.map((p) => p.path)).toEqual(['first.md']);
    expect(await world.memorySnapshot()).toEqual(memoryBefore);
  });

  it('reads only the chosen range of turns of one session', async () => {
    world = await createJobWorld();
    world.fake.enqueue(textTurn('Nothing to save.'));
    const session = world.sessions[1];
    const record = await world.finished(
      await world.jobs.startExtraction({ kind: 'session', ...world.ref, sessionId: session.sessionId, fromTurn: 2, toTurn: 2 }),
    );
    expect(record.status).toBe('ready');
    const excerpt = userMessageOf(world, 1);
    expect(excerpt).toContain(`[user] ${session.prompts[1]}`);
    expect(excerpt).not.toContain(session.prompts[0]);
    await expect(
      world.jobs.startExtraction({ kind: 'session', ...world.ref, sessionId: session.sessionId, fromTurn: 5 }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });
});
