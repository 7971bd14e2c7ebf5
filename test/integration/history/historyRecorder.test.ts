import { readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChangeSetSummary } from '../../../shared/history/historyModel';
import { createStandardScenario, type StandardScenario } from '../../fixtures/standardScenario';
import { snapshotTree } from '../../fixtures/treeSnapshot';
import {
  appendLines,
  memorySavedLine,
  openHistory,
  promptLine,
  setMtime,
  toolUseLine,
  turnDurationLine,
  type OpenHistory,
} from './historyFixtures';

let scenario: StandardScenario;
let opened: OpenHistory;

beforeEach(async () => {
  scenario = await createStandardScenario();
  opened = openHistory(scenario.home);
});

afterEach(async () => {
  await opened.close();
  await scenario.home.cleanup();
});

const webshopRef = () => ({ configRoot: scenario.home.root, slug: scenario.webshop.slug });

async function changesOfWebshop(): Promise<readonly ChangeSetSummary[]> {
  return (await opened.history.listChangeSets({ project: webshopRef() })).changeSets;
}

/** Writes a memory file with a given mtime, as Claude Code (or anyone) would. */
async function writeMemory(rel: string, text: string, time: Date): Promise<string> {
  const path = join(scenario.webshop.memoryDir, rel);
  await writeFile(path, text);
  await setMtime(path, time);
  return path;
}

