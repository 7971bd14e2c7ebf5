import { readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../electron/core/engine';
import { contentHash } from '../../../electron/core/fs/contentHash';
import { dispatchRequest } from '../../../shared/contract/dispatch';
import type { MemoryFix, MemoryFixPlan } from '../../../shared/memory/fixes/memoryFix';
import type { MemoryFolderRef } from '../../../shared/memory/memoryFolderRef';
import type { MemoryConflictDetails } from '../../../shared/memory/memoryReview';
import type { CodedError } from '../../../shared/result';
import { createMessyMemory, FAKE_AWS_KEY_ID, FAKE_GITHUB_TOKEN, type MessyMemory } from '../../fixtures/messyMemory';
import { createScenarioHome, topicFile, type ScenarioHome } from '../../fixtures/scenarioHome';
import { createTestEngine } from '../../fixtures/testEngine';

let home: ScenarioHome;
let messy: MessyMemory;
let engine: Engine;
let folder: MemoryFolderRef;

beforeEach(async () => {
  home = await createScenarioHome({ prefix: 'ccmem-fixes-' });
  messy = await createMessyMemory(home);
  engine = await createTestEngine(home, { shell: 'web' });
  folder = { kind: 'project', configRoot: home.root, slug: messy.project.slug };
});

afterEach(async () => {
  await engine.dispose();
  await home.cleanup();
});

const path = (rel: string) => join(messy.memoryDir, rel);
const read = (rel: string) => readFile(path(rel), 'utf8');
const exists = (rel: string) =>
  stat(path(rel)).then(
    () => true,
    () => false,
  );

async function applyPlan(plan: MemoryFixPlan) {
  return engine.memoryFixes.apply(folder, { fixes: plan.fixes, bases: plan.bases });
}

async function rejection(promise: Promise<unknown>): Promise<CodedError> {
  return (await promise.then(
    () => {
      throw new Error('expected a refusal');
    },
    (error: unknown) => error,
  )) as CodedError;
}

describe('memory fixes through the engine', () => {
  it('finds what the fixture promises', async () => {
    const review = await engine.memory.getReview(folder);
    const codes = new Set(review.findings.map((f) => f.code));
    for (const code of [
      'index.over-lines',
      'index.long-line',
      'index.dangling-link',
      'index.orphan',
      'duplicate.near',
      'secret.detected',
      'frontmatter.missing',
      'frontmatter.missing-description',
      'frontmatter.unknown-type',
      'stale.relative-date',
      'scan.beyond-cap',
    ])
      expect(codes, code).toContain(code);
    expect(review.files.filter((f) => !f.inScan).map((f) => f.relativePath)).toEqual(messy.beyondCap);
  });

  it('plans a fix with its diff, applies exactly that, and undoes it', async () => {
    const before = await read(messy.files.noDescription);
    const plan = await engine.memoryFixes.plan(folder, [{ kind: 'fill-description', file: messy.files.noDescription }]);
    expect(plan.fixes).toEqual([
      { kind: 'fill-description', file: messy.files.noDescription, value: 'Staging resets every night at two.' },
    ]);
    expect(plan.refusal).toBeNull();
    expect(plan.summary).toBe(`Filled in the description of ${messy.files.noDescription}`);
    expect(plan.files).toEqual([
      {
        path: messy.files.noDescription,
        change: 'modify',
        baseHash: contentHash(before),
        before,
        after: before.replace('type: reference\n', 'type: reference\ndescription: Staging resets every night at two.\n'),
        shown: true,
        linesAdded: 1,
        linesRemoved: 0,
      },
    ]);
    // Nothing is written by a plan.
    expect(await read(messy.files.noDescription)).toBe(before);

    const applied = await applyPlan(plan);
    expect(await read(messy.files.noDescription)).toBe(plan.files[0].after);
    expect(applied).toMatchObject({ relativePath: messy.files.noDescription, description: plan.summary });
    const review = await engine.memory.getReview(folder);
    expect(review.findings.some((f) => f.file === messy.files.noDescription && f.code === 'frontmatter.missing-description')).toBe(false);

    await engine.memory.undo(folder, applied.changeSetId);
    expect(await read(messy.files.noDescription)).toBe(before);
  });

  it('refuses with both versions when a file changed between the plan and the apply, and writes nothing', async () => {
    const index = await read('MEMORY.md');
    const plan = await engine.memoryFixes.plan(folder, [
      {
        kind: 'retarget-pointer',
        index: 'MEMORY.md',
        line: messy.lines.dangling,
        target: messy.files.danglingTarget,
        to: messy.files.danglingMeant,
      },
    ]);
    expect(plan.files.map((f) => f.path)).toEqual(['MEMORY.md']);
    const theirs = `${index}- [Added by Claude Code](added.md) — meanwhile\n`;
    await writeFile(path('MEMORY.md'), theirs);
    const error = await rejection(applyPlan(plan));
    expect(error.code).toBe('CONFLICT');
    const details = error.details as MemoryConflictDetails;
    expect(details).toMatchObject({
      relativePath: 'MEMORY.md',
      baseHash: contentHash(index),
      currentHash: contentHash(theirs),
      currentText: theirs,
    });
    expect(await read('MEMORY.md')).toBe(theirs);
    // Planned again on what is there now, it keeps their line.
    const again = await engine.memoryFixes.plan(folder, plan.fixes);
    await applyPlan(again);
    expect(await read('MEMORY.md')).toBe(theirs.replace('](deploy_notes.md)', '](archive/deploy_notes.md)'));
  });

  it('prunes every never-recalled file and its pointer as one change set, undone by one undo', async () => {
    const index = await read('MEMORY.md');
    const texts = await Promise.all(messy.beyondCap.map((file) => read(file)));
    const plan = await engine.memoryFixes.plan(
      folder,
      messy.beyondCap.map((file): MemoryFix => ({ kind: 'prune', file })),
    );
    expect(plan.summary).toBe(`Pruned ${messy.beyondCap.length} files`);
    expect(plan.files.map((f) => [f.path, f.change]).sort()).toEqual(
      [['MEMORY.md', 'modify'], ...messy.beyondCap.map((file) => [file, 'delete'])].sort(),
    );
    const applied = await applyPlan(plan);
    for (const file of messy.beyondCap) expect(await exists(file)).toBe(false);
    const pruned = await read('MEMORY.md');
    for (const file of messy.beyondCap) expect(pruned).not.toContain(`](${file})`);
    const entries = await engine.writer.history.changeSet(applied.changeSetId);
    expect(entries).toHaveLength(messy.beyondCap.length + 1);

    await engine.memory.undo(folder, applied.changeSetId);
    expect(await read('MEMORY.md')).toBe(index);
    expect(await Promise.all(messy.beyondCap.map((file) => read(file)))).toEqual(texts);
  });

  it('masks a secret in team memory and lets it through the team guard; a half-cleaned team file is refused', async () => {
    const before = await read(messy.files.teamSecret);
    const plan = await engine.memoryFixes.plan(folder, [{ kind: 'mask-secret', file: messy.files.teamSecret, line: messy.secretLine }]);
    expect(plan.refusal).toBeNull();
    // The shown texts never carry the secret.
    expect(JSON.stringify(plan)).not.toContain(FAKE_AWS_KEY_ID);
    expect(plan.files[0].before).toContain('Key id: ••••••••••••••••••••');
    expect(plan.files[0].after).toContain('Key id: [REDACTED]');
    await applyPlan(plan);
    expect(await read(messy.files.teamSecret)).toBe(before.replace(FAKE_AWS_KEY_ID, '[REDACTED]'));

    await writeFile(path('team/two.md'), `a ${FAKE_AWS_KEY_ID}\nb ${FAKE_GITHUB_TOKEN}\n`);
    const half = await engine.memoryFixes.plan(folder, [{ kind: 'remove-secret-line', file: 'team/two.md', line: 1 }]);
    expect(half.refusal).toMatch(/team\/two\.md would put what looks like a secret into team memory/);
    expect((await rejection(applyPlan(half))).code).toBe('FORBIDDEN');
    const both = await engine.memoryFixes.plan(folder, [
      { kind: 'remove-secret-line', file: 'team/two.md', line: 1 },
      { kind: 'mask-secret', file: 'team/two.md', line: 2 },
    ]);
    await applyPlan(both);
    expect(await read('team/two.md')).toBe('b [REDACTED]\n');
  });

  it('cures an index: the orphan’s pointer, the long line, and the overflow moved into a topic file, each undoable', async () => {
    const index = await read('MEMORY.md');
    const orphan = await engine.memoryFixes.plan(folder, [{ kind: 'add-pointer', file: messy.files.orphan }]);
    const long = await engine.memoryFixes.plan(folder, [{ kind: 'shorten-line', index: 'MEMORY.md', line: messy.lines.long }]);
    expect(orphan.files[0].after?.endsWith('- [Orphan topic](orphan_topic.md) — Nobody points at this one\n')).toBe(true);
    const shortened = long.files[0].after?.split('\n')[messy.lines.long - 1] ?? '';
    expect(shortened.length).toBeLessThanOrEqual(150);
    expect(shortened.startsWith('- [Checkout](reference_checkout.md) — everything about the checkout flow,')).toBe(true);

    const overflow = await engine.memoryFixes.plan(folder, [{ kind: 'move-overflow', index: 'MEMORY.md' }]);
    expect(overflow.fixes).toEqual([{ kind: 'move-overflow', index: 'MEMORY.md', into: 'memory_overflow.md' }]);
    expect(overflow.files.map((f) => [f.path, f.change])).toEqual([
      ['MEMORY.md', 'modify'],
      ['memory_overflow.md', 'add'],
    ]);
    const moved = await applyPlan(overflow);
    const review = await engine.memory.getReview(folder);
    expect(review.findings.some((f) => f.code === 'index.over-lines')).toBe(false);
    expect(review.index?.loaded.wasLineTruncated).toBe(false);
    await engine.memory.undo(folder, moved.changeSetId);
    expect(await read('MEMORY.md')).toBe(index);
    expect(await exists('memory_overflow.md')).toBe(false);
  });

  it('merges near-duplicates as one reviewed change: kept file, dropped file, index', async () => {
    const plan = await engine.memoryFixes.plan(folder, [
      { kind: 'merge-duplicates', keep: messy.files.duplicateKeep, drop: messy.files.duplicateDrop },
    ]);
    expect(plan.files.map((f) => [f.path, f.change]).sort()).toEqual([
      ['MEMORY.md', 'modify'],
      [messy.files.duplicateDrop, 'delete'],
      [messy.files.duplicateKeep, 'modify'],
    ]);
    await applyPlan(plan);
    expect(await read(messy.files.duplicateKeep)).toContain('\n\n- the refund test needs the payment sandbox running\n');
    expect(await exists(messy.files.duplicateDrop)).toBe(false);
    expect(await read('MEMORY.md')).not.toContain(messy.files.duplicateDrop);
  });

  it('writes relative dates as the file’s own date', async () => {
    const plan = await engine.memoryFixes.plan(folder, [
      { kind: 'absolute-date', file: messy.files.relativeDate, line: messy.relativeDateLine },
    ]);
    const mtime = (await stat(path(messy.files.relativeDate))).mtimeMs;
    const local = new Date(mtime);
    const date = `${local.getFullYear()}-${String(local.getMonth() + 1).padStart(2, '0')}-${String(local.getDate()).padStart(2, '0')}`;
    expect(plan.fixes[0]).toMatchObject({ date });
    await applyPlan(plan);
    expect(await read(messy.files.relativeDate)).toContain(
      date === '2026-05-13' ? 'We ship the new checkout Thursday 2026-05-14.' : 'We ship the new checkout Thursday',
    );
  });

  it('takes fixes at the boundary: the plan reads, the apply mutates, bad input is refused', async () => {
    const request = { folder, fixes: [{ kind: 'add-pointer', file: messy.files.orphan }] };
    expect(await dispatchRequest(engine.handlers, 'planMemoryFix', request, { readOnly: true })).toMatchObject({ ok: true });
    const refused = await dispatchRequest(
      engine.handlers,
      'applyMemoryFix',
      { ...request, bases: [{ path: 'MEMORY.md', hash: contentHash(await read('MEMORY.md')) }] },
      { readOnly: true },
    );
    expect(refused).toMatchObject({ ok: false, error: { code: 'READ_ONLY' } });
    const outside = await dispatchRequest(
      engine.handlers,
      'planMemoryFix',
      { folder, fixes: [{ kind: 'prune', file: '../../../etc/passwd.md' }] },
      { readOnly: false },
    );
    expect(outside).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    const notIndex = await dispatchRequest(
      engine.handlers,
      'planMemoryFix',
      { folder, fixes: [{ kind: 'trim-overflow', index: 'note_001.md' }] },
      { readOnly: false },
    );
    expect(notIndex).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });

  it('refuses a frontmatter it cannot patch safely, and a change to a file the plan did not show', async () => {
    await writeFile(path('unclosed.md'), '---\nname: x\nno end\n');
    const unclosed = await engine.memoryFixes.plan(folder, [{ kind: 'fill-description', file: 'unclosed.md', value: 'd' }]);
    expect(unclosed.files).toEqual([]);
    expect(unclosed.outcomes[0]).toMatchObject({
      applied: false,
      note: 'The frontmatter of unclosed.md cannot be changed safely; edit it by hand',
    });
    const plan = await engine.memoryFixes.plan(folder, [{ kind: 'prune', file: messy.files.orphan }]);
    const error = await rejection(
      engine.memoryFixes.apply(folder, { fixes: [{ kind: 'prune', file: messy.files.bare }], bases: plan.bases }),
    );
    expect(error.code).toBe('CONFLICT');
    expect(await exists(messy.files.bare)).toBe(true);
  });
});

describe('agent memory fixes', () => {
  it('cures an agent’s memory the same way, inside its own folder', async () => {
    const dir = await home.agentMemory(
      'project',
      'qa',
      { 'MEMORY.md': '# QA\n', 'flaky.md': topicFile({ variant: 'flat', name: 'Flaky', description: 'flaky suites', type: 'project' }) },
      messy.project.cwd,
    );
    const agent: MemoryFolderRef = { kind: 'agent', dir };
    const plan = await engine.memoryFixes.plan(agent, [{ kind: 'add-pointer', file: 'flaky.md' }]);
    await engine.memoryFixes.apply(agent, { fixes: plan.fixes, bases: plan.bases });
    expect(await readFile(join(dir, 'MEMORY.md'), 'utf8')).toBe('# QA\n- [Flaky](flaky.md) — flaky suites\n');
    expect((await readdir(dir)).sort()).toEqual(['MEMORY.md', 'flaky.md']);
  });
});
