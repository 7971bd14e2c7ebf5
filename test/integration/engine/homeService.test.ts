import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HomeService } from '../../../electron/core/home/HomeService';
import type { HomeSnapshot, ProjectSummary } from '../../../shared/model/home';
import { createStandardScenario, DEAD_PID, type StandardScenario } from '../../fixtures/scenarioHome';
import { snapshotTree, type TreeSnapshot } from '../../fixtures/treeSnapshot';
import { listSessions } from '../../../electron/core/transcripts/sessionListing';
import { listMemoryFiles } from '../../../electron/core/memory/memoryFolderListing';
import { listAgentMemories } from '../../../electron/core/agents/agentMemoryListing';

let scenario: StandardScenario;
let service: HomeService;
let home: HomeSnapshot;
let before: TreeSnapshot;
let localDeployerDir: string;
let snapshotOnlyDir: string;

function project(slug: string): ProjectSummary {
  const found = home.projects.find((p) => p.slug === slug);
  if (!found) throw new Error(`no project ${slug}`);
  return found;
}

beforeAll(async () => {
  scenario = await createStandardScenario();
  // Extra agent scopes for listAgentMemories: a local-scope agent and a project agent that only has a snapshot.
  localDeployerDir = await scenario.home.agentMemory('local', 'deployer', { 'MEMORY.md': '# deployer\n' }, scenario.webshop.path);
  snapshotOnlyDir = await scenario.home.agentSnapshot(scenario.webshop.path, 'planner', { 'MEMORY.md': '# seed\n' });
  before = await snapshotTree(scenario.home.tmp);
  service = new HomeService({
    roots: [{ path: scenario.home.root, source: 'CLAUDE_CONFIG_DIR' }],
    dataDir: join(scenario.home.tmp, 'never-created-data-dir'),
    demoHomeSource: null,
    shell: 'cli',
    readOnly: true,
  });
  home = await service.getHome();
});

afterAll(async () => {
  service?.dispose();
  await scenario?.home.cleanup();
});

