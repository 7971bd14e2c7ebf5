import { cp, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentSnapshotService } from '../../../electron/core/agents/AgentSnapshotService';
import { HistoryStore } from '../../../electron/core/changes/HistoryStore';
import { HomeService } from '../../../electron/core/home/HomeService';
import type { AgentMemorySummary } from '../../../shared/model/agents';
import { CodedError } from '../../../shared/result';
import { createScenarioHome, type ScenarioHome } from '../../fixtures/scenarioHome';
import { snapshotTree } from '../../fixtures/treeSnapshot';
import { ChangeSetWriter } from '../../../electron/core/changes/changeSetWriter';
import { listAgentMemories } from '../../../electron/core/agents/agentMemoryListing';

const NOW = new Date('2026-05-10T12:00:00.000Z');
// Bytes that a text round trip could change: CRLF, no final newline, non-ASCII, a BOM.
const TRICKY = '\uFEFF# Ünïcödé — 記憶\r\nline two\r\nno final newline';

let home: ScenarioHome;
let alice: string;
let bob: string;
let homeService: HomeService;
let history: HistoryStore;
let service: AgentSnapshotService;

async function agent(projectPath: string, agentType: string, scope = 'project'): Promise<AgentMemorySummary> {
  await homeService.refresh();
  const found = (await listAgentMemories(homeService)).find(
    (a) => a.projectPath === projectPath && a.agentType === agentType && a.scope === scope,
  );
  if (!found) throw new Error(`no agent ${agentType} in ${projectPath}`);
  return found;
}

/** The top-level files of a folder with their bytes (base64); sub-folders are left out. */
async function filesOf(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { withFileTypes: true }))
    if (entry.isFile()) out[entry.name] = (await readFile(join(dir, entry.name))).toString('base64');
  return out;
}

async function rejection(promise: Promise<unknown>): Promise<CodedError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CodedError);
  return error as CodedError;
}

beforeEach(async () => {
  home = await createScenarioHome();
  // Two checkouts of one repository: Alice's, where the snapshot is made, and Bob's, where it is used.
  alice = home.workPath('alice', 'shop');
  bob = home.workPath('bob', 'shop');
  await home.project(alice).session();
  await home.project(bob).session();
  homeService = new HomeService({
    roots: [{ path: home.root, source: 'CLAUDE_CONFIG_DIR' }],
    dataDir: join(home.tmp, 'data'),
    demoHomeSource: null,
    shell: 'cli',
    readOnly: false,
  });
  history = new HistoryStore(join(home.tmp, 'data', 'history'));
  service = new AgentSnapshotService({
    listAgents: () => listAgentMemories(homeService),
    writer: new ChangeSetWriter({ history }),
    now: () => NOW,
  });
});

afterEach(async () => {
  homeService.dispose();
  await home.cleanup();
});

describe('create, then initialise elsewhere', () => {
  it('gives byte-identical files, and both sides end in sync', async () => {
    const aliceDir = await home.agentMemory(
      'project',
      'qa',
      { 'MEMORY.md': '- [Flaky](flaky.md) — cart test\n', 'flaky.md': TRICKY, 'sub/nested.md': 'not carried' },
      alice,
    );
    const created = await service.apply({ ref: { dir: aliceDir }, command: 'create' });
    expect(created.plan.updatedAt).toBe(NOW.toISOString());
    const snapshotDir = join(alice, '.claude', 'agent-memory-snapshots', 'qa');
    expect(await readFile(join(snapshotDir, 'snapshot.json'), 'utf8')).toBe(`{\n  "updatedAt": "${NOW.toISOString()}"\n}\n`);
    expect(created.agent.snapshot).toEqual({
      dir: snapshotDir,
      updatedAt: NOW.toISOString(),
      syncedFrom: NOW.toISOString(),
      action: 'none',
    });

    // Bob pulls the commit: the snapshot folder arrives in his checkout, and he has no qa memory yet.
    await cp(join(alice, '.claude', 'agent-memory-snapshots'), join(bob, '.claude', 'agent-memory-snapshots'), { recursive: true });
    const newcomer = await agent(bob, 'qa');
    expect(newcomer).toMatchObject({ fileCount: 0, snapshot: { action: 'initialize', updatedAt: NOW.toISOString() } });

    const initialised = await service.apply({ ref: { dir: newcomer.dir }, command: 'initialize' });
    expect(initialised.agent.snapshot.action).toBe('none');
    const bobFiles = await filesOf(newcomer.dir);
    const aliceFiles = await filesOf(aliceDir);
    for (const name of ['MEMORY.md', 'flaky.md', '.snapshot-synced.json']) expect(bobFiles[name]).toBe(aliceFiles[name]);
    expect(Object.keys(bobFiles).sort()).toEqual(['.snapshot-synced.json', 'MEMORY.md', 'flaky.md']);
    expect(await readFile(join(newcomer.dir, '.snapshot-synced.json'), 'utf8')).toBe(`{"syncedFrom":"${NOW.toISOString()}"}`);
  });

  it('a plugin agent’s snapshot folder carries its raw type', async () => {
    const dir = await home.agentMemory('project', 'my-plugin:reviewer', { 'MEMORY.md': '# r\n' }, alice);
    await service.apply({ ref: { dir }, command: 'create', agentType: 'my-plugin:reviewer' });
    expect(await readdir(join(alice, '.claude', 'agent-memory-snapshots'))).toEqual(['my-plugin:reviewer']);
    expect((await agent(alice, 'my-plugin:reviewer')).dir).toBe(dir);
    await expect(service.plan({ ref: { dir }, command: 'create', agentType: 'other:type' })).rejects.toThrow(/not the type/);
  });
});

