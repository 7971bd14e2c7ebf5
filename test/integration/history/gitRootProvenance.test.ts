/**
 * Claude Code keeps auto memory per git root while it stores sessions under their launch folder's slug: a session
 * started in a repository's sub-folder writes into the root's memory folder. Reconstruction, the live recorder's
 * attribution, and the per-session and per-project answers all read the transcripts of every project that uses
 * the folder, so such a write is the sub-folder session's.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../electron/cli/main';
import type { ChangeSetSummary } from '../../../shared/history/historyModel';
import { createScenarioHome, seededUuid, type ProjectBuilder, type ScenarioHome } from '../../fixtures/scenarioHome';
import { ChangeSetWriter } from '../../../electron/core/changes/changeSetWriter';
import { HistoryService } from '../../../electron/core/history/HistoryService';
import { HistoryStore } from '../../../electron/core/changes/HistoryStore';
import { startWatchedHome } from '../../fixtures/watchedHome';
import { openHistory, type OpenHistory } from './historyFixtures';
import { memoryFile, TranscriptBuilder } from './provenanceFixtures';

const sid = (name: string) => seededUuid(`git-root-provenance:${name}`);
const at = (seconds: number) => new Date(Date.parse('2026-07-01T08:00:00.000Z') + seconds * 1000);

let home: ScenarioHome;
let root: ProjectBuilder;
let api: ProjectBuilder;
let opened: OpenHistory;

beforeEach(async () => {
  home = await createScenarioHome({ prefix: 'ccmem-git-root-provenance-' });
  const repoPath = home.workPath('mono');
  await mkdir(join(repoPath, '.git'), { recursive: true });
  await writeFile(join(repoPath, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  api = home.project(join(repoPath, 'packages', 'api'));
  // The root's project folder holds the memory only: no session was started at the root.
  root = home.project(repoPath, { createDir: false });
});

afterEach(async () => {
  await opened?.close();
  await home.cleanup();
});

function apiSession(name: string): TranscriptBuilder {
  return new TranscriptBuilder({ file: join(api.dir, `${sid(name)}.jsonl`), sessionId: sid(name), cwd: api.cwd });
}

/** Polls until the probe answers (the watcher and the recorder's settle delay take their time on a loaded machine). */
async function until<T>(probe: () => Promise<T | null>, timeoutMs = 20_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() - started > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function shape(set: ChangeSetSummary) {
  return { cause: set.cause, sessionId: set.sessionId, turnUuid: set.turnUuid, files: set.files.map((f) => [f.path, f.kind, f.certainty]) };
}

describe('memory shared by a repository and its sub-folders', () => {
  it("reconstructs a sub-folder session's writes into the root's memory as that session's, and lists them for both projects", async () => {
    const rates = join(root.memoryDir, 'project_rate_limits.md');
    const session = apiSession('limits');
    const turn = session.typed(at(0), 'Remember the rate limits');
    session.write(at(1), rates, '# Rate limits\n\n- 100 per minute per client\n');
    session.write(at(2), join(root.memoryDir, 'MEMORY.md'), '- [Rate limits](project_rate_limits.md)\n');
    session.turnEnd(at(3));
    await session.flush(at(3));
    await memoryFile(rates, '# Rate limits\n\n- 100 per minute per client\n', at(1));
    await memoryFile(join(root.memoryDir, 'MEMORY.md'), '- [Rate limits](project_rate_limits.md)\n', at(2));

    // What `ccmem projects` says of the two: the sub-folder's memory is the root's.
    let projectsOut = '';
    const env = { HOME: home.tmp, CLAUDE_CONFIG_DIR: home.root, CCMEM_DATA_DIR: join(home.tmp, 'projects-data') };
    expect(await runCli(['projects', '--json'], { stdout: (t) => (projectsOut += t), stderr: () => undefined, env })).toBe(0);
    const projects = JSON.parse(projectsOut) as {
      slug: string;
      memoryDir: string;
      memoryOwner: string | null;
      memorySharedWith: string[];
    }[];
    expect(projects.find((p) => p.slug === api.slug)).toMatchObject({ memoryDir: root.memoryDir, memoryOwner: root.slug });
    expect(projects.find((p) => p.slug === root.slug)).toMatchObject({ memoryOwner: null, memorySharedWith: [api.slug] });

    opened = openHistory(home);
    await opened.history.recordNow();
    const expected = [
      {
        cause: 'session',
        sessionId: sid('limits'),
        turnUuid: turn,
        files: [
          ['project_rate_limits.md', 'added', 'exact'],
          ['MEMORY.md', 'added', 'exact'],
        ],
      },
    ];
    const forRoot = await opened.history.listChangeSets({ project: { configRoot: home.root, slug: root.slug } });
    expect(forRoot.changeSets.map(shape)).toEqual(expected);
    expect(forRoot.changeSets[0].memoryDir).toBe(root.memoryDir);
    const forApi = await opened.history.listChangeSets({ project: { configRoot: home.root, slug: api.slug } });
    expect(forApi.changeSets.map((set) => set.id)).toEqual(forRoot.changeSets.map((set) => set.id));
    // The session's side panel and the Sessions table count the same writes.
    const bySession = await opened.history.listChangeSets({ sessionId: sid('limits') });
    expect(bySession.changeSets.map((set) => set.id)).toEqual(forRoot.changeSets.map((set) => set.id));
    expect(await opened.history.sessionMemoryWrites([sid('limits')])).toEqual([
      {
        sessionId: sid('limits'),
        changeSets: 1,
        files: [join(root.memoryDir, 'MEMORY.md'), join(root.memoryDir, 'project_rate_limits.md')].sort(),
      },
    ]);
    const blame = await opened.history.blame({ kind: 'project', configRoot: home.root, slug: root.slug }, 'project_rate_limits.md');
    expect(new Set(blame.lines.map((line) => line.sessionId))).toEqual(new Set([sid('limits')]));
  });

  it('attributes live writes from sub-folder sessions, in a known sub-folder and in one whose first session it is', async () => {
    await memoryFile(join(root.memoryDir, 'MEMORY.md'), '# Index\n', at(0));
    // The sub-folder has a session from before (no memory written).
    const earlier = apiSession('earlier');
    earlier.typed(at(10), 'Add a health check');
    earlier.turnEnd(at(20));
    await earlier.flush(at(20));
    const watched = await startWatchedHome(home, { shell: 'web', readOnly: false });
    const store = new HistoryStore(join(watched.dataDir, 'history'));
    const history = new HistoryService({
      home: watched.home,
      store,
      historyDir: join(watched.dataDir, 'history'),
      live: watched.live,
      writer: new ChangeSetWriter({ history: store, onOwnWrite: (path) => watched.live.expectOwnWrite(path) }),
      settleMs: 300,
    });
    try {
      history.start();
      await until(async () => ((await history.status()).versionCount > 0 ? true : null));

      // A session in the known sub-folder writes a memory file into the root's folder while the app runs.
      const now = Date.now();
      const known = apiSession('live');
      const knownTurn = known.typed(new Date(now - 3000), 'Remember: the API is versioned in the path');
      const versions = join(root.memoryDir, 'project_api_versions.md');
      known.write(new Date(now - 2000), versions, 'Versions live in the path: /v1, /v2.\n');
      await known.flush();
      await writeFile(versions, 'Versions live in the path: /v1, /v2.\n');

      // The first session of another sub-folder (a project folder Claude Code creates now) does the same.
      const webPath = join(root.cwd, 'packages', 'web');
      await mkdir(webPath, { recursive: true });
      const web = home.project(webPath);
      const first = new TranscriptBuilder({ file: join(web.dir, `${sid('web')}.jsonl`), sessionId: sid('web'), cwd: webPath });
      const webTurn = first.typed(new Date(now - 1500), 'Remember: the web app uses the v2 API');
      const clients = join(root.memoryDir, 'project_clients.md');
      first.write(new Date(now - 1000), clients, 'The web app calls /v2.\n');
      await first.flush();
      await writeFile(clients, 'The web app calls /v2.\n');

      const recorded = await until(async () => {
        const sets = (await history.listChangeSets({ limit: 100 })).changeSets.filter((set) => !set.reconstructed);
        // The journal is written before the notes that name the session: wait for both.
        return sets.length >= 2 && sets.every((set) => set.cause !== 'session' || set.sessionId !== null) ? sets : null;
      });
      expect(recorded.map((set) => [set.reconstructed, ...Object.values(shape(set))]).reverse()).toEqual([
        [false, 'session', sid('live'), knownTurn, [['project_api_versions.md', 'added', 'exact']]],
        [false, 'session', sid('web'), webTurn, [['project_clients.md', 'added', 'exact']]],
      ]);
      // What the Sessions table counts for each is what the session's side panel lists.
      for (const [session, file] of [
        [sid('live'), versions],
        [sid('web'), clients],
      ]) {
        const listed = (await history.listChangeSets({ sessionId: session })).changeSets;
        expect(await history.sessionMemoryWrites([session])).toEqual([{ sessionId: session, changeSets: listed.length, files: [file] }]);
      }
    } finally {
      await history.dispose();
      await watched.dispose();
    }
  });
});
