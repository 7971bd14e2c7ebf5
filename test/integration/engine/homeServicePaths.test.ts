import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HomeService } from '../../../electron/core/home/HomeService';
import { MAX_SANITIZED_LENGTH, sanitizePathPrefix } from '../../../shared/claude/sanitizePath';
import type { HomeSnapshot, ProjectSummary } from '../../../shared/model/home';
import { createScenarioHome, topicFile, type ScenarioHome } from '../../fixtures/scenarioHome';
import { snapshotTree, type TreeSnapshot } from '../../fixtures/treeSnapshot';

function serviceFor(root: string): HomeService {
  return new HomeService({
    roots: [{ path: root, source: 'CLAUDE_CONFIG_DIR' }],
    dataDir: '/nonexistent/ccmem-data',
    demoHomeSource: null,
    shell: 'cli',
    readOnly: true,
  });
}

function bySlug(home: HomeSnapshot, slug: string): ProjectSummary {
  const found = home.projects.find((p) => p.slug === slug);
  if (!found) throw new Error(`no project ${slug} among ${home.projects.map((p) => p.slug).join(', ')}`);
  return found;
}

describe('project paths', () => {
  let home: ScenarioHome;
  let snapshot: HomeSnapshot;
  let before: TreeSnapshot;
  const facts: Record<string, string> = {};

  beforeAll(async () => {
    home = await createScenarioHome();

    // sessions-index.json: the only session has no cwd (metadata only), the index names the path.
    const indexed = home.project('/srv/indexed/app', { createDir: false });
    await indexed.session({ titleKind: 'none' });
    await indexed.sessionsIndex('/srv/indexed/app');
    facts.indexed = indexed.slug;

    // A transcript cwd beats the sessions index.
    const both = home.project(home.workPath('both'));
    await both.session({ titleKind: 'ai-title' });
    await both.sessionsIndex('/stale/path/from/index');
    facts.both = both.slug;

    // unknown: nothing tells the path; the display name is a readable guess from the slug.
    const ghost = home.project('/home/ghost/project', { createDir: false });
    await ghost.session({ titleKind: 'none' });
    facts.ghost = ghost.slug;
    const winGhost = home.project('E:\\games\\mod', { createDir: false });
    await winGhost.memoryIndex('- [x](x.md)\n');
    facts.winGhost = winGhost.slug;

    // Most common cwd: 2 sessions in A (older), 1 in B (newest) → A.
    const common = home.project(home.workPath('common-a'), { slug: 'shared-slug' });
    await common.session({ cwd: home.workPath('common-a'), start: '2026-01-01T00:00:00.000Z' });
    await common.session({ cwd: home.workPath('common-a'), start: '2026-01-02T00:00:00.000Z' });
    await common.session({ cwd: home.workPath('common-b'), start: '2026-01-03T00:00:00.000Z' });
    // Tie 1:1 → the cwd of the newest session.
    const tie = home.project(home.workPath('tie-a'), { slug: 'tie-slug' });
    await tie.session({ cwd: home.workPath('tie-a'), start: '2026-01-01T00:00:00.000Z' });
    await tie.session({ cwd: home.workPath('tie-b'), start: '2026-01-05T00:00:00.000Z' });

    // Long paths (> 200 sanitized chars): sessions under a Node-hash slug, memory under a Bun-like-hash slug of the repo root.
    const longRepo = home.workPath(...Array.from({ length: 9 }, (_, i) => `a-rather-long-folder-name-${i}`), 'repo');
    facts.longRepo = longRepo;
    expect(sanitizePathPrefix(longRepo).length).toBeGreaterThan(MAX_SANITIZED_LENGTH);
    const longSub = home.project(join(longRepo, 'packages', 'web'));
    // Every ancestor sharing the 200-char prefix matches the slug too; the git root is the one with `.git`.
    await mkdir(join(longRepo, '.git'), { recursive: true });
    await longSub.session({ titleKind: 'ai-title', title: 'Long path session' });
    facts.longSub = longSub.slug;
    const bunSlug = `${sanitizePathPrefix(longRepo).slice(0, MAX_SANITIZED_LENGTH)}-2k9xq1v7m3bz`;
    const longMemory = home.project(longRepo, { slug: bunSlug });
    await longMemory.memory('long_memory.md', topicFile({ variant: 'flat', name: 'L', description: 'long', type: 'project' }));
    facts.bunSlug = bunSlug;

    before = await snapshotTree(home.tmp);
    snapshot = await serviceFor(home.root).getHome();
  });
  afterAll(async () => {
    await home.cleanup();
  });

  it('sessions-index.json gives the path when no transcript has a cwd', () => {
    expect(bySlug(snapshot, facts.indexed)).toMatchObject({
      path: '/srv/indexed/app',
      pathSource: 'sessions-index',
      sessionCount: 1,
      warnings: [],
    });
  });

  it('a transcript cwd beats a stale sessions index', () => {
    expect(bySlug(snapshot, facts.both)).toMatchObject({ path: home.workPath('both'), pathSource: 'transcript-cwd' });
  });

  it('unknown paths get a readable display name and no path', () => {
    expect(bySlug(snapshot, facts.ghost)).toMatchObject({
      path: null,
      pathSource: 'unknown',
      displayName: '/home/ghost/project',
      sessionCount: 1,
    });
    expect(bySlug(snapshot, facts.winGhost)).toMatchObject({
      slug: 'E--games-mod',
      path: null,
      pathSource: 'unknown',
      displayName: 'E:\\games\\mod',
      sessionCount: 0,
      hasMemoryIndex: true,
      memoryFileCount: 0,
    });
  });

  it('picks the most common first cwd, and the newest on a tie', () => {
    expect(bySlug(snapshot, 'shared-slug')).toMatchObject({
      path: home.workPath('common-a'),
      pathSource: 'transcript-cwd',
      sessionCount: 3,
    });
    expect(bySlug(snapshot, 'tie-slug')).toMatchObject({ path: home.workPath('tie-b'), pathSource: 'transcript-cwd', sessionCount: 2 });
  });

  it('a long (> 200 chars) sub-folder slug with the Node hash keeps its transcript path', () => {
    expect(facts.longSub.length).toBeGreaterThan(MAX_SANITIZED_LENGTH + 1);
    expect(bySlug(snapshot, facts.longSub)).toMatchObject({
      path: join(facts.longRepo, 'packages', 'web'),
      pathSource: 'transcript-cwd',
      sessionCount: 1,
    });
  });

  it('a long memory-only slug with a foreign (Bun) hash resolves to the repo root by prefix git-root-match', () => {
    expect(bySlug(snapshot, facts.bunSlug)).toMatchObject({
      path: facts.longRepo,
      pathSource: 'git-root-match',
      sessionCount: 0,
      memoryDirExists: true,
      memoryFileCount: 1,
    });
  });

  it('nothing was written', async () => {
    expect(await snapshotTree(home.tmp)).toEqual(before);
  });
});