describe('recording', () => {
  it('takes a first version of every memory file on first sight, and writes nothing under the config root', async () => {
    const before = await snapshotTree(scenario.home.root);
    const report = await opened.history.recordNow();
    expect(report.versions).toBeGreaterThan(0);
    expect(await snapshotTree(scenario.home.root)).toEqual(before);

    // First sight is the start of history, not a change: hidden unless asked for. What is listed is what came
    // before it, reconstructed: here only the frontmatter of one file names the session that wrote it.
    const listed = await changesOfWebshop();
    expect(listed.map((c) => [c.reconstructed, c.cause, c.sessionId, c.files.map((f) => [f.path, f.kind, f.certainty])])).toEqual([
      [true, 'session', scenario.webshop.topics['user_prefers_pnpm.md'].originSessionId, [['user_prefers_pnpm.md', 'added', 'exact']]],
    ]);
    expect(listed[0].evidence).toEqual({
      kind: 'frontmatter',
      originSessionId: scenario.webshop.topics['user_prefers_pnpm.md'].originSessionId,
      modified: null,
    });
    const all = await opened.history.listChangeSets({ includeFirstSight: true });
    const webshop = all.changeSets.find((c) => c.memoryDir === scenario.webshop.memoryDir);
    expect(webshop?.firstSight).toBe(true);
    expect(webshop?.files.map((f) => f.path).sort()).toEqual(['MEMORY.md', ...scenario.webshop.topicFiles, 'team/MEMORY.md'].sort());
    // Agent memory in the user and project scopes is kept too.
    const dirs = all.changeSets.map((c) => c.memoryDir);
    expect(dirs).toContain(scenario.agents.userCodeReviewer.dir);
    expect(dirs).toContain(scenario.agents.projectQa.dir);
    const status = await opened.history.status();
    expect(status.startedAt).not.toBeNull();
    expect(status.rebuilt).toBe(false);

    // Nothing changed: a second look records nothing.
    expect((await opened.history.recordNow()).versions).toBe(0);
  });

  it('records an outside edit as an external change with its line counts', async () => {
    await opened.history.recordNow();
    const rel = 'user_prefers_pnpm.md';
    const old = await readFile(join(scenario.webshop.memoryDir, rel), 'utf8');
    await writeMemory(rel, `${old}Also uses corepack.\nAnd volta.\n`, new Date());
    await opened.history.recordNow();
    const [change] = await changesOfWebshop();
    expect(change.cause).toBe('external');
    expect(change.sessionId).toBeNull();
    expect(change.foundAtStartup).toBe(true);
    expect(change.files).toEqual([expect.objectContaining({ path: rel, kind: 'modified', linesAdded: 2, linesRemoved: 0 })]);
    expect(change.totals).toMatchObject({ modified: 1, linesAdded: 2 });
  });

  it("attributes a session's Write and Edit calls in one turn to that session and turn, with the transcript line", async () => {
    await opened.history.recordNow();
    const session = scenario.webshop.sessions[1];
    const now = Date.now();
    const at = (offset: number) => new Date(now + offset);
    const base = { sessionId: session.sessionId, cwd: scenario.webshop.path };
    const promptUuid = '11111111-2222-4333-8444-555555555555';
    const newFile = join(scenario.webshop.memoryDir, 'feedback_run_tests.md');
    const indexPath = join(scenario.webshop.memoryDir, 'MEMORY.md');
    const topic = '---\nname: run tests\ndescription: run the tests first\ntype: feedback\n---\nRun the tests first.\n';
    const indexText = `${scenario.webshop.indexText}- [Run tests](feedback_run_tests.md) — before committing\n`;
    const linesBefore = (await readFile(session.file, 'utf8')).split('\n').length - 1;
    await appendLines(session.file, [
      promptLine({ ...base, time: at(-4000), uuid: promptUuid }, 'Remember to always run the tests first'),
      toolUseLine({ ...base, time: at(-3000) }, 'Write', { file_path: newFile, content: topic }),
      toolUseLine({ ...base, time: at(-2000) }, 'Edit', {
        file_path: indexPath,
        old_string: 'x',
        new_string: '- [Run tests](feedback_run_tests.md) — before committing',
      }),
      turnDurationLine({ ...base, time: at(-500) }),
    ]);
    await writeMemory('feedback_run_tests.md', topic, at(-2900));
    await writeMemory('MEMORY.md', indexText, at(-1900));
    await opened.history.recordNow();
    const changes = (await changesOfWebshop()).filter((c) => !c.reconstructed);
    expect(changes).toHaveLength(1);
    const [turn] = changes;
    expect(turn.cause).toBe('session');
    expect(turn.sessionId).toBe(session.sessionId);
    expect(turn.files.map((f) => [f.path, f.kind])).toEqual(
      expect.arrayContaining([
        ['feedback_run_tests.md', 'added'],
        ['MEMORY.md', 'modified'],
      ]),
    );
    expect(turn.evidence).toMatchObject({
      kind: 'session',
      turnUuid: promptUuid,
      contentMatched: true,
      place: { configRoot: scenario.home.root, slug: scenario.webshop.slug, sessionId: session.sessionId, agentId: null },
    });
    // The Write call is the second appended line.
    const place = (turn.evidence as { place: { line: number | null } }).place;
    expect([linesBefore + 2, linesBefore + 3]).toContain(place.line);

    const bySession = await opened.history.listChangeSets({ sessionId: session.sessionId });
    expect(bySession.changeSets.map((c) => c.id)).toEqual([turn.id]);
  });

  it('attributes writes reported by memory_saved without a tool call, or right after a turn ended, to extraction', async () => {
    await opened.history.recordNow();
    const session = scenario.webshop.sessions[0];
    const base = { sessionId: session.sessionId, cwd: scenario.webshop.path };
    const now = Date.now();
    const saved = join(scenario.webshop.memoryDir, 'project_extracted.md');
    await writeMemory('project_extracted.md', 'Checkout ships on 2026-06-01.\n', new Date(now - 60_000));
    await appendLines(session.file, [
      turnDurationLine({ ...base, time: new Date(now - 180_000) }),
      memorySavedLine({ ...base, time: new Date(now - 58_000) }, [saved]),
    ]);
    await opened.history.recordNow();
    const [first] = await changesOfWebshop();
    expect(first.cause).toBe('extraction');
    expect(first.evidence).toMatchObject({ kind: 'extraction', reason: 'memory-saved', place: { sessionId: session.sessionId } });

    // No memory_saved yet, but the turn just ended and no tool call wrote the file.
    const later = Date.now();
    await appendLines(session.file, [turnDurationLine({ ...base, time: new Date(later - 5000) })]);
    await writeMemory('project_extracted.md', 'Checkout ships on 2026-06-02.\n', new Date(later));
    await opened.history.recordNow();
    const [second] = await changesOfWebshop();
    expect(second.cause).toBe('extraction');
    expect(second.evidence).toMatchObject({ kind: 'extraction', reason: 'end-of-turn' });
  });

  it('keeps the last content of a deleted file, and finds changes made while the app was closed', async () => {
    await opened.history.recordNow();
    const rel = 'project_checkout_rewrite.md';
    const content = await readFile(join(scenario.webshop.memoryDir, rel));
    await opened.close();
    await unlink(join(scenario.webshop.memoryDir, rel));
    opened = openHistory(scenario.home);
    await opened.history.recordNow();
    const [change] = await changesOfWebshop();
    expect(change.foundAtStartup).toBe(true);
    expect(change.files).toEqual([expect.objectContaining({ path: rel, kind: 'deleted', after: null })]);
    const kept = await opened.store.readBlob(change.files[0].before as string);
    expect(kept.equals(content)).toBe(true);
  });

  it('rebuilds a deleted store from the current files and says that earlier history is gone', async () => {
    await opened.history.recordNow();
    await opened.close();
    await rm(join(opened.dataDir, 'history'), { recursive: true, force: true });
    opened = openHistory(scenario.home);
    await opened.history.recordNow();
    const status = await opened.history.status();
    expect(status.rebuilt).toBe(true);
    const firstSight = (await opened.history.listChangeSets({ includeFirstSight: true })).changeSets.filter((c) => !c.reconstructed);
    expect(firstSight.length).toBeGreaterThan(0);
    expect(firstSight.every((c) => c.evidence?.kind === 'first-sight' && c.evidence.rebuilt)).toBe(true);
  });
});
