import { spawn } from 'node:child_process';
import { chmod, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../electron/core/engine';
import { contentHash } from '../../../electron/core/fs/contentHash';
import type { MemoryChange } from '../../../electron/core/memory/MemoryReviewService';
import { dispatchRequest } from '../../../shared/contract/dispatch';
import type { MemoryFolderRef } from '../../../shared/memory/memoryFolderRef';
import type { MemoryConflictDetails } from '../../../shared/memory/memoryReview';
import { createStandardScenario, type StandardScenario } from '../../fixtures/standardScenario';
import { createTestEngine } from '../../fixtures/testEngine';

let scenario: StandardScenario;
let engine: Engine;
let folder: MemoryFolderRef;
const changes: MemoryChange[] = [];

async function start(watch: boolean): Promise<void> {
  engine = await createTestEngine(scenario.home, { shell: 'web', watch });
  // Changes are followed once the watcher has scanned the home; the test changes files right away.
  await engine.ready;
  engine.memory.onDidChangeMemory((change) => changes.push(change));
  folder = { kind: 'project', configRoot: scenario.home.root, slug: scenario.webshop.slug };
}

beforeEach(async () => {
  scenario = await createStandardScenario();
  changes.length = 0;
});

afterEach(async () => {
  await engine.dispose();
  await scenario.home.cleanup();
});

const memoryPath = (rel: string) => join(scenario.webshop.memoryDir, rel);
const read = (rel: string) => readFile(memoryPath(rel), 'utf8');

describe('MemoryReviewService: review', () => {
  beforeEach(() => start(false));

  it('reviews a project folder with its team memory and what the model sees', async () => {
    const review = await engine.memory.getReview(folder);
    expect(review.files.map((f) => [f.relativePath, f.scope, f.type])).toEqual([
      ['feedback_no_force_push.md', 'private', 'feedback'],
      ['project_checkout_rewrite.md', 'private', 'project'],
      ['reference/grafana_dashboards.md', 'private', 'reference'],
      ['team/conventions.md', 'team', 'feedback'],
      ['user_prefers_pnpm.md', 'private', 'user'],
    ]);
    expect(review.index?.loaded.content).toBe(scenario.webshop.indexText.trim());
    expect(review.index?.estimatedTokens).toBe(Math.ceil(scenario.webshop.indexText.trim().length / 4));
    expect(review.teamIndex?.relativePath).toBe('team/MEMORY.md');
    expect(review.files.find((f) => f.relativePath === 'user_prefers_pnpm.md')?.originSessionId).toBe(
      scenario.webshop.sessions[0].sessionId,
    );
    expect(review.files.every((f) => f.inScan)).toBe(true);
    expect(review.findings.map((f) => f.code)).toEqual(['stale.age']);
    expect(review.readOnlyReason).toBeNull();
  });

  it('tells how far a review got (files read of all, the findings, done), forwarded to the shells as memoryReviewProgress', async () => {
    const events: unknown[] = [];
    const stop = engine.subscribe((event, payload) => {
      if (event === 'memoryReviewProgress') events.push(payload);
    });
    const review = await engine.memory.getReview(folder);
    stop();
    const total = review.files.length;
    expect(events[0]).toEqual({ folder, step: 'reading', done: 0, total });
    expect(events.slice(-3)).toEqual([
      { folder, step: 'reading', done: total, total },
      { folder, step: 'checking', done: total, total },
      { folder, step: 'done', done: total, total },
    ]);
    const reads = events.filter((e) => (e as { step: string }).step === 'reading') as { done: number }[];
    expect(reads.map((e) => e.done)).toEqual([...reads.map((e) => e.done)].sort((a, b) => a - b));
  });

  it('opens a file with its fields, body and recalled text', async () => {
    const file = await engine.memory.readFile(folder, 'feedback_no_force_push.md');
    expect(file.hash).toBe(contentHash(await read('feedback_no_force_push.md')));
    expect(file.variant).toBe('nested-node-type');
    expect(file.fields).toContainEqual({ key: 'type', nested: true, value: 'feedback' });
    expect(file.body.startsWith('Some remembered fact.')).toBe(true);
    expect(file.recalledText).toContain(`Memory: ${memoryPath('feedback_no_force_push.md')}:`);
    await expect(engine.memory.readFile(folder, '../../x.md')).rejects.toMatchObject({ code: 'OUTSIDE_ROOT' });
  });

  it('accepts an agent folder only when the engine discovered it', async () => {
    const agent = await engine.memory.getReview({ kind: 'agent', dir: scenario.agents.projectQa.dir });
    expect(agent.files.map((f) => f.relativePath)).toEqual(['flaky-tests.md']);
    expect(agent.teamIndex).toBeNull();
    await expect(engine.memory.getReview({ kind: 'agent', dir: scenario.webshop.memoryDir })).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('MemoryReviewService: safe changes with undo', () => {
  beforeEach(() => start(false));

  it('edits a field and the body in place, keeping every other byte; undo restores the bytes', async () => {
    const original = await read('feedback_no_force_push.md');
    const result = await engine.memory.save(folder, {
      relativePath: 'feedback_no_force_push.md',
      baseHash: contentHash(original),
      fields: { description: 'Never force-push shared branches: main, release/*' },
      body: 'Rewritten body.\n',
    });
    const edited = await read('feedback_no_force_push.md');
    expect(edited).toBe(
      original
        .replace('description: Never force-push to shared branches', 'description: "Never force-push shared branches: main, release/*"')
        .replace(/\n---\n[\s\S]*$/, '\n---\nRewritten body.\n'),
    );
    const versions = await engine.history.listVersions(scenario.webshop.memoryDir, 'feedback_no_force_push.md');
    expect(versions.map((v) => [v.before, v.after, v.cause])).toEqual([[contentHash(original), contentHash(edited), 'app-edit']]);
    await engine.memory.undo(folder, result.changeSetId);
    expect(await read('feedback_no_force_push.md')).toBe(original);
  });

  it('refuses a stale base with both versions and leaves the disk alone', async () => {
    const original = await read('user_prefers_pnpm.md');
    await writeFile(memoryPath('user_prefers_pnpm.md'), `${original}Changed by Claude Code.\n`);
    const error = (await engine.memory
      .save(folder, { relativePath: 'user_prefers_pnpm.md', baseHash: contentHash(original), body: 'mine\n' })
      .then(
        () => null,
        (e: unknown) => e,
      )) as { code: string; details: MemoryConflictDetails };
    expect(error.code).toBe('CONFLICT');
    expect(error.details.currentText).toBe(`${original}Changed by Claude Code.\n`);
    expect(await read('user_prefers_pnpm.md')).toBe(`${original}Changed by Claude Code.\n`);
  });

  it('creates from the template with its pointer, in private and team scope', async () => {
    const created = await engine.memory.create(folder, {
      scope: 'team',
      fileName: 'feedback_small_prs.md',
      name: 'Small PRs',
      description: 'Keep pull requests under 400 lines',
      type: 'feedback',
      body: 'Split big changes.',
    });
    expect(created.relativePath).toBe('team/feedback_small_prs.md');
    expect(await read('team/feedback_small_prs.md')).toBe(
      '---\nname: Small PRs\ndescription: Keep pull requests under 400 lines\ntype: feedback\n---\nSplit big changes.\n\n**Why:** \n\n**How to apply:** \n',
    );
    expect(await read('team/MEMORY.md')).toBe(
      '- [Team conventions](conventions.md) — branch prefixes\n- [Small PRs](feedback_small_prs.md) — Keep pull requests under 400 lines\n',
    );
    expect(changes.map((c) => [c.relativePath, c.event, c.byApp])).toEqual([
      ['team/feedback_small_prs.md', 'add', true],
      ['team/MEMORY.md', 'change', true],
    ]);
    await expect(
      engine.memory.create(folder, { scope: 'private', fileName: 'MEMORY.md', name: 'x', description: 'y', type: 'user', body: '' }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT' });
  });

  it('renames a file (mode kept) and its pointer follows; undo puts both back', async () => {
    const index = await read('MEMORY.md');
    const original = await read('user_prefers_pnpm.md');
    await chmod(memoryPath('user_prefers_pnpm.md'), 0o600);
    const result = await engine.memory.rename(folder, {
      from: 'user_prefers_pnpm.md',
      to: 'user/pnpm.md',
      baseHash: contentHash(original),
    });
    expect(await read('user/pnpm.md')).toBe(original);
    expect((await stat(memoryPath('user/pnpm.md'))).mode & 0o777).toBe(0o600);
    expect(await read('MEMORY.md')).toBe(index.replace('](user_prefers_pnpm.md)', '](user/pnpm.md)'));
    await expect(read('user_prefers_pnpm.md')).rejects.toThrow();
    await engine.memory.undo(folder, result.changeSetId);
    expect(await read('user_prefers_pnpm.md')).toBe(original);
    expect((await stat(memoryPath('user_prefers_pnpm.md'))).mode & 0o777).toBe(0o600);
    expect(await read('MEMORY.md')).toBe(index);
    expect(await readdir(memoryPath('user'))).toEqual([]);
  });

  it('prunes a file with its pointer, keeps both in history, and undo restores them byte for byte', async () => {
    const index = await read('MEMORY.md');
    const original = await read('project_checkout_rewrite.md');
    const pruned = await engine.memory.prune(folder, { relativePath: 'project_checkout_rewrite.md', baseHash: contentHash(original) });
    await expect(read('project_checkout_rewrite.md')).rejects.toThrow();
    expect(await read('MEMORY.md')).toBe(
      index.replace('- [Checkout rewrite](project_checkout_rewrite.md) — payment API v3 by 2026-06-01\n', ''),
    );
    expect((await engine.history.readBlob(contentHash(original))).toString()).toBe(original);
    const undone = await engine.memory.undo(folder, pruned.changeSetId);
    expect(undone.relativePath).toBe('project_checkout_rewrite.md');
    expect(await read('project_checkout_rewrite.md')).toBe(original);
    expect(await read('MEMORY.md')).toBe(index);
  });

  it('refuses to undo over a file that changed since', async () => {
    const original = await read('user_prefers_pnpm.md');
    const saved = await engine.memory.save(folder, { relativePath: 'user_prefers_pnpm.md', baseHash: contentHash(original), body: 'v2\n' });
    await writeFile(memoryPath('user_prefers_pnpm.md'), 'v3 by someone else\n');
    await expect(engine.memory.undo(folder, saved.changeSetId)).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await read('user_prefers_pnpm.md')).toBe('v3 by someone else\n');
  });

  it('refuses every change while a live dream holds the lock, and the read-only shell refuses them at the boundary', async () => {
    const holder = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      await writeFile(memoryPath('.consolidate-lock'), String(holder.pid));
      const original = await read('user_prefers_pnpm.md');
      await expect(
        engine.memory.save(folder, { relativePath: 'user_prefers_pnpm.md', baseHash: contentHash(original), body: 'x\n' }),
      ).rejects.toMatchObject({
        code: 'LOCK_HELD',
      });
      expect((await engine.memory.getReview(folder)).readOnlyReason).toContain(`process ${holder.pid}`);
    } finally {
      holder.kill();
    }
    const refused = await dispatchRequest(
      engine.handlers,
      'pruneMemoryFile',
      { folder, relativePath: 'a.md', baseHash: contentHash('x') },
      { readOnly: true },
    );
    expect(refused).toMatchObject({ ok: false, error: { code: 'READ_ONLY' } });
    const invalid = await dispatchRequest(
      engine.handlers,
      'readMemoryFile',
      { folder, relativePath: '../../etc/passwd.md' },
      { readOnly: false },
    );
    expect(invalid).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });
});

describe('MemoryReviewService: live', () => {
  beforeEach(() => start(true));

  it('reports a change Claude Code makes to a memory file', async () => {
    await writeFile(memoryPath('user_prefers_pnpm.md'), 'Edited by Claude Code\n');
    await expect
      .poll(() => changes.find((c) => c.relativePath === 'user_prefers_pnpm.md'), { timeout: 5000 })
      .toEqual({
        folder,
        relativePath: 'user_prefers_pnpm.md',
        event: 'change',
        byApp: false,
      });
  });
});
