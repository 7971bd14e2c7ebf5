/**
 * Bad input: every broken item gives a visible warning on that item, the rest of the home loads, nothing
 * throws, and nothing at all is written under the config root (or the project folders).
 */
import { chmod, mkdir, open, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HomeService } from '../../../electron/core/home/HomeService';
import type { HomeSnapshot, ProjectSummary } from '../../../shared/model/home';
import type { ItemWarning } from '../../../shared/model/warnings';
import { createScenarioHome, seededUuid, topicFile, type ScenarioHome, type SessionFacts } from '../../fixtures/scenarioHome';
import { snapshotTree, type TreeSnapshot } from '../../fixtures/treeSnapshot';
import { listSessions } from '../../../electron/core/transcripts/sessionListing';
import { listMemoryFiles } from '../../../electron/core/memory/memoryFolderListing';
import { listAgentMemories } from '../../../electron/core/agents/agentMemoryListing';

const isRoot = process.getuid?.() === 0;
const HUGE_LINE_BYTES = 50 * 1024 * 1024;

let home: ScenarioHome;
let service: HomeService;
let snapshot: HomeSnapshot;
let before: TreeSnapshot;
let good: SessionFacts;
const paths: Record<string, string> = {};
const slugs: Record<string, string> = {};

function project(slug: string): ProjectSummary {
  const found = snapshot.projects.find((p) => p.slug === slug);
  if (!found) throw new Error(`no project ${slug}`);
  return found;
}
const codes = (warnings: readonly ItemWarning[]) => warnings.map((w) => w.code).sort();

/** Writes one 50 MB JSONL line without building a 50 MB string. */
async function writeHugeLine(file: string): Promise<void> {
  const handle = await open(file, 'w');
  try {
    await handle.write(Buffer.from('{"type":"user","message":{"role":"user","content":"'));
    const chunk = Buffer.alloc(4 * 1024 * 1024, 0x61);
    for (let written = 0; written < HUGE_LINE_BYTES; written += chunk.length) await handle.write(chunk);
    await handle.write(Buffer.from('"},"cwd":"/never/read"}\n'));
  } finally {
    await handle.close();
  }
}

