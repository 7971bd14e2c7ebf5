import { readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDreamScenario, simulateDream as runDream, type DreamScenario } from './dreamSimulation';
import { openHistory, type OpenHistory } from './historyFixtures';

let scenario: DreamScenario;
let opened: OpenHistory;
let names: readonly string[];

async function folderBytes(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const name of (await readdir(scenario.project.memoryDir)).sort()) {
    if (name.endsWith('.md')) out.set(name, (await readFile(join(scenario.project.memoryDir, name))).toString('base64'));
  }
  return out;
}

const simulateDream = (options: { improved: boolean }) => runDream(scenario, options);

beforeEach(async () => {
  scenario = await createDreamScenario();
  names = scenario.names;
  opened = openHistory(scenario.home);
  await opened.history.recordNow();
});

afterEach(async () => {
  await opened.close();
  await scenario.home.cleanup();
});

describe('a dream found after the fact', () => {
  it('is one dream change set: 20 files merged, 5 deleted, the index rewritten; reverting it restores every byte', async () => {
    const before = await folderBytes();
    const takenAt = await simulateDream({ improved: false });
    await opened.history.recordNow();
    const { changeSets } = await opened.history.listChangeSets({});
    expect(changeSets).toHaveLength(1);
    const [dream] = changeSets;
    expect(dream.cause).toBe('dream');
    expect(dream.totals).toMatchObject({ added: 0, modified: 21, deleted: 5 });
    expect(dream.evidence?.kind).toBe('dream');
    // The lock's mtime as the file system keeps it (sub-millisecond, rounded either way by different readers).
    const lockTakenAt = dream.evidence?.kind === 'dream' ? dream.evidence.lockTakenAt : null;
    expect(Math.abs(Date.parse(lockTakenAt ?? '') - takenAt)).toBeLessThanOrEqual(1);

    const lockBefore = await stat(join(scenario.project.memoryDir, '.consolidate-lock'));
    const result = await opened.history.revert(dream.id);
    expect(result.applied).toBe(true);
    expect(await folderBytes()).toEqual(before);
    // The revert is an app edit, the lock was never touched.
    const lockAfter = await stat(join(scenario.project.memoryDir, '.consolidate-lock'));
    expect(lockAfter.mtimeMs).toBe(lockBefore.mtimeMs);
    expect((await opened.history.getChangeSet(result.changeSetId as string)).cause).toBe('app-edit');
    const [item] = await opened.history.listDreams(null);
    expect(item.review?.decision).toBe('reverted');
  });

  it('uses the "Improved" memory_saved entry as evidence, lists the dream for review, and keeps it', async () => {
    await simulateDream({ improved: true });
    await opened.history.recordNow();
    const [item] = await opened.history.listDreams({ configRoot: scenario.home.root, slug: scenario.project.slug });
    expect(item.changeSet.cause).toBe('dream');
    expect(item.changeSet.sessionId).toBe(scenario.session.sessionId);
    expect(item.changeSet.evidence).toMatchObject({ kind: 'dream', improved: { sessionId: scenario.session.sessionId } });
    expect(item.deleted).toEqual(names.slice(20));
    // The one session of the project was written to since the lock's previous time.
    expect(item.sessionsSince).toBe(1);
    expect(item.review).toBeNull();
    expect(await opened.history.unreviewedDreamCounts()).toEqual([
      { configRoot: scenario.home.root, slug: scenario.project.slug, count: 1 },
    ]);

    await opened.history.keepDream(item.changeSet.id);
    expect((await opened.history.listDreams(null))[0].review?.decision).toBe('kept');
    expect(await opened.history.unreviewedDreamCounts()).toEqual([]);
  });

  it('refuses to revert over a newer change, and reverts one file alone', async () => {
    const original = await readFile(join(scenario.project.memoryDir, names[3]));
    await simulateDream({ improved: false });
    await opened.history.recordNow();
    const [dream] = (await opened.history.listChangeSets({})).changeSets;
    // Someone edits a dreamed file afterwards: going back would overwrite that.
    const edited = join(scenario.project.memoryDir, names[0]);
    await writeFile(edited, 'A newer edit.\n');
    const plan = await opened.history.planRevert(dream.id);
    expect(plan.conflicts.map((c) => c.path)).toEqual([names[0]]);
    expect(plan.conflicts[0].reason).toMatch(/changed on disk since|changed again/);
    const untouched = await folderBytes();
    await expect(opened.history.revert(dream.id)).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await folderBytes()).toEqual(untouched);

    const single = await opened.history.revert(dream.id, [names[3]]);
    expect(single.plan.writes.map((w) => w.path)).toEqual([names[3]]);
    expect((await readFile(join(scenario.project.memoryDir, names[3]))).equals(original)).toBe(true);
    expect(await readFile(edited, 'utf8')).toBe('A newer edit.\n');
  });

  it('prints the diff of a dry run and writes nothing', async () => {
    await simulateDream({ improved: false });
    await opened.history.recordNow();
    const [dream] = (await opened.history.listChangeSets({})).changeSets;
    const untouched = await folderBytes();
    const plan = await opened.history.planRevert(dream.id, [names[24]]);
    expect(plan.writes).toEqual([expect.objectContaining({ path: names[24], expected: null })]);
    expect(plan.patch).toContain(`+++ b/${names[24]}`);
    expect(await folderBytes()).toEqual(untouched);
  });
});