describe('HomeService on the standard scenario', () => {
  it('describes the home', () => {
    expect(home.roots).toEqual([{ path: scenario.home.root, exists: true, source: 'CLAUDE_CONFIG_DIR', warnings: [] }]);
    expect(home).toMatchObject({ empty: false, demo: false, readOnly: true, shell: 'cli', warnings: [] });
    expect(home.projects).toHaveLength(scenario.projectCount);
  });

  it('orders projects by last activity, newest first', () => {
    expect(home.projects.map((p) => p.slug)).toEqual([
      scenario.webshop.slug,
      scenario.monorepo.memorySlug,
      scenario.monorepo.sessionSlug,
      scenario.windows.slug,
    ]);
  });

  it('webshop: real path from transcripts, 3 sessions, 5 memory files (MEMORY.md files excluded), index', () => {
    expect(project(scenario.webshop.slug)).toEqual({
      configRoot: scenario.home.root,
      slug: scenario.webshop.slug,
      path: scenario.webshop.path,
      pathSource: 'transcript-cwd',
      displayName: scenario.webshop.path,
      sessionCount: 3,
      memoryDir: scenario.webshop.memoryDir,
      memoryDirExists: true,
      memoryDirSource: 'default',
      memoryOwner: null,
      memorySharedWith: [],
      memoryFileCount: 5,
      hasMemoryIndex: true,
      lastActivity: '2026-05-04T12:30:00.000Z',
      warnings: [],
    });
  });

  it('monorepo: the memory-only git-root slug resolves by git-root-match', () => {
    expect(project(scenario.monorepo.memorySlug)).toMatchObject({
      path: scenario.monorepo.repoPath,
      pathSource: 'git-root-match',
      sessionCount: 0,
      memoryDirExists: true,
      memoryFileCount: 1,
      hasMemoryIndex: true,
      lastActivity: '2026-04-21T09:00:00.000Z',
      memoryOwner: null,
      memorySharedWith: [scenario.monorepo.sessionSlug],
      warnings: [],
    });
  });

  it("monorepo: the sub-folder slug has the sessions and uses the git root's memory (as Claude Code does)", () => {
    expect(project(scenario.monorepo.sessionSlug)).toMatchObject({
      path: scenario.monorepo.apiPath,
      pathSource: 'transcript-cwd',
      sessionCount: 2,
      memoryDir: project(scenario.monorepo.memorySlug).memoryDir,
      memoryDirSource: 'default',
      memoryOwner: scenario.monorepo.memorySlug,
      memorySharedWith: [],
      memoryDirExists: true,
      memoryFileCount: 1,
      hasMemoryIndex: true,
      // The shared memory was written after its last session.
      lastActivity: '2026-04-21T09:00:00.000Z',
    });
  });

  it('windows: keeps the backslash cwd as the path even though it does not exist here', () => {
    expect(scenario.windows.slug).toBe('C--Users-dev-tool');
    expect(project('C--Users-dev-tool')).toMatchObject({
      path: 'C:\\Users\\dev\\tool',
      pathSource: 'transcript-cwd',
      displayName: 'C:\\Users\\dev\\tool',
      sessionCount: 1,
      memoryDir: join(scenario.home.root, 'projects', 'C--Users-dev-tool', 'memory'),
      memoryDirExists: false,
    });
  });

  it('listSessions: newest first, with titles from every source and the envelope fields', async () => {
    const sessions = await listSessions(service, { configRoot: scenario.home.root, slug: scenario.webshop.slug });
    const [custom, ai, first] = scenario.webshop.sessions;
    expect(sessions.map((s) => [s.sessionId, s.title, s.titleSource])).toEqual([
      [first.sessionId, 'Explain how the product search index is built', 'first-prompt'],
      [ai.sessionId, 'Fix flaky cart total test', 'ai-title'],
      [custom.sessionId, 'Checkout rewrite', 'custom-title'],
    ]);
    for (const [session, facts] of [
      [sessions[0], first],
      [sessions[1], ai],
      [sessions[2], custom],
    ] as const) {
      expect(session).toMatchObject({
        configRoot: scenario.home.root,
        slug: scenario.webshop.slug,
        file: facts.file,
        cwd: scenario.webshop.path,
        firstTimestamp: facts.firstTimestamp,
        lastTimestamp: facts.lastTimestamp,
        gitBranch: facts.gitBranch,
        version: facts.version,
        bytes: facts.bytes,
        warnings: [],
      });
    }
    expect(sessions[2].gitBranch).toBe('feat/checkout');
    expect(sessions[0].version).toBe('2.1.136');
  });

  it('listSessions on the monorepo and windows projects', async () => {
    const mono = await listSessions(service, { configRoot: scenario.home.root, slug: scenario.monorepo.sessionSlug });
    expect(mono.map((s) => [s.title, s.titleSource])).toEqual([
      ['API healthcheck endpoint', 'ai-title'],
      ['Use a token bucket per client', 'last-prompt'],
    ]);
    expect(await listSessions(service, { configRoot: scenario.home.root, slug: scenario.monorepo.memorySlug })).toEqual([]);
    const win = await listSessions(service, { configRoot: scenario.home.root, slug: scenario.windows.slug });
    expect(win.map((s) => [s.title, s.cwd, s.gitBranch])).toEqual([['Port the tool to PowerShell 7', 'C:\\Users\\dev\\tool', 'dev']]);
  });

  it('an unknown project is a NOT_FOUND error', async () => {
    await expect(listSessions(service, { configRoot: scenario.home.root, slug: 'nope' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(listMemoryFiles(service, { configRoot: '/elsewhere', slug: scenario.webshop.slug })).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });

  it('listMemoryFiles: index text, every topic file with its frontmatter facts, the lock', async () => {
    const listing = await listMemoryFiles(service, { configRoot: scenario.home.root, slug: scenario.webshop.slug });
    expect(listing).toMatchObject({
      memoryDir: scenario.webshop.memoryDir,
      exists: true,
      indexText: scenario.webshop.indexText,
      warnings: [],
    });
    expect(listing.files.map((f) => f.relativePath)).toEqual(scenario.webshop.topicFiles);
    for (const file of listing.files) {
      const facts = scenario.webshop.topics[file.relativePath as keyof typeof scenario.webshop.topics];
      expect(file).toMatchObject({
        absolutePath: join(scenario.webshop.memoryDir, file.relativePath),
        variant: facts.variant,
        name: facts.name,
        description: facts.description,
        type: facts.type,
        rawType: null,
        originSessionId: facts.originSessionId,
        scope: facts.scope,
        warnings: [],
      });
    }
    expect(listing.files.find((f) => f.relativePath === 'user_prefers_pnpm.md')?.mtime).toBe('2026-05-02T09:00:00.000Z');
    expect(listing.lock).toEqual({
      exists: true,
      lastConsolidatedAt: scenario.webshop.lock.mtime,
      holderPid: DEAD_PID,
      holderAlive: false,
    });
  });

  it('listMemoryFiles on a project without memory', async () => {
    expect(await listMemoryFiles(service, { configRoot: scenario.home.root, slug: scenario.windows.slug })).toEqual({
      memoryDir: join(scenario.home.root, 'projects', scenario.windows.slug, 'memory'),
      exists: false,
      indexText: null,
      files: [],
      lock: { exists: false, lastConsolidatedAt: null, holderPid: null, holderAlive: null },
      warnings: [],
    });
  });

  it('listAgentMemories: user, project and local scopes, plus a snapshot-only agent with fileCount 0', async () => {
    const agents = await listAgentMemories(service);
    const rows = agents.map((a) => [a.scope, a.agentType, a.dir, a.projectPath, a.fileCount, a.hasIndex, a.snapshot.dir]);
    expect(rows).toEqual([
      ['user', 'code-reviewer', scenario.agents.userCodeReviewer.dir, null, 2, true, null],
      [
        'project',
        'planner',
        join(scenario.webshop.path, '.claude', 'agent-memory', 'planner'),
        scenario.webshop.path,
        0,
        false,
        snapshotOnlyDir,
      ],
      ['project', 'qa', scenario.agents.projectQa.dir, scenario.webshop.path, 2, true, null],
      ['local', 'deployer', localDeployerDir, scenario.webshop.path, 1, true, null],
    ]);
    expect(agents.every((a) => a.warnings.length === 0)).toBe(true);
  });

  it('wrote nothing anywhere: the whole temp tree (config root and project folders) is unchanged', async () => {
    expect(await snapshotTree(scenario.home.tmp)).toEqual(before);
  });
});

describe('HomeService caching and refresh', () => {
  it('serves the cached discovery until refresh(), which re-reads and notifies listeners', async () => {
    const s = await createStandardScenario();
    const svc = new HomeService({
      roots: [{ path: s.home.root, source: 'default' }],
      dataDir: join(s.home.tmp, 'data'),
      demoHomeSource: null,
      shell: 'web',
      readOnly: false,
    });
    try {
      const first = await svc.getHome();
      const webshop = s.home.project(s.webshop.path);
      await webshop.session({ titleKind: 'ai-title', title: 'A brand new session', start: '2026-06-01T00:00:00.000Z' });
      expect((await svc.getHome()).projects.find((p) => p.slug === s.webshop.slug)?.sessionCount).toBe(3);
      const seen: number[] = [];
      const unsubscribe = svc.onDidChangeHome((snapshot) =>
        seen.push(snapshot.projects.find((p) => p.slug === s.webshop.slug)?.sessionCount ?? -1),
      );
      const refreshed = await svc.refresh();
      expect(refreshed.projects.find((p) => p.slug === s.webshop.slug)?.sessionCount).toBe(4);
      expect(refreshed.projects[0].lastActivity).toBe('2026-06-01T00:00:38.020Z');
      expect(seen).toEqual([4]);
      unsubscribe();
      await svc.refresh();
      expect(seen).toEqual([4]);
      expect(first.shell).toBe('web');
      const sessions = await listSessions(svc, { configRoot: s.home.root, slug: s.webshop.slug });
      expect(sessions[0].title).toBe('A brand new session');
    } finally {
      svc.dispose();
      await s.home.cleanup();
    }
  });

  it('a missing config root gives an empty home, not an error', async () => {
    const svc = new HomeService({
      roots: [{ path: '/nonexistent/ccmem/.claude', source: 'default' }],
      dataDir: '/nonexistent/data',
      demoHomeSource: null,
      shell: 'cli',
      readOnly: true,
    });
    const snapshot = await svc.getHome();
    expect(snapshot).toMatchObject({ empty: true, projects: [], warnings: [] });
    expect(snapshot.roots).toEqual([{ path: '/nonexistent/ccmem/.claude', exists: false, source: 'default', warnings: [] }]);
    expect(await listAgentMemories(svc)).toEqual([]);
  });
});
