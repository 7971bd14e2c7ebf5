/**
 * Reconstruction after Claude Code's cleanup: a session's transcript (and its sub-agent's, and its file-history
 * backups) archived, then deleted from disk, then the app's history lost. `ccmem history` tells the same story from
 * the archive, byte for byte, and history's link to the session still opens it.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentHash } from '../../../electron/core/fs/contentHash';
import { LIVE_VIEW } from '../../../shared/transcript/transcriptOutline';
import type { ChangeSetJson } from '../../../electron/cli/commands/history';
import { createScenarioHome, type ScenarioHome } from '../../fixtures/scenarioHome';
import { seededUuid } from '../../fixtures/sessionLines';
import { snapshotTree } from '../../fixtures/treeSnapshot';
import { memoryFile, TranscriptBuilder, writeBackup } from '../history/provenanceFixtures';
import { createTestEngine } from '../../fixtures/testEngine';
import { ccmem } from '../../helpers/ccmem';

async function historyJson(env: NodeJS.ProcessEnv): Promise<ChangeSetJson[]> {
  const { code, stdout, stderr } = await ccmem(['history', '--json'], env);
  expect(stderr).toBe('');
  expect(code).toBe(0);
  return (JSON.parse(stdout) as { changeSets: ChangeSetJson[] }).changeSets;
}

const sid = (name: string) => seededUuid(`archived-provenance:${name}`);
const at = (seconds: number) => new Date(Date.parse('2026-08-03T09:00:00.000Z') + seconds * 1000);
const AGENT = 'a0000000000000007';
const BACKUP = 'aaaabbbbccccdddd@v2';

const v1 = '# Notes\n\n- one\n';
const v2 = '# Project notes\n\n- one\n- two\n';
/** What extraction made of the file: only the file-history backup the next turn took still has these bytes. */
const v3 = '# Project notes\n\n- one\n- two\n- three\n';
const v4 = '# Project notes\n\n- one\n- two\n- three\n- four\n';
const links = '# Links\n\n- the style guide\n';
const tabs = 'Tabs, not spaces.\n';