describe('autoMemoryDirectory', () => {
  let home: ScenarioHome;
  afterAll(async () => {
    await home?.cleanup();
  });

  it('user settings move every project to the configured folder; local settings beat them; committed settings warn', async () => {
    home = await createScenarioHome();
    const sharedMemory = join(home.tmp, 'shared-memory');
    await mkdir(join(sharedMemory, 'sub'), { recursive: true });
    await home.userSettings({ autoMemoryDirectory: sharedMemory });
    const plain = home.project(home.workPath('plain'));
    await plain.session();
    const localProject = home.project(home.workPath('with-local'));
    await localProject.session();
    const localMemory = join(localProject.cwd, '.claude', 'memory');
    await home.localSettings(localProject.cwd, { autoMemoryDirectory: localMemory });
    const committedProject = home.project(home.workPath('with-committed'));
    await committedProject.session();
    const committedPath = await home.projectSettings(committedProject.cwd, { autoMemoryDirectory: '/tmp/evil' });
    // Memory files in both places.
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(sharedMemory, 'MEMORY.md'), '- [a](a.md)\n');
    await writeFile(join(sharedMemory, 'a.md'), topicFile({ variant: 'flat', name: 'a', description: 'a', type: 'user' }));
    await writeFile(join(sharedMemory, 'sub', 'b.md'), topicFile({ variant: 'nested', name: 'b', description: 'b', type: 'project' }));
    await mkdir(localMemory, { recursive: true });
    await writeFile(join(localMemory, 'only.md'), topicFile({ variant: 'flat', name: 'o', description: 'o', type: 'feedback' }));

    const snapshot = await serviceFor(home.root).getHome();
    expect(bySlug(snapshot, plain.slug)).toMatchObject({
      memoryDir: sharedMemory,
      memoryDirSource: 'user-settings',
      memoryDirExists: true,
      memoryFileCount: 2,
      hasMemoryIndex: true,
      warnings: [],
    });
    expect(bySlug(snapshot, localProject.slug)).toMatchObject({
      memoryDir: localMemory,
      memoryDirSource: 'local-settings',
      memoryFileCount: 1,
      hasMemoryIndex: false,
      warnings: [],
    });
    const committed = bySlug(snapshot, committedProject.slug);
    expect(committed).toMatchObject({ memoryDir: sharedMemory, memoryDirSource: 'user-settings' });
    expect(committed.warnings).toEqual([expect.objectContaining({ code: 'settings-ignored', path: committedPath })]);
    expect(snapshot.warnings).toEqual([]);
  });

  it('an invalid user value is visible on the config root and ignored', async () => {
    const other = await createScenarioHome();
    try {
      const settingsPath = await other.userSettings({ autoMemoryDirectory: 'relative/memory' });
      const p = other.project(other.workPath('x'));
      await p.session();
      const snapshot = await serviceFor(other.root).getHome();
      expect(snapshot.warnings).toEqual([expect.objectContaining({ code: 'settings-invalid-path', path: settingsPath })]);
      expect(bySlug(snapshot, p.slug)).toMatchObject({ memoryDir: p.memoryDir, memoryDirSource: 'default' });
    } finally {
      await other.cleanup();
    }
  });
});