describe('a secret blocks a snapshot', () => {
  it('refuses create, names the file and line, and writes nothing', async () => {
    const dir = await home.agentMemory(
      'project',
      'deployer',
      // Assembled at run time so no scanner mistakes this fake token in the test source for a real one.
      { 'MEMORY.md': '# d\n', 'ci.md': `# CI\n\nPush with ${'ghp_'}wWPw5k4aXcaT4fNP0UcnZwJUVFk6LO0pINUx\n` },
      alice,
    );
    const before = await snapshotTree(home.tmp);
    const plan = await service.plan({ ref: { dir }, command: 'create' });
    expect(plan.operations).toEqual([]);
    expect(plan.refusal).toMatchObject({ code: 'FORBIDDEN', secrets: [{ name: 'ci.md', line: 3, kind: 'github' }] });
    const error = await rejection(service.apply({ ref: { dir }, command: 'create' }));
    expect(error.code).toBe('FORBIDDEN');
    expect(await snapshotTree(home.tmp)).toEqual(before);
  });
});

describe('replace, merge and mark synced', () => {
  let local: string;
  beforeEach(async () => {
    await home.agentSnapshot(alice, 'qa', { 'MEMORY.md': '# team\n', 'shared.md': 'team version\n' }, '2026-05-01T00:00:00.000Z');
    local = await home.agentMemory(
      'project',
      'qa',
      {
        'MEMORY.md': '# mine\n',
        'shared.md': 'my version\n',
        'mine.md': 'only mine\n',
        '.snapshot-synced.json': '{"syncedFrom":"2026-04-01T00:00:00.000Z"}',
      },
      alice,
    );
  });

  it('status says an update is offered', async () => {
    expect((await agent(alice, 'qa')).snapshot).toMatchObject({ action: 'prompt-update', syncedFrom: '2026-04-01T00:00:00.000Z' });
  });

  it('replace stores every local file it overwrites or deletes in history first, as one change set', async () => {
    const result = await service.apply({ ref: { dir: local }, command: 'replace' });
    expect(await readdir(local)).toEqual(['.snapshot-synced.json', 'MEMORY.md', 'shared.md']);
    expect(await readFile(join(local, 'shared.md'), 'utf8')).toBe('team version\n');
    expect(result.agent.snapshot.action).toBe('none');
    const entries = (await history.load()).filter((e) => e.folder === local);
    expect(entries.map((e) => [e.path, e.after === null ? 'deleted' : 'written', e.cause])).toEqual([
      ['mine.md', 'deleted', 'app-edit'],
      ['MEMORY.md', 'written', 'app-edit'],
      ['shared.md', 'written', 'app-edit'],
    ]);
    expect(new Set(entries.map((e) => e.changeSetId)).size).toBe(1);
    const deleted = entries.find((e) => e.path === 'mine.md')!;
    expect((await history.readBlob(deleted.before!)).toString()).toBe('only mine\n');
    const overwritten = entries.find((e) => e.path === 'shared.md')!;
    expect((await history.readBlob(overwritten.before!)).toString()).toBe('my version\n');
  });

  it('merge takes only the chosen files and leaves the synced marker alone', async () => {
    await service.apply({ ref: { dir: local }, command: 'merge', files: ['shared.md'] });
    expect(await readFile(join(local, 'shared.md'), 'utf8')).toBe('team version\n');
    expect(await readFile(join(local, 'MEMORY.md'), 'utf8')).toBe('# mine\n');
    expect(await readFile(join(local, 'mine.md'), 'utf8')).toBe('only mine\n');
    expect((await agent(alice, 'qa')).snapshot.action).toBe('prompt-update');
  });

  it('mark synced only writes the marker', async () => {
    const before = await filesOf(local);
    await service.apply({ ref: { dir: local }, command: 'mark-synced' });
    const after = await filesOf(local);
    expect({ ...after, '.snapshot-synced.json': null }).toEqual({ ...before, '.snapshot-synced.json': null });
    expect((await agent(alice, 'qa')).snapshot).toMatchObject({ syncedFrom: '2026-05-01T00:00:00.000Z', action: 'none' });
  });

  it('initialise is refused while local memory exists', async () => {
    expect((await rejection(service.apply({ ref: { dir: local }, command: 'initialize' }))).code).toBe('CONFLICT');
  });

  it('a stale view is refused: the token changes when either side changes on disk', async () => {
    const { token, entries } = await service.diff({ ref: { dir: local } }.ref);
    expect(entries.map((e) => [e.name, e.state])).toEqual([
      ['MEMORY.md', 'changed'],
      ['mine.md', 'local-only'],
      ['shared.md', 'changed'],
    ]);
    await writeFile(join(alice, '.claude', 'agent-memory-snapshots', 'qa', 'shared.md'), 'pulled a newer version\n');
    const error = await rejection(service.apply({ ref: { dir: local }, command: 'replace' }, token));
    expect(error.code).toBe('CONFLICT');
    expect(await readFile(join(local, 'mine.md'), 'utf8')).toBe('only mine\n');
  });

  it('never writes through a symlink in the memory folder', async () => {
    await mkdir(home.workPath('outside'), { recursive: true });
    await writeFile(home.workPath('outside', 'target.md'), 'outside\n');
    await writeFile(join(alice, '.claude', 'agent-memory-snapshots', 'qa', 'link.md'), 'from the snapshot\n');
    await symlink(home.workPath('outside', 'target.md'), join(local, 'link.md'));
    const plan = await service.plan({ ref: { dir: local }, command: 'replace' });
    expect(plan.refusal?.code).toBe('CONFLICT');
    expect((await rejection(service.apply({ ref: { dir: local }, command: 'replace' }))).code).toBe('CONFLICT');
    expect(await readFile(home.workPath('outside', 'target.md'), 'utf8')).toBe('outside\n');
  });
});