describe('reconstruction of a session deleted by cleanup after it was archived', () => {
  let home: ScenarioHome;
  let env: NodeJS.ProcessEnv;
  let dataDir: string;
  let projectPath: string;
  let slug: string;
  let mainFile: string;
  let agentFile: string;
  const turns: Record<string, string> = {};

  beforeAll(async () => {
    home = await createScenarioHome({ prefix: 'ccmem-archived-provenance-' });
    projectPath = home.workPath('notes');
    const project = home.project(projectPath);
    slug = project.slug;
    const mem = (rel: string) => join(project.memoryDir, rel);
    mainFile = join(project.dir, `${sid('old')}.jsonl`);
    agentFile = join(project.dir, sid('old'), 'subagents', `agent-${AGENT}.jsonl`);

    // The session Claude Code will delete: a Write and a MultiEdit, extraction after the turn, then a turn whose
    // snapshot backs up what extraction wrote and edits it; its sub-agent writes another memory file.
    const old = new TranscriptBuilder({ file: mainFile, sessionId: sid('old'), cwd: projectPath });
    turns.first = old.typed(at(0), 'Keep notes');
    old.write(at(1), mem('project_notes.md'), v1);
    old.multiEdit(at(2), mem('project_notes.md'), [
      { old: '- one', new: '- one\n- two' },
      { old: '# Notes', new: '# Project notes' },
    ]);
    old.turnEnd(at(3));
    old.saved(at(10), [mem('project_notes.md')]);
    await writeBackup(home.root, sid('old'), BACKUP, v3);
    turns.second = old.typed(at(60), 'And four');
    old.snapshot(at(60), { [mem('project_notes.md')]: { name: BACKUP, version: 2, at: at(60) } });
    old.edit(at(61), mem('project_notes.md'), '- three', '- three\n- four', null);
    old.turnEnd(at(62));
    await old.flush(at(62));
    const agent = new TranscriptBuilder({ file: agentFile, sessionId: sid('old'), cwd: projectPath, agentId: AGENT });
    agent.typed(at(63), 'Collect the links');
    agent.write(at(64), mem('reference_links.md'), links);
    await agent.flush(at(64));

    // A later session that stays on disk.
    const recent = new TranscriptBuilder({ file: join(project.dir, `${sid('recent')}.jsonl`), sessionId: sid('recent'), cwd: projectPath });
    turns.recent = recent.typed(at(86_400), 'Tabs');
    recent.write(at(86_401), mem('feedback_tabs.md'), tabs);
    recent.turnEnd(at(86_402));
    await recent.flush(at(86_402));

    await memoryFile(mem('project_notes.md'), v4, at(61));
    await memoryFile(mem('reference_links.md'), links, at(64));
    await memoryFile(mem('feedback_tabs.md'), tabs, at(86_401));
    dataDir = join(home.tmp, 'data');
    env = { HOME: home.tmp, CLAUDE_CONFIG_DIR: home.root, CCMEM_DATA_DIR: dataDir };
  });
  afterAll(() => home.cleanup());

  it('ccmem history gives the same change sets, turns and bytes from the archive once transcripts, backups and history are gone', async () => {
    const fromDisk = await historyJson(env);
    const archived = await ccmem(['archive', '--json'], env);
    expect(archived.code, archived.stderr).toBe(0);
    expect(JSON.parse(archived.stdout)).toMatchObject({ sessions: 2, files: 3, fileHistoryBackups: 1 });

    // Claude Code's cleanup deletes the old session (its sub-agent and file-history with it); the app's history is lost.
    await rm(mainFile);
    await rm(join(home.root, 'projects', slug, sid('old')), { recursive: true });
    await rm(join(home.root, 'file-history', sid('old')), { recursive: true });
    for (const name of await readdir(dataDir)) if (name !== 'archive') await rm(join(dataDir, name), { recursive: true });
    const before = await snapshotTree(home.root);

    const rebuilt = await historyJson(env);
    expect(await snapshotTree(home.root)).toEqual(before);
    expect(rebuilt).toEqual(fromDisk);
    const files = (set: ChangeSetJson) => set.files.map((f) => [f.path, f.kind, f.certainty, f.before, f.after]);
    const hash = (text: string) => contentHash(Buffer.from(text, 'utf8'));
    expect(rebuilt.map((set) => [set.cause, set.sessionId, set.turnUuid, set.reconstructed, files(set)])).toEqual([
      ['session', sid('recent'), turns.recent, true, [['feedback_tabs.md', 'added', 'exact', null, hash(tabs)]]],
      [
        'session',
        sid('old'),
        turns.second,
        true,
        [
          ['project_notes.md', 'modified', 'exact', hash(v3), hash(v4)],
          // The sub-agent's write counts with its parent's turn.
          ['reference_links.md', 'added', 'exact', null, hash(links)],
        ],
      ],
      ['extraction', sid('old'), turns.first, true, [['project_notes.md', 'modified', 'exact', hash(v2), hash(v3)]]],
      ['session', sid('old'), turns.first, true, [['project_notes.md', 'added', 'exact', null, hash(v2)]]],
    ]);

    // Without the archive, only what is left on disk is known: the old session's writes are not.
    const bare = await historyJson({ ...env, CCMEM_DATA_DIR: join(home.tmp, 'no-archive') });
    expect(bare.filter((set) => set.sessionId === sid('old'))).toEqual([]);
  });

  it("history's link to the deleted session opens its archived transcript at the line of the write", async () => {
    const engine = await createTestEngine(home, { dataDir, readOnly: true });
    try {
      const { changeSets } = await engine.memoryHistory.listChangeSets({ sessionId: sid('old'), limit: 100 });
      const first = changeSets.find((set) => set.turnUuid === turns.first && set.cause === 'session');
      const place = first?.evidence?.kind === 'session' ? first.evidence.place : null;
      expect(place).toMatchObject({ configRoot: home.root, slug, sessionId: sid('old'), agentId: null, line: 2 });
      const ref = { configRoot: home.root, slug, sessionId: sid('old') };
      const outline = await engine.transcripts.outline(ref, LIVE_VIEW, place?.line ?? null);
      expect(outline.archived).toBe(true);
      expect(outline.focusRow).not.toBeNull();
      const page = await engine.transcripts.page(ref, LIVE_VIEW, outline.focusRow ?? 0, 1);
      expect(JSON.stringify(page)).toContain('project_notes.md');

      // Its sub-agent, whose write counts with the session, opens from the archive too.
      expect(outline.subagents.map((agent) => agent.agentId)).toEqual([AGENT]);
      const agentPage = await engine.transcripts.page(ref, { ...LIVE_VIEW, agentId: AGENT }, 0, 50);
      expect(JSON.stringify(agentPage)).toContain('reference_links.md');
    } finally {
      await engine.dispose();
    }
  });
});

