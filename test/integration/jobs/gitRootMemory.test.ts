/**
 * Sessions started in a sub-folder of a repository use the repository root's memory folder (Claude Code keys auto
 * memory on the canonical git root): its dream gate counts them, and a dream over it reads their transcripts.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { textTurn, toolUseTurn } from '../../helpers/fakeAnthropicServer';
import { createJobWorld, type JobWorld } from './jobWorld';

describe('a repository root memory shared with its sub-folders', () => {
  let world: JobWorld;
  afterEach(() => world?.cleanup());

  it('counts the sub-folder sessions toward the gate and lets a dream read their transcripts', async () => {
    world = await createJobWorld();
    const root = world.home.workPath('shop');
    await mkdir(join(root, '.git'), { recursive: true });
    const api = world.home.project(join(root, 'services', 'api'));
    for (const day of [7, 8, 9])
      await api.session({ turns: 1, prompts: ['Tune the api pool size'], start: `2026-05-0${day}T09:00:00.000Z` });
    await world.engine.home.refresh();

    const sharing = await world.engine.home.projectsUsingMemoryDir(join(world.home.root, 'projects', world.project.slug, 'memory'));
    expect(sharing.map((project) => project.slug).sort()).toEqual([world.project.slug, api.slug].sort());
    // Six sessions of its own and three started in services/api.
    expect((await world.jobs.dreamGate(world.ref)).sessionsSince).toBe(9);

    world.fake.enqueue(
      toolUseTurn([{ name: 'list_dir', input: { path: '@transcripts' } }]),
      toolUseTurn([{ name: 'grep', input: { pattern: 'pool size', path: '@transcripts' } }]),
      textTurn('Nothing to change.'),
    );
    const started = await world.jobs.startDream({ kind: 'project', ...world.ref });
    const record = await world.finished(started);
    expect(record.status).toBe('ready');
    const toolResults = world.fake.requests.slice(1).map((request) => JSON.stringify((request.body.messages as unknown[]).at(-1)));
    expect(toolResults[0]).toContain(api.slug);
    expect(toolResults[1]).toContain(`@transcripts/${api.slug}/`);
    expect(toolResults[1]).toContain('Tune the api pool size');
  });
});
