/**
 * Conformance over real Claude Code files (../shared/fixtures/claude-real, see its SOURCES.md).
 * The fixtures are never copied into the repository: temp config roots symlink to them at test time.
 * Every expected value below was checked by reading the fixture files by hand (or with a one-off script).
 */
import { existsSync, readFileSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, symlink } from 'node:fs/promises';
import path, { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HomeService } from '../../electron/core/home/HomeService';
import { parseFrontmatter } from '../../electron/core/memory/frontmatter';
import { summarizeMemoryFile } from '../../electron/core/memory/memoryFileSummary';
import { parseWindowLines } from '../../electron/core/jsonl/jsonlWindow';
import { readSessionQuickInfo } from '../../electron/core/layout/sessionQuickInfo';
import { sanitizePathPrefix, slugMatchesPath } from '../../shared/claude/sanitizePath';
import { isSessionFileName, sessionIdFromFileName } from '../../shared/claude/sessionFiles';
import type { HomeSnapshot, ProjectSummary } from '../../shared/model/home';
import type { SessionSummary } from '../../shared/model/session';
import { createScenarioHome, type ScenarioHome } from '../fixtures/scenarioHome';
import { snapshotTree, type TreeSnapshot } from '../fixtures/treeSnapshot';
import { listSessions } from '../../electron/core/transcripts/sessionListing';
import { listMemoryFiles } from '../../electron/core/memory/memoryFolderListing';
import { listAgentMemories } from '../../electron/core/agents/agentMemoryListing';

const FIXTURES = path.resolve(__dirname, '../../../shared/fixtures/claude-real');
const present = existsSync(join(FIXTURES, 'SOURCES.md'));
if (!present) console.warn(`[conformance] SKIPPED: real Claude Code fixtures not found at ${FIXTURES} (the ../shared checkout is absent).`);

const EDUARDO = join(FIXTURES, 'Eduardodmb__ClaudeHome/projects.bak-20260511-072525');
const EIJI = join(FIXTURES, 'Eiji1202__dotclaude/projects');
const HALIBIT = join(FIXTURES, '4thehalibit__omarchy-backup/.claude/projects');
const KIMUSON = join(FIXTURES, 'd-kimuson__claude-code-viewer/mock-global-claude-dir/projects');
const BGA_MEMORY = join(FIXTURES, 'AnotherSava__bga-assistant/.claude/memory');
const DEATHWATCH_MEMORY = join(FIXTURES, 'Aleslammer__deathwatch_foundryvtt/.claude/memory');
const UNREALFROG_AGENTS = join(FIXTURES, 'Randroids-Dojo__UnrealFrog/.claude/agent-memory');

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(full)));
    else out.push(full);
  }
  return out.sort();
}

/** A config root whose `projects/<slug>` entries are symlinks to the fixture's project folders. */
async function rootLinkingProjects(home: ScenarioHome, name: string, projectsDir: string): Promise<string> {
  const root = join(home.tmp, name);
  await mkdir(join(root, 'projects'), { recursive: true });
  for (const slug of await readdir(projectsDir)) await symlink(join(projectsDir, slug), join(root, 'projects', slug));
  return root;
}