describe('a snapshot folder that is a symlink', () => {
  async function linkedSnapshot(target: string): Promise<string> {
    await mkdir(target, { recursive: true });
    await writeFile(join(target, 'snapshot.json'), '{"updatedAt":"2026-05-01T00:00:00.000Z"}');
    await writeFile(join(target, 'MEMORY.md'), '# elsewhere\n');
    await mkdir(join(bob, '.claude', 'agent-memory-snapshots'), { recursive: true });
    await symlink(target, join(bob, '.claude', 'agent-memory-snapshots', 'qa'));
    return home.agentMemory('project', 'qa', {}, bob);
  }

  it('inside the project is left alone: initialise is refused and no synced marker is written', async () => {
    const dir = await linkedSnapshot(join(bob, 'docs', 'qa-snapshot'));
    const before = await snapshotTree(home.tmp);
    expect((await rejection(service.apply({ ref: { dir }, command: 'initialize' }))).code).toBe('CONFLICT');
    expect(await snapshotTree(home.tmp)).toEqual(before);
  });

  it('leading out of the project is neither read nor written: every action is refused as outside the root', async () => {
    const dir = await linkedSnapshot(home.workPath('elsewhere', 'qa'));
    const before = await snapshotTree(home.tmp);
    expect((await agent(bob, 'qa')).outsideRoot).toEqual(['snapshot']);
    expect((await rejection(service.diff({ dir }))).code).toBe('OUTSIDE_ROOT');
    expect((await rejection(service.apply({ ref: { dir }, command: 'initialize' }))).code).toBe('OUTSIDE_ROOT');
    expect(await snapshotTree(home.tmp)).toEqual(before);
  });
});