describe('a transcript that grew after history read it, then was archived and deleted', () => {
  it('is read on from where history stopped, in its archived copy, and its new writes are reconstructed', async () => {
    const home = await createScenarioHome({ prefix: 'ccmem-archived-provenance-grown-' });
    try {
      const projectPath = home.workPath('grown');
      const project = home.project(projectPath);
      const file = join(project.dir, `${sid('grown')}.jsonl`);
      const path = join(project.memoryDir, 'reference_port.md');
      const env = { HOME: home.tmp, CLAUDE_CONFIG_DIR: home.root, CCMEM_DATA_DIR: join(home.tmp, 'data') };
      const session = new TranscriptBuilder({ file, sessionId: sid('grown'), cwd: projectPath });
      const first = session.typed(at(0), 'Remember the port');
      session.write(at(1), path, 'Port 8080.\n');
      session.turnEnd(at(2));
      await session.flush(at(2));
      // The file already holds what the session's next turn will write: until that turn is read, nothing explains it.
      await memoryFile(path, 'Port 9090.\n', at(601));
      expect((await historyJson(env)).map((set) => [set.cause, set.turnUuid])).toEqual([
        ['external', null],
        ['session', first],
      ]);
      const readBefore = (await readFile(file)).length;

      // The session's next turn is appended; the archive keeps it; Claude Code deletes it before history reads it again.
      const second = session.typed(at(600), 'It moved');
      session.edit(at(601), path, '8080', '9090', 'Port 9090.\n', { original: 'Port 8080.\n' });
      session.turnEnd(at(602));
      await session.flush(at(602));
      const grown = (await readFile(file)).length;
      expect((await ccmem(['archive', '--json'], env)).code).toBe(0);
      await rm(file);

      const engine = await createTestEngine(home, { dataDir: env.CCMEM_DATA_DIR, readOnly: true });
      try {
        await engine.memoryHistory.recordNow();
        // Only the bytes appended since the last read: the archived copy continues the file history read.
        expect((await engine.memoryHistory.status()).reconstruction).toMatchObject({ transcriptsRead: 1, bytesRead: grown - readBefore });
        const { changeSets } = await engine.memoryHistory.listChangeSets({ limit: 100 });
        expect(
          changeSets.filter((set) => set.reconstructed).map((set) => [set.turnUuid, set.files.map((f) => [f.kind, f.certainty])]),
        ).toEqual([
          [second, [['modified', 'exact']]],
          [first, [['added', 'exact']]],
        ]);
      } finally {
        await engine.dispose();
      }
    } finally {
      await home.cleanup();
    }
  });
});

describe("a repository sub-folder's project folder removed whole after its sessions were archived", () => {
  it("still gives the root's memory written from it to its session", async () => {
    const home = await createScenarioHome({ prefix: 'ccmem-archived-provenance-subfolder-' });
    try {
      const repoPath = home.workPath('mono');
      await mkdir(join(repoPath, '.git'), { recursive: true });
      await writeFile(join(repoPath, '.git', 'HEAD'), 'ref: refs/heads/main\n');
      const api = home.project(join(repoPath, 'packages', 'api'));
      const root = home.project(repoPath, { createDir: false });
      const path = join(root.memoryDir, 'project_rate_limits.md');
      const session = new TranscriptBuilder({ file: join(api.dir, `${sid('api')}.jsonl`), sessionId: sid('api'), cwd: api.cwd });
      const turn = session.typed(at(0), 'Remember the rate limits');
      session.write(at(1), path, '100 per minute.\n');
      session.turnEnd(at(2));
      await session.flush(at(2));
      await memoryFile(path, '100 per minute.\n', at(1));
      const dataDir = join(home.tmp, 'data');
      const env = { HOME: home.tmp, CLAUDE_CONFIG_DIR: home.root, CCMEM_DATA_DIR: dataDir };
      const expected = [
        ['session', sid('api'), turn, [['project_rate_limits.md', 'added', 'exact', contentHash(Buffer.from('100 per minute.\n'))]]],
      ];
      const shape = (sets: ChangeSetJson[]) =>
        sets.map((set) => [set.cause, set.sessionId, set.turnUuid, set.files.map((f) => [f.path, f.kind, f.certainty, f.after])]);
      expect(shape(await historyJson(env))).toEqual(expected);
      expect((await ccmem(['archive', '--json'], env)).code).toBe(0);

      // Claude Code's cleanup leaves nothing of the sub-folder's project folder; the app's history is lost.
      await rm(api.dir, { recursive: true });
      for (const name of await readdir(dataDir)) if (name !== 'archive') await rm(join(dataDir, name), { recursive: true });
      expect(shape(await historyJson(env))).toEqual(expected);
    } finally {
      await home.cleanup();
    }
  });
});
