import { appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ReviewInboxChange } from '../../../shared/jobs/backgroundJobs';
import { textTurn, toolUseTurn } from '../../helpers/fakeAnthropicServer';
import { createJobWorld, type JobWorld } from './jobWorld';

describe('the review inbox', () => {
  let world: JobWorld;
  afterEach(async () => {
    await world.cleanup();
  });

  it('marks a proposed file stale, and says so, when it changes on disk after the job; such a file is not applied', async () => {
    world = await createJobWorld({ watch: true });
    await world.engine.ready;
    const changes: ReviewInboxChange[] = [];
    world.engine.inbox.onDidChange((change) => changes.push(change));
    world.fake.enqueue(
      toolUseTurn([
        { name: 'edit_file', input: { path: 'feedback_tests.md', old_string: '`make test`', new_string: '`make test-unit`' } },
        { name: 'edit_file', input: { path: 'user_role.md', old_string: 'prefers Go', new_string: 'prefers Go and SQL' } },
      ]),
      textTurn('Two edits.'),
    );
    const record = await world.finished(await world.engine.jobs.startDream({ kind: 'project', ...world.ref }));
    expect(record.trigger).toBe('user');
    await expect
      .poll(() => changes.find((change) => change.arrived))
      .toMatchObject({ count: 1, arrived: { jobId: record.id, trigger: 'user' } });
    expect((await world.engine.inbox.list())[0].files.map((f) => f.stale)).toEqual([false, false]);

    // Someone edits one of the files in an editor: the watcher tells the inbox, which tells its listeners.
    const seen = changes.length;
    await appendFile(join(world.project.memoryDir, 'user_role.md'), 'Also likes Rust.\n');
    await expect
      .poll(() => changes.slice(seen).find((change) => change.arrived === null), { timeout: 10_000 })
      .toEqual({ count: 1, arrived: null });
    expect((await world.engine.inbox.list())[0].files).toEqual([
      { path: 'feedback_tests.md', kind: 'modify', stale: false },
      { path: 'user_role.md', kind: 'modify', stale: true },
    ]);

    const outcome = await world.engine.jobs.apply(record.id, [
      { path: 'feedback_tests.md', decision: 'accept' },
      { path: 'user_role.md', decision: 'accept' },
    ]);
    expect(outcome.applied.map((f) => f.path)).toEqual(['feedback_tests.md']);
    expect(outcome.conflicts.map((f) => f.path)).toEqual(['user_role.md']);
    // The finish event reaches the inbox once the job's summary is masked for display.
    await expect.poll(() => world.engine.inbox.count()).toBe(0);
  });
});