beforeAll(async () => {
  home = await createScenarioHome({ prefix: 'ccmem-bad-' });

  // A healthy project that must load completely.
  const healthy = home.project(home.workPath('healthy'));
  good = await healthy.session({ titleKind: 'ai-title', title: 'Healthy session', turns: 2 });
  await healthy.memoryIndex('- [A](a.md) — a\n');
  await healthy.memory('a.md', topicFile({ variant: 'flat', name: 'A', description: 'a', type: 'user' }));
  slugs.healthy = healthy.slug;

  // The user settings file is not JSON.
  paths.settings = await home.userSettings('{ "autoMemoryDirectory": "/x", oops');

  // projects/<slug> entries that cannot be read as folders: a dangling symlink, a symlink loop, a plain file.
  paths.danglingProject = await home.symlink('projects/-dangling-project', join(home.tmp, 'gone'));
  paths.loopProject = await home.symlink('projects/-loop-project', join(home.root, 'projects', '-loop-project'));
  await home.rawFile('projects/.DS_Store', 'junk');

  // One project full of broken transcripts.
  const broken = home.project(home.workPath('broken'));
  slugs.broken = broken.slug;
  const okInBroken = await broken.session({ titleKind: 'custom-title', title: 'Survivor', badLines: 3, truncatedTail: true });
  paths.okInBroken = okInBroken.file;
  paths.zero = await broken.rawFile(`${seededUuid('zero')}.jsonl`, '');
  const binary = Buffer.alloc(8192);
  for (let i = 0; i < binary.length; i++) binary[i] = (i * 131) % 256;
  paths.binary = await broken.rawFile(`${seededUuid('binary')}.jsonl`, binary);
  paths.utf8 = await broken.rawFile(
    `${seededUuid('utf8')}.jsonl`,
    Buffer.concat([
      Buffer.from(
        `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'Valid prompt before bad bytes' }, cwd: home.workPath('broken'), timestamp: '2026-05-01T00:00:00.000Z' })}\n`,
      ),
      Buffer.from([0x7b, 0x22, 0x78, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d, 0x0a]),
    ]),
  );
  paths.brokenLink = join(broken.dir, `${seededUuid('dangling')}.jsonl`);
  await symlink(join(home.tmp, 'no-such-transcript.jsonl'), paths.brokenLink);
  paths.huge = join(broken.dir, `${seededUuid('huge')}.jsonl`);
  await writeHugeLine(paths.huge);
  await broken.rawFile(`${seededUuid('dir')}.jsonl/keep`, 'a folder named like a session is not a session');

  // A project whose memory "folder" is a file, and one whose MEMORY.md is a folder with broken memory files.
  const memoryIsFile = home.project(home.workPath('memory-is-file'));
  await memoryIsFile.session();
  paths.memoryIsFile = await memoryIsFile.rawFile('memory', 'not a folder');
  slugs.memoryIsFile = memoryIsFile.slug;

  const badMemory = home.project(home.workPath('bad-memory'));
  await badMemory.session();
  await mkdir(join(badMemory.memoryDir, 'MEMORY.md'), { recursive: true });
  paths.memoryDangling = join(badMemory.memoryDir, 'dangling.md');
  await symlink(join(home.tmp, 'nowhere.md'), paths.memoryDangling);
  paths.memoryExec = await badMemory.memory('exec.md', '---js\n(globalThis.__ccmemBadInputCanary = 1, {})\n---\n');
  paths.memoryBrokenYaml = await badMemory.memory('broken.md', '---\nname: a: b\ntype: feedback\n---\n');
  paths.memoryBinary = await badMemory.memory('bin.md', Buffer.from([0x00, 0x01, 0x02, 0x03]));
  await badMemory.memory('fine.md', topicFile({ variant: 'nested-node-type', name: 'fine', description: 'ok', type: 'project' }));
  await badMemory.lock({ body: 'garbage pid' });
  slugs.badMemory = badMemory.slug;

  // Agent memory: a user agent folder with a broken symlinked topic.
  const agentDir = await home.agentMemory('user', 'reviewer', { 'MEMORY.md': '# reviewer\n' });
  paths.agentDangling = join(agentDir, 'gone.md');
  await symlink(join(home.tmp, 'gone-agent.md'), paths.agentDangling);

  before = await snapshotTree(home.tmp);
  service = new HomeService({
    roots: [{ path: home.root, source: 'CLAUDE_CONFIG_DIR' }],
    dataDir: join(home.tmp, 'data-never-written'),
    demoHomeSource: null,
    shell: 'cli',
    readOnly: true,
  });
  const started = performance.now();
  snapshot = await service.getHome();
  paths.loadMs = String(Math.round(performance.now() - started));
});

afterAll(async () => {
  service?.dispose();
  await home?.cleanup();
});