(present ? describe : describe.skip)('conformance: real Claude Code files', () => {
  let home: ScenarioHome;
  let fixturesBefore: TreeSnapshot;
  let service: HomeService;
  let snapshot: HomeSnapshot;
  const roots: Record<string, string> = {};
  const work: Record<string, string> = {};

  function project(root: string, slug: string): ProjectSummary {
    const found = snapshot.projects.find((p) => p.configRoot === roots[root] && p.slug === slug);
    if (!found) throw new Error(`no project ${slug} in ${root}`);
    return found;
  }
  async function sessions(root: string, slug: string): Promise<Map<string, SessionSummary>> {
    const list = await listSessions(service, { configRoot: roots[root], slug });
    return new Map(list.map((s) => [s.sessionId.slice(0, 8), s]));
  }

  beforeAll(async () => {
    fixturesBefore = await snapshotTree(FIXTURES);
    home = await createScenarioHome({ prefix: 'ccmem-conformance-' });
    roots.eduardo = await rootLinkingProjects(home, 'eduardo', EDUARDO);
    roots.eiji = await rootLinkingProjects(home, 'eiji', EIJI);
    roots.halibit = await rootLinkingProjects(home, 'halibit', HALIBIT);
    roots.kimuson = await rootLinkingProjects(home, 'kimuson', KIMUSON);

    // Repositories that commit their memory via autoMemoryDirectory (settings.local.json) and a project-scope
    // agent memory: real project folders in the temp dir whose .claude/ entries link to the fixtures.
    roots.repos = home.root;
    work.bga = home.workPath('bga-assistant');
    work.deathwatch = home.workPath('deathwatch_foundryvtt');
    work.unrealfrog = home.workPath('UnrealFrog');
    for (const [key, memory] of [
      ['bga', BGA_MEMORY],
      ['deathwatch', DEATHWATCH_MEMORY],
    ] as const) {
      const p = home.project(work[key]);
      await p.session({ titleKind: 'ai-title', title: `Work on ${key}` });
      await mkdir(join(work[key], '.claude'), { recursive: true });
      await symlink(memory, join(work[key], '.claude', 'memory'));
      await home.localSettings(work[key], { autoMemoryDirectory: join(work[key], '.claude', 'memory') });
    }
    const frog = home.project(work.unrealfrog);
    await frog.session({ titleKind: 'ai-title', title: 'Frog QA' });
    // A copy in the temp project: agent memory that leads out of its project through a symlink is never read.
    await cp(UNREALFROG_AGENTS, join(work.unrealfrog, '.claude', 'agent-memory'), { recursive: true });

    service = new HomeService({
      roots: ['eduardo', 'eiji', 'halibit', 'kimuson', 'repos'].map((key) => ({ path: roots[key], source: 'CLAUDE_CONFIG_DIR' as const })),
      dataDir: join(home.tmp, 'data-never-written'),
      demoHomeSource: null,
      shell: 'cli',
      readOnly: true,
    });
    snapshot = await service.getHome();
  });

  afterAll(async () => {
    service?.dispose();
    await home?.cleanup();
  });

  it('every real file parses without a crash: JSONL lines, meta.json, markdown frontmatter', async () => {
    const files = (await listFiles(FIXTURES)).filter((file) => file !== join(FIXTURES, 'SOURCES.md'));
    expect(files.length).toBe(38);
    let jsonl = 0;
    let md = 0;
    let meta = 0;
    for (const file of files) {
      const bytes = await readFile(file);
      if (file.endsWith('.jsonl')) {
        jsonl++;
        const parsed = parseWindowLines(bytes, true, true);
        const lines = bytes
          .toString('utf8')
          .split('\n')
          .filter((l) => l.trim() !== '').length;
        expect({
          file,
          records: parsed.records.length,
          invalidJson: parsed.invalidJson,
          invalidUtf8: parsed.invalidUtf8,
          nul: parsed.hasNul,
        }).toEqual({
          file,
          records: lines,
          invalidJson: 0,
          invalidUtf8: 0,
          nul: false,
        });
        const info = await readSessionQuickInfo(file, path.basename(file, '.jsonl'));
        expect({ file, warnings: info.warnings }).toEqual({ file, warnings: [] });
      } else if (file.endsWith('.meta.json')) {
        meta++;
        expect(typeof (JSON.parse(bytes.toString('utf8')) as { agentType?: unknown }).agentType).toBe('string');
      } else if (file.endsWith('.md')) {
        md++;
        const parsed = parseFrontmatter(bytes.toString('utf8'));
        expect({ file, error: parsed.error }).toEqual({ file, error: null });
      }
    }
    expect({ jsonl, md, meta }).toEqual({ jsonl: 18, md: 14, meta: 6 });
  });

  it('lists every project of every root, with the real paths', () => {
    const rows = snapshot.projects
      .filter((p) => p.configRoot !== roots.repos)
      .map((p) => [p.slug, p.path, p.pathSource, p.sessionCount, p.memoryFileCount, p.hasMemoryIndex])
      .sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(rows).toEqual(
      [
        // Only an orphan sub-agent folder (its session file is gone): a session with no main transcript, whose
        // sub-agent's cwd is the project's path.
        ['-home-vwestberg', '/home/vwestberg', 'transcript-cwd', 1, 0, false],
        ['-home-vwestberg-Claude', '/home/vwestberg/Claude', 'transcript-cwd', 2, 1, true],
        ['-Users-tachikawa-eiji', '/Users/tachikawa_eiji', 'transcript-cwd', 1, 0, false],
        // A file-history-only session and the orphan folder of a >4 MiB session (its compaction helper agent).
        ['-Users-tachikawa-eiji-EijiCode-UTAGE3-0-utage3', '/Users/tachikawa_eiji/EijiCode/UTAGE3.0/utage3', 'transcript-cwd', 2, 0, false],
        ['D--OneDrive-16---Obsidian-01-Claude-Home', 'D:\\OneDrive\\16 - Obsidian\\01_Claude_Home', 'transcript-cwd', 1, 0, false],
        ['sample-project', '/path/to/Demo', 'transcript-cwd', 3, 0, false],
        ['X--03-ACG-Custom-Addons', 'X:\\03_ACG\\Custom_Addons', 'transcript-cwd', 1, 0, false],
        ['X--03-ACG-Odoo-Docs', 'X:\\03_ACG\\Odoo_Docs', 'transcript-cwd', 1, 3, true],
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    );
    expect(snapshot.warnings).toEqual([]);
    expect(snapshot.projects.every((p) => p.warnings.length === 0)).toBe(true);
    expect(snapshot.roots.map((r) => r.exists)).toEqual([true, true, true, true, true]);
  });

  it('the slugs are what sanitizePath makes of the real cwds (claude-code-state.md §5)', () => {
    expect(sanitizePathPrefix('X:\\03_ACG\\Custom_Addons')).toBe('X--03-ACG-Custom-Addons');
    expect(slugMatchesPath('D--OneDrive-16---Obsidian-01-Claude-Home', 'D:\\OneDrive\\16 - Obsidian\\01_Claude_Home')).toBe(true);
    expect(slugMatchesPath('-Users-tachikawa-eiji-EijiCode-UTAGE3-0-utage3', '/Users/tachikawa_eiji/EijiCode/UTAGE3.0/utage3')).toBe(true);
    // Anonymised by the repository owner: the folder name is not the slug of the cwd.
    expect(slugMatchesPath('sample-project', '/path/to/Demo')).toBe(false);
  });

  it('a project whose only readable cwd is in an orphan sub-agent folder takes its path from there', () => {
    expect(project('eiji', '-Users-tachikawa-eiji-EijiCode-UTAGE3-0-utage3').displayName).toBe(
      '/Users/tachikawa_eiji/EijiCode/UTAGE3.0/utage3',
    );
  });

  it('Eduardodmb (2.1.128–2.1.136, Windows): titles, timestamps and branches from the lite read', async () => {
    const addons = await sessions('eduardo', 'X--03-ACG-Custom-Addons');
    // 66 ai-title entries: the last one wins. Sub-agent files under <session>/subagents are not sessions.
    expect([...addons.keys()]).toEqual(['a572bd87']);
    expect(addons.get('a572bd87')).toMatchObject({
      sessionId: 'a572bd87-2e28-4d70-9b73-cd08231cacb6',
      title: 'Add bulk bid decision marking to search leads list view',
      titleSource: 'ai-title',
      cwd: 'X:\\03_ACG\\Custom_Addons',
      firstTimestamp: '2026-05-05T21:07:03.429Z',
      lastTimestamp: '2026-05-06T03:44:58.620Z',
      gitBranch: 'STYLE-CRM-List-View',
      version: '2.1.128',
      bytes: 2_998_261,
      warnings: [],
    });
    expect((await sessions('eduardo', 'D--OneDrive-16---Obsidian-01-Claude-Home')).get('edd6ca43')).toMatchObject({
      title: 'Set up personal Claude Code environment',
      titleSource: 'ai-title',
      cwd: 'D:\\OneDrive\\16 - Obsidian\\01_Claude_Home',
      version: '2.1.132',
      gitBranch: 'HEAD',
    });
    // A /clear-started file holding only a local slash command: no title.
    expect((await sessions('eduardo', 'X--03-ACG-Odoo-Docs')).get('8d94c819')).toMatchObject({
      title: null,
      titleSource: 'none',
      cwd: 'X:\\03_ACG\\Odoo_Docs',
      version: '2.1.136',
      gitBranch: 'master',
    });
  });

  it('Eduardodmb Odoo-Docs memory: canonical index + flat frontmatter with originSessionId', async () => {
    const listing = await listMemoryFiles(service, { configRoot: roots.eduardo, slug: 'X--03-ACG-Odoo-Docs' });
    expect(listing.indexText).toBe(readFileSync(join(EDUARDO, 'X--03-ACG-Odoo-Docs/memory/MEMORY.md'), 'utf8'));
    expect(listing.files.map((f) => [f.relativePath, f.variant, f.type, f.name, f.originSessionId, f.warnings.length])).toEqual([
      ['feedback_no_git_commands.md', 'flat', 'feedback', 'Never execute git commands', '73558073-081c-444b-95d7-35fc3edb6bb3', 0],
      ['feedback_odoo18_list_not_tree.md', 'flat', 'feedback', 'Odoo 18 uses list not tree', '88ea4c87-1f4e-4765-b448-f79f0049550c', 0],
      [
        'project_docker_odoo_workflow.md',
        'flat',
        'project',
        'Docker Odoo workflow for ACG project',
        '88ea4c87-1f4e-4765-b448-f79f0049550c',
        0,
      ],
    ]);
    expect(listing.lock.exists).toBe(false);
  });

  it('Eiji (2.1.37–2.1.39): first-prompt title; the file-history-only 1432e0f5 has no title and no cwd', async () => {
    expect((await sessions('eiji', '-Users-tachikawa-eiji')).get('f6f74d81')).toMatchObject({
      title: 'claude --help',
      titleSource: 'first-prompt',
      cwd: '/Users/tachikawa_eiji',
      firstTimestamp: '2026-02-12T01:36:20.698Z',
      lastTimestamp: '2026-02-12T01:52:28.813Z',
      version: '2.1.37',
      warnings: [],
    });
    const utage = await sessions('eiji', '-Users-tachikawa-eiji-EijiCode-UTAGE3-0-utage3');
    expect([...utage.keys()].sort()).toEqual(['1432e0f5', '3f9394bc']);
    expect(utage.get('3f9394bc')).toMatchObject({ mainTranscript: false, bytes: 0, title: null, version: '2.1.39' });
    expect(utage.get('1432e0f5')).toMatchObject({
      title: null,
      titleSource: 'none',
      cwd: null,
      firstTimestamp: null,
      lastTimestamp: null,
      version: null,
      gitBranch: null,
      warnings: [],
    });
  });

  it('4thehalibit (2.1.81–2.1.97): custom-title and last-prompt titles, memory with originSessionId', async () => {
    const claude = await sessions('halibit', '-home-vwestberg-Claude');
    expect([...claude.keys()].sort()).toEqual(['44ef5cbf', '8c880a68']);
    expect(claude.get('44ef5cbf')).toMatchObject({
      title: 'add-teams-keybinding',
      titleSource: 'custom-title',
      cwd: '/home/vwestberg/Claude',
      version: '2.1.81',
      firstTimestamp: '2026-04-09T13:46:01.086Z',
      lastTimestamp: '2026-04-09T13:56:25.065Z',
    });
    expect(claude.get('8c880a68')).toMatchObject({
      title: 'so if i close you how am i suposed to pick back up where we leave off',
      titleSource: 'last-prompt',
      version: '2.1.97',
    });
    // The home-folder project only has an orphan sub-agent folder: a session with no main transcript.
    expect(await listSessions(service, { configRoot: roots.halibit, slug: '-home-vwestberg' })).toMatchObject([
      {
        sessionId: 'bbe015e3-4ab8-4b4d-978e-556286d8fbb9',
        mainTranscript: false,
        bytes: 0,
        title: null,
        cwd: '/home/vwestberg',
        firstTimestamp: '2026-03-25T16:04:13.820Z',
        lastTimestamp: '2026-03-25T16:04:44.002Z',
        version: '2.1.81',
        warnings: [],
      },
    ]);
    const memory = await listMemoryFiles(service, { configRoot: roots.halibit, slug: '-home-vwestberg-Claude' });
    expect(memory.files.map((f) => [f.relativePath, f.variant, f.type, f.originSessionId])).toEqual([
      ['project_omarchy_customization.md', 'flat', 'project', '1fb5e404-604d-4a2b-baf1-3beb42a67371'],
    ]);
    expect(memory.indexText?.startsWith('# Memory Index\n')).toBe(true);
  });

  it('d-kimuson (1.0.98–1.0.108): a legacy summary titles the session its leaf is in; slash commands with arguments are prompts', async () => {
    const sample = await sessions('kimuson', 'sample-project');
    expect([...sample.keys()].sort()).toEqual(['1af7fc5e', '5c0375b4', 'fe5e1c67']);
    // fe5e1c67's summary line names the last message of 1af7fc5e: it is that session's title, not its own.
    expect(sample.get('fe5e1c67')).toMatchObject({
      title: '/orchestrator create TODO app by Next.js',
      titleSource: 'first-prompt',
      cwd: '/path/to/Demo',
      version: '1.0.98',
      firstTimestamp: '2025-09-03T00:52:31.217Z',
      lastTimestamp: '2025-09-03T01:02:03.665Z',
    });
    expect(sample.get('1af7fc5e')).toMatchObject({
      title: 'Empty Repo Setup: CLAUDE.md Foundation Created',
      titleSource: 'summary',
      version: '1.0.98',
    });
    // A session that starts with a custom slash command: its arguments are what the person typed.
    expect(sample.get('5c0375b4')).toMatchObject({
      title: '/orchestrator @CLAUDE.md を最新の状態にアップデートしてください',
      titleSource: 'first-prompt',
      version: '1.0.108',
      gitBranch: 'main',
    });
  });

  it('AnotherSava memory (via local autoMemoryDirectory): flat, nested and nested-node-type side by side', async () => {
    const slug = sanitizePathPrefix(work.bga);
    expect(project('repos', slug)).toMatchObject({
      path: work.bga,
      memoryDir: join(work.bga, '.claude', 'memory'),
      memoryDirSource: 'local-settings',
      memoryDirExists: true,
      memoryFileCount: 4,
      hasMemoryIndex: true,
      warnings: [],
    });
    const listing = await listMemoryFiles(service, { configRoot: roots.repos, slug });
    expect(listing.files.map((f) => [f.relativePath, f.variant, f.type, f.name])).toEqual([
      ['feedback_no_defensive_fallbacks.md', 'flat', 'feedback', 'No defensive fallbacks'],
      ['feedback_tests_no_gitignored_data.md', 'nested-node-type', 'feedback', 'feedback-tests-no-gitignored-data'],
      ['project_bga_framework_dom_probing.md', 'nested', 'project', 'project_bga_framework_dom_probing'],
      ['project_innovation_action_states.md', 'flat', 'reference', "Innovation gamestate machine + act-during-opponent's-turn detection"],
    ]);
    expect(listing.files.every((f) => f.warnings.length === 0)).toBe(true);
    // The 154-line prose MEMORY.md is shown exactly as it is.
    expect(listing.indexText).toBe(readFileSync(join(BGA_MEMORY, 'MEMORY.md'), 'utf8'));
    expect(listing.indexText?.split('\n').length).toBeGreaterThanOrEqual(154);
  });

  it('Aleslammer memory: a flat `type: user` memory', async () => {
    const file = join(DEATHWATCH_MEMORY, 'user_ui_preferences.md');
    expect(await summarizeMemoryFile({ absolutePath: file, relativePath: 'user_ui_preferences.md' })).toMatchObject({
      variant: 'flat',
      type: 'user',
      name: 'user_ui_preferences',
      description: "User's UI design preferences for sheet layouts and information density",
      warnings: [],
    });
    expect(project('repos', sanitizePathPrefix(work.deathwatch))).toMatchObject({
      memoryDirSource: 'local-settings',
      memoryFileCount: 1,
      hasMemoryIndex: false,
    });
  });

  it('Randroids-Dojo agent memory (project scope): free-form MEMORY.md files', async () => {
    const agents = (await listAgentMemories(service)).filter((a) => a.projectPath === work.unrealfrog);
    expect(agents.map((a) => [a.scope, a.agentType, a.fileCount, a.hasIndex, a.snapshot.dir, a.warnings.length])).toEqual([
      ['project', 'qa-lead', 1, true, null, 0],
      ['project', 'sound-engineer', 1, true, null, 0],
    ]);
    expect(agents[0].dir).toBe(join(work.unrealfrog, '.claude', 'agent-memory', 'qa-lead'));
    expect((await listAgentMemories(service)).filter((a) => a.scope === 'user')).toEqual([]);
  });

  it('session ids are the file names of UUID-named files only', async () => {
    const names = await readdir(join(EDUARDO, 'X--03-ACG-Custom-Addons'));
    expect(names.filter(isSessionFileName).map(sessionIdFromFileName)).toEqual(['a572bd87-2e28-4d70-9b73-cd08231cacb6']);
  });

  it('nothing was written into the fixtures', async () => {
    expect(await snapshotTree(FIXTURES)).toEqual(fixturesBefore);
  });
});