describe('refusals', () => {
  it('an unknown folder and user-scope memory are refused', async () => {
    expect((await rejection(service.diff({ dir: home.workPath('nowhere') }))).code).toBe('NOT_FOUND');
    const user = await home.agentMemory('user', 'reviewer', { 'MEMORY.md': '# r\n' });
    expect((await rejection(service.plan({ ref: { dir: user }, command: 'create' }))).code).toBe('INVALID_INPUT');
  });

  it('diff and plan write nothing', async () => {
    const dir = await home.agentMemory('project', 'qa', { 'MEMORY.md': '# q\n' }, alice);
    const before = await snapshotTree(home.tmp);
    await service.diff({ dir });
    await service.plan({ ref: { dir }, command: 'create' });
    expect(await snapshotTree(home.tmp)).toEqual(before);
  });
});

describe('a teammate’s newer snapshot', () => {
  it('is never overwritten unseen: create warns and is refused, the merge takes their files, then create goes through', async () => {
    const aliceDir = await home.agentMemory('project', 'qa', { 'MEMORY.md': '- [Flaky](flaky.md) — v1\n', 'flaky.md': 'v1\n' }, alice);
    await service.apply({ ref: { dir: aliceDir }, command: 'create' });
    // Bob's checkout took Alice's snapshot; Bob pushed an update of it, which Alice pulled but has not taken in.
    const snapshotDir = join(alice, '.claude', 'agent-memory-snapshots', 'qa');
    await writeFile(join(snapshotDir, 'flaky.md'), 'v2 from Bob\n');
    await writeFile(join(snapshotDir, 'snapshot.json'), `${JSON.stringify({ updatedAt: '2026-05-11T09:00:00.000Z' })}\n`);
    // Meanwhile Alice edited her own copy.
    await writeFile(join(aliceDir, 'MEMORY.md'), '- [Flaky](flaky.md) — v1, edited by Alice\n');
    const before = await snapshotTree(snapshotDir);

    const plan = await service.plan({ ref: { dir: aliceDir }, command: 'create' });
    expect(plan.newerSnapshot).toEqual({
      snapshotUpdatedAt: '2026-05-11T09:00:00.000Z',
      syncedFrom: NOW.toISOString(),
      files: ['MEMORY.md', 'flaky.md'],
    });
    const refused = await rejection(service.apply({ ref: { dir: aliceDir }, command: 'create' }));
    expect(refused.code).toBe('CONFLICT');
    expect(refused.message).toContain('creating it now would overwrite MEMORY.md, flaky.md');
    expect(refused.details).toEqual({ newerSnapshot: plan.newerSnapshot });
    expect(await snapshotTree(snapshotDir)).toEqual(before);

    // Alice takes Bob's flaky.md and marks her memory synced: nothing of Bob's is left to lose.
    await service.apply({ ref: { dir: aliceDir }, command: 'merge', files: ['flaky.md'] });
    await service.apply({ ref: { dir: aliceDir }, command: 'mark-synced' });
    const after = await service.plan({ ref: { dir: aliceDir }, command: 'create' });
    expect(after.newerSnapshot).toBeNull();
    await service.apply({ ref: { dir: aliceDir }, command: 'create' });
    expect(await readFile(join(snapshotDir, 'flaky.md'), 'utf8')).toBe('v2 from Bob\n');
    expect(await readFile(join(snapshotDir, 'MEMORY.md'), 'utf8')).toBe('- [Flaky](flaky.md) — v1, edited by Alice\n');
  });

  it('is overwritten when the person says so', async () => {
    const dir = await home.agentMemory('project', 'qa', { 'MEMORY.md': 'mine\n' }, alice);
    await home.agentSnapshot(alice, 'qa', { 'MEMORY.md': 'theirs\n' }, '2026-05-01T00:00:00.000Z');
    expect((await service.plan({ ref: { dir }, command: 'create' })).newerSnapshot).toMatchObject({
      syncedFrom: null,
      files: ['MEMORY.md'],
    });
    await service.apply({ ref: { dir }, command: 'create', overwriteNewer: true });
    expect(await readFile(join(alice, '.claude', 'agent-memory-snapshots', 'qa', 'MEMORY.md'), 'utf8')).toBe('mine\n');
  });
});