describe('HomeService with bad input', () => {
  it('loads without throwing, quickly, with every readable project present', () => {
    expect(Number(paths.loadMs)).toBeLessThan(5000);
    expect(snapshot.projects.map((p) => p.slug).sort()).toEqual([slugs.badMemory, slugs.broken, slugs.healthy, slugs.memoryIsFile].sort());
  });

  it('the config root carries warnings for broken settings.json and unreadable project entries', () => {
    const rootWarnings = snapshot.roots[0].warnings;
    expect(rootWarnings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'settings-invalid-json', path: paths.settings }),
        expect.objectContaining({ code: 'broken-symlink', path: paths.danglingProject }),
        expect.objectContaining({ code: 'broken-symlink', path: paths.loopProject }),
      ]),
    );
    expect(rootWarnings).toHaveLength(3);
    expect(snapshot.warnings).toEqual(rootWarnings);
    expect(snapshot.roots[0].exists).toBe(true);
  });

  it('the healthy project is complete and clean', async () => {
    expect(project(slugs.healthy)).toMatchObject({
      path: home.workPath('healthy'),
      pathSource: 'transcript-cwd',
      sessionCount: 1,
      memoryFileCount: 1,
      hasMemoryIndex: true,
      memoryDirSource: 'default',
      warnings: [],
    });
    const [session] = await listSessions(service, { configRoot: home.root, slug: slugs.healthy });
    expect(session).toMatchObject({ sessionId: good.sessionId, title: 'Healthy session', titleSource: 'ai-title', warnings: [] });
  });

  it('each broken transcript carries its own warning; the project still loads', async () => {
    const summary = project(slugs.broken);
    expect(summary).toMatchObject({ path: home.workPath('broken'), pathSource: 'transcript-cwd', sessionCount: 5 });
    const sessions = await listSessions(service, { configRoot: home.root, slug: slugs.broken });
    const byFile = new Map(sessions.map((s) => [s.file, s]));
    expect(byFile.get(paths.okInBroken)).toMatchObject({ title: 'Survivor', titleSource: 'custom-title' });
    expect(codes(byFile.get(paths.okInBroken)!.warnings)).toEqual(['invalid-json-line']);
    expect(codes(byFile.get(paths.zero)!.warnings)).toEqual(['empty-file']);
    expect(codes(byFile.get(paths.binary)!.warnings)).toContain('binary-file');
    expect(byFile.get(paths.utf8)).toMatchObject({ title: 'Valid prompt before bad bytes' });
    expect(codes(byFile.get(paths.utf8)!.warnings)).toEqual(['invalid-utf8']);
    expect(byFile.get(paths.huge)).toMatchObject({ bytes: expect.any(Number), title: null, titleSource: 'none', cwd: null });
    expect(byFile.get(paths.huge)!.bytes).toBeGreaterThan(HUGE_LINE_BYTES);
    expect(codes(byFile.get(paths.huge)!.warnings)).toEqual(['line-too-long']);
    // The dangling symlink is not a session, but the project says so.
    expect(byFile.has(paths.brokenLink)).toBe(false);
    expect(summary.warnings).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'broken-symlink', path: paths.brokenLink })]));
    // Every session warning is also visible on the project.
    for (const file of [paths.zero, paths.binary, paths.utf8, paths.huge, paths.okInBroken]) {
      expect(summary.warnings.some((w) => w.path === file)).toBe(true);
    }
  });

  it('a memory "folder" that is a file is a warning on that project', async () => {
    const summary = project(slugs.memoryIsFile);
    expect(summary).toMatchObject({ memoryDirExists: false, memoryFileCount: 0, hasMemoryIndex: false, sessionCount: 1 });
    expect(summary.warnings).toEqual([expect.objectContaining({ code: 'unreadable', path: paths.memoryIsFile })]);
    const listing = await listMemoryFiles(service, { configRoot: home.root, slug: slugs.memoryIsFile });
    expect(listing).toMatchObject({ exists: false, files: [], indexText: null });
  });

  it('broken memory files each carry a warning; the good one reads fine; executable frontmatter is never run', async () => {
    const summary = project(slugs.badMemory);
    expect(summary).toMatchObject({ memoryDirExists: true, memoryFileCount: 4, hasMemoryIndex: false });
    expect(summary.warnings).toEqual([expect.objectContaining({ code: 'broken-symlink', path: paths.memoryDangling })]);
    const listing = await listMemoryFiles(service, { configRoot: home.root, slug: slugs.badMemory });
    const byPath = new Map(listing.files.map((f) => [f.absolutePath, f]));
    expect(listing.files.map((f) => f.relativePath)).toEqual(['bin.md', 'broken.md', 'exec.md', 'fine.md']);
    expect(codes(byPath.get(paths.memoryExec)!.warnings)).toEqual(['frontmatter-executable']);
    expect(codes(byPath.get(paths.memoryBrokenYaml)!.warnings)).toEqual(['frontmatter-invalid']);
    expect(byPath.get(paths.memoryBrokenYaml)).toMatchObject({ type: 'feedback', name: 'a: b' });
    expect(codes(byPath.get(paths.memoryBinary)!.warnings)).toEqual(['binary-file']);
    expect(listing.files.find((f) => f.relativePath === 'fine.md')).toMatchObject({
      variant: 'nested-node-type',
      type: 'project',
      warnings: [],
    });
    expect((globalThis as Record<string, unknown>).__ccmemBadInputCanary).toBeUndefined();
    // MEMORY.md is a folder: a warning on the listing, not a crash.
    expect(listing.indexText).toBeNull();
    expect(listing.warnings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'broken-symlink', path: paths.memoryDangling }),
        expect.objectContaining({ code: 'unreadable', path: join(summary.memoryDir, 'MEMORY.md') }),
      ]),
    );
    expect(listing.lock).toMatchObject({ exists: true, holderPid: null, holderAlive: null });
  });

  it('agent memory with a broken symlink is listed with a warning', async () => {
    const agents = await listAgentMemories(service);
    const reviewer = agents.find((a) => a.agentType === 'reviewer');
    expect(reviewer).toMatchObject({ scope: 'user', fileCount: 1, hasIndex: true });
    expect(reviewer!.warnings).toEqual([expect.objectContaining({ code: 'broken-symlink', path: paths.agentDangling })]);
  });

  it('NOTHING was written: the whole temp tree is byte-for-byte and mtime-for-mtime unchanged, no data dir created', async () => {
    await service.refresh();
    expect(await snapshotTree(home.tmp)).toEqual(before);
  });
});

describe('a projects "folder" that is a file', () => {
  it('is a warning on the config root', async () => {
    const other = await createScenarioHome();
    try {
      const { rm } = await import('node:fs/promises');
      await rm(join(other.root, 'projects'), { recursive: true });
      await writeFile(join(other.root, 'projects'), 'oops');
      const snap = await new HomeService({
        roots: [{ path: other.root, source: 'default' }],
        dataDir: '/nonexistent',
        demoHomeSource: null,
        shell: 'cli',
        readOnly: true,
      }).getHome();
      expect(snap.projects).toEqual([]);
      expect(snap.empty).toBe(false);
      expect(snap.warnings).toEqual([expect.objectContaining({ code: 'unreadable', path: join(other.root, 'projects') })]);
    } finally {
      await other.cleanup();
    }
  });

  it('a config root that is a file is a not-a-directory warning', async () => {
    const other = await createScenarioHome();
    try {
      const fileRoot = join(other.tmp, 'root-file');
      await writeFile(fileRoot, 'x');
      const snap = await new HomeService({
        roots: [{ path: fileRoot, source: 'CLAUDE_CONFIG_DIR' }],
        dataDir: '/nonexistent',
        demoHomeSource: null,
        shell: 'cli',
        readOnly: true,
      }).getHome();
      expect(snap).toMatchObject({ empty: true, projects: [] });
      expect(snap.warnings).toEqual([expect.objectContaining({ code: 'not-a-directory', path: fileRoot })]);
    } finally {
      await other.cleanup();
    }
  });
});

describe('permission-denied folders', () => {
  // Root ignores file modes, so chmod 000 cannot make anything unreadable there; the cases above simulate
  // unreadable folders with things root cannot read either (dangling symlinks, loops, files in place of folders).
  it.skipIf(isRoot)(
    'a chmod 000 project folder is an unreadable warning (skipped when running as root: chmod does not block root)',
    async () => {
      const other = await createScenarioHome();
      const locked = other.project(other.workPath('locked'));
      await locked.session();
      const open = other.project(other.workPath('open'));
      await open.session();
      await chmod(locked.dir, 0o000);
      try {
        const snap = await new HomeService({
          roots: [{ path: other.root, source: 'default' }],
          dataDir: '/nonexistent',
          demoHomeSource: null,
          shell: 'cli',
          readOnly: true,
        }).getHome();
        const lockedSummary = snap.projects.find((p) => p.slug === locked.slug);
        expect(lockedSummary?.warnings).toEqual(
          expect.arrayContaining([expect.objectContaining({ code: 'unreadable', path: locked.dir })]),
        );
        expect(snap.projects.find((p) => p.slug === open.slug)).toMatchObject({ sessionCount: 1, warnings: [] });
      } finally {
        await chmod(locked.dir, 0o755);
        await other.cleanup();
      }
    },
  );
  if (isRoot)
    console.info(
      '[homeServiceBadInput] running as root (uid 0): the chmod 000 case is skipped because root reads mode-000 folders anyway.',
    );
});
