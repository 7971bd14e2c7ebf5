/**
 * Reconstruction of memory history from what Claude Code left behind, on real temp homes in the real shapes:
 * Write/Edit/MultiEdit calls from a session and its sub-agents, extraction and dream reports, file-history
 * backups, an edit that no longer replays, frontmatter stamps; then blame, and evidence that outlives the
 * transcripts it came from.
 */
import { readFile, rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChangeSetSummary, FileVersion } from '../../../shared/history/historyModel';
import { backgroundHeapGrowth } from '../../../electron/core/async/backgroundHeapGrowth';
import { contentHash } from '../../../electron/core/fs/contentHash';
import { createScenarioHome, type ProjectBuilder, type ScenarioHome } from '../../fixtures/scenarioHome';
import { seededUuid } from '../../fixtures/sessionLines';
import { snapshotTree } from '../../fixtures/treeSnapshot';
import { openHistory, type OpenHistory } from './historyFixtures';
import { memoryFile, stamped, TranscriptBuilder, writeBackup } from './provenanceFixtures';

let home: ScenarioHome;
let project: ProjectBuilder;
let opened: OpenHistory;
const T0 = Date.parse('2026-10-01T10:00:00.000Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000);
const sid = (name: string) => seededUuid(`session:${name}`);

beforeEach(async () => {
  home = await createScenarioHome({ prefix: 'ccmem-provenance-' });
  project = home.project(home.workPath('tea'));
});

afterEach(async () => {
  await opened?.close();
  await home.cleanup();
});

function session(name: string, agentId: string | null = null, version?: string): TranscriptBuilder {
  const sessionId = sid(name);
  const file = agentId ? join(project.dir, sessionId, 'subagents', `agent-${agentId}.jsonl`) : join(project.dir, `${sessionId}.jsonl`);
  return new TranscriptBuilder({ file, sessionId, cwd: project.cwd, agentId, version });
}

const mem = (rel: string) => join(project.memoryDir, rel);
const projectFolder = () => ({ kind: 'project' as const, configRoot: home.root, slug: project.slug });

async function reconstructedSets(): Promise<ChangeSetSummary[]> {
  const page = await opened.history.listChangeSets({ limit: 1000 });
  return page.changeSets.filter((c) => c.reconstructed).reverse();
}

async function versionsOf(rel: string, folder: Parameters<OpenHistory['history']['listFileVersions']>[0] = projectFolder()) {
  return (await opened.history.listFileVersions(folder, rel)).filter((v) => v.reconstructed);
}

async function textOf(version: FileVersion): Promise<string | null> {
  return version.after === null ? null : (await opened.store.readBlob(version.after)).toString('utf8');
}

/** What each change set says, in a compact form to compare exactly. */
function shape(set: ChangeSetSummary) {
  return {
    cause: set.cause,
    sessionId: set.sessionId,
    turnUuid: set.turnUuid,
    files: set.files.map((f) => [f.path, f.kind, f.certainty]),
  };
}

describe('reconstruction', () => {
  it('holds the heap’s growth while it reads the transcripts, and gives it back after', async () => {
    const a = session('a');
    a.typed(at(0), 'Remember the kettle');
    a.write(at(1), mem('MEMORY.md'), '- the kettle\n');
    a.turnEnd(at(2));
    await a.flush(at(2));
    await memoryFile(mem('MEMORY.md'), '- the kettle\n', at(1));
    opened = openHistory(home);
    const heldWhileRunning: boolean[] = [];
    opened.history.onDidProgress((status) => {
      if (status.state === 'running') heldWhileRunning.push(backgroundHeapGrowth.held);
    });
    await opened.history.recordNow();
    expect(heldWhileRunning.length).toBeGreaterThan(0);
    expect(heldWhileRunning.every(Boolean)).toBe(true);
    expect(backgroundHeapGrowth.held).toBe(false);
  });

  it('rebuilds a session turn byte for byte from its Write and Edit results, with a sub-agent counted with its parent', async () => {
    const a = session('a');
    const turn1 = a.typed(at(0), 'Remember that I like green tea');
    const sent = '---\nname: Tea\ndescription: likes green tea\ntype: feedback\n---\n\nThe user likes green tea.\n';
    const v1 = stamped('tea', 'feedback', sid('a'), at(1), 'The user likes green tea.\n');
    const v2 = stamped('tea', 'feedback', sid('a'), at(3), 'The user likes green tea, no sugar.\n');
    a.write(at(1), mem('feedback_tea.md'), sent, { written: v1 });
    a.write(at(2), mem('MEMORY.md'), '- [Tea](feedback_tea.md) — green tea\n');
    a.edit(at(3), mem('feedback_tea.md'), 'likes green tea.', 'likes green tea, no sugar.', v2, { original: v1 });
    // A refused call changes nothing.
    a.edit(at(3.5), mem('feedback_tea.md'), 'no milk', 'no milk ever', null, { error: 'String to replace not found in file.' });
    a.turnEnd(at(4));
    const turn2 = a.typed(at(60), 'Ask the reviewer to look at it');
    a.turnEnd(at(90));
    await a.flush(at(90));
    const agentDir = await home.agentMemory('user', 'reviewer', {});
    const sub = session('a', 'a1b2c3d4e5f60718');
    sub.typed(at(61), 'Review the change');
    sub.write(at(62), join(agentDir, 'MEMORY.md'), '# Reviewer\n\n- prefers early returns\n');
    sub.write(at(63), mem('reference_links.md'), '# Links\n\n- the style guide\n');
    await sub.flush(at(63));
    await memoryFile(mem('feedback_tea.md'), v2, at(3));
    await memoryFile(mem('MEMORY.md'), '- [Tea](feedback_tea.md) — green tea\n', at(2));
    await memoryFile(mem('reference_links.md'), '# Links\n\n- the style guide\n', at(63));
    await memoryFile(join(agentDir, 'MEMORY.md'), '# Reviewer\n\n- prefers early returns\n', at(62));

    opened = openHistory(home);
    const before = await snapshotTree(home.root);
    await opened.history.recordNow();
    expect(await snapshotTree(home.root)).toEqual(before);

    const sets = await reconstructedSets();
    expect(sets.map(shape)).toEqual([
      {
        cause: 'session',
        sessionId: sid('a'),
        turnUuid: turn1,
        files: [
          ['feedback_tea.md', 'added', 'exact'],
          ['MEMORY.md', 'added', 'exact'],
        ],
      },
      { cause: 'session', sessionId: sid('a'), turnUuid: turn2, files: [['MEMORY.md', 'added', 'exact']] },
      { cause: 'session', sessionId: sid('a'), turnUuid: turn2, files: [['reference_links.md', 'added', 'exact']] },
    ]);
    expect(sets[1].memoryDir).toBe(agentDir);
    expect(sets[1].evidence).toMatchObject({
      kind: 'session',
      tool: 'Write',
      place: { sessionId: sid('a'), agentId: 'a1b2c3d4e5f60718', line: null },
    });
    expect(sets[0].evidence).toMatchObject({ kind: 'session', tool: 'Write', place: { sessionId: sid('a'), agentId: null, line: 2 } });

    // Every version with the bytes Claude Code wrote, stamp included, oldest first.
    const tea = await versionsOf('feedback_tea.md');
    expect(tea.map((v) => [v.kind, v.certainty, v.turnUuid])).toEqual([
      ['added', 'exact', turn1],
      ['modified', 'exact', turn1],
    ]);
    expect(await textOf(tea[0])).toBe(v1);
    expect(await textOf(tea[1])).toBe(v2);
    const reviewer = await versionsOf('MEMORY.md', { kind: 'agent', dir: agentDir });
    expect(await textOf(reviewer[0])).toBe('# Reviewer\n\n- prefers early returns\n');
    // A reconstructed version is a version like any other: it can be restored (here, it is what is on disk).
    const plan = await opened.history.planRestore(projectFolder(), 'feedback_tea.md', tea[0].after as string);
    expect(plan.writes).toEqual([expect.objectContaining({ path: 'feedback_tea.md', target: tea[0].after })]);

    const status = await opened.history.status();
    expect(status.reconstruction).toMatchObject({ state: 'done', reconstructedFrom: at(1.02).toISOString() });
  });

  it('makes an extraction and the dream seconds after it in one turn two change sets; the dream deletes a duplicate', async () => {
    const b = session('b');
    const turn = b.typed(at(0), 'We always use oat milk');
    b.turnEnd(at(5));
    const tea = stamped('tea', 'feedback', sid('b'), at(6), 'Green tea.\n');
    const dup = stamped('tea-again', 'feedback', sid('b'), at(6), 'Green tea, again.\n');
    b.write(at(6), mem('feedback_tea.md'), tea, { written: tea });
    b.write(at(6.5), mem('feedback_tea_again.md'), dup, { written: dup });
    b.write(at(7), mem('MEMORY.md'), '- [Tea](feedback_tea.md)\n- [Tea again](feedback_tea_again.md)\n');
    const turn2 = b.typed(at(30), 'Oat milk, remember');
    b.turnEnd(at(35));
    // Extraction: a new topic file and the index, then its report; a dream 3 s later edits one file, deletes the
    // duplicate and rewrites the index, then reports "Improved" with every file it touched.
    const extraction = b.saved(at(37), [mem('feedback_oat_milk.md'), mem('MEMORY.md')]);
    const dream = b.saved(at(40), [mem('feedback_tea.md'), mem('feedback_tea_again.md'), mem('MEMORY.md')], 'Improved');
    await b.flush(at(40));
    const oat = stamped('oat-milk', 'feedback', sid('b'), at(36.5), 'Oat milk only.\n');
    const merged = stamped('tea', 'feedback', sid('b'), at(39), 'Green tea, often twice.\n');
    await memoryFile(mem('feedback_oat_milk.md'), oat, at(36.5));
    await memoryFile(mem('feedback_tea.md'), merged, at(39));
    await memoryFile(mem('MEMORY.md'), '- [Tea](feedback_tea.md)\n- [Oat milk](feedback_oat_milk.md)\n', at(39.5));

    opened = openHistory(home);
    await opened.history.recordNow();
    const sets = await reconstructedSets();
    expect(sets.map(shape)).toEqual([
      {
        cause: 'session',
        sessionId: sid('b'),
        turnUuid: turn,
        files: [
          ['feedback_tea.md', 'added', 'exact'],
          ['feedback_tea_again.md', 'added', 'exact'],
          ['MEMORY.md', 'added', 'exact'],
        ],
      },
      {
        cause: 'extraction',
        sessionId: sid('b'),
        turnUuid: turn2,
        files: [
          // The index was rewritten by the dream before anything recorded what extraction made of it; the topic
          // file's bytes are the file's now (nothing changed it since).
          ['MEMORY.md', 'modified', 'inferred'],
          ['feedback_oat_milk.md', 'added', 'exact'],
        ],
      },
      {
        cause: 'dream',
        sessionId: sid('b'),
        turnUuid: turn2,
        files: [
          ['MEMORY.md', 'modified', 'exact'],
          ['feedback_tea.md', 'modified', 'exact'],
          ['feedback_tea_again.md', 'deleted', 'exact'],
        ],
      },
    ]);
    expect(sets[1].evidence).toMatchObject({ kind: 'extraction', reason: 'memory-saved', place: { uuid: extraction } });
    expect(sets[2].evidence).toMatchObject({ kind: 'dream', improved: { uuid: dream } });
    const teaVersions = await versionsOf('feedback_tea.md');
    expect(await textOf(teaVersions[teaVersions.length - 1])).toBe(merged);
    const deleted = (await versionsOf('feedback_tea_again.md'))[1];
    expect(deleted).toMatchObject({ kind: 'deleted', after: null, certainty: 'exact' });
    expect((await opened.store.readBlob(deleted.before as string)).toString('utf8')).toBe(dup);
    // A version whose bytes are not known is never a restore target, and its change set cannot be reverted.
    await expect(opened.history.planRevert(sets[1].id)).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    // Reconstructed dreams are history, not dreams waiting for a review.
    expect(await opened.history.unreviewedDreamCounts()).toEqual([]);
    expect(await opened.history.listDreams(null)).toEqual([]);
  });

  it('keeps an edit that no longer replays as evidence and marks the gap instead of inventing text', async () => {
    const c = session('c');
    c.typed(at(0), 'Note the deadline');
    const first = 'Deadline: Friday.\n';
    c.write(at(1), mem('project_deadline.md'), first);
    c.turnEnd(at(2));
    await c.flush(at(2));
    const d = session('d', null, '2.0.50');
    const turn = d.typed(at(3600), 'Move the deadline');
    // An older Claude Code: no originalFile, no patch. The file was changed by hand in between, so the text
    // the edit replaces is not in the version before it.
    d.edit(at(3601), mem('project_deadline.md'), 'Deadline: Monday.', 'Deadline: Tuesday.', null);
    d.turnEnd(at(3602));
    await d.flush(at(3602));
    const now = 'Deadline: Tuesday.\nOwner: Sam.\n';
    await memoryFile(mem('project_deadline.md'), now, at(7200));

    opened = openHistory(home);
    await opened.history.recordNow();
    const versions = await versionsOf('project_deadline.md');
    expect(versions.map((v) => [v.cause, v.sessionId, v.certainty, v.kind, v.gap !== null])).toEqual([
      ['session', sid('c'), 'exact', 'added', false],
      ['session', sid('d'), 'inferred', 'modified', true],
      ['external', null, 'exact', 'modified', true],
    ]);
    expect(versions[1].gap).toMatch(/does not replay: the text the edit replaces is not in the version before it/);
    expect(versions[1].turnUuid).toBe(turn);
    expect(await textOf(versions[0])).toBe(first);
    expect(versions[1].after).toBeNull();
    expect(await textOf(versions[2])).toBe(now);
  });

  it('replays edits on the version before them, fills unknown bytes from file-history backups, and reads MultiEdit', async () => {
    const e = session('e');
    const turn = e.typed(at(0), 'Keep notes');
    const path = mem('project_notes.md');
    e.write(at(1), path, '# Notes\n\n- one\n');
    e.multiEdit(at(2), path, [
      { old: '- one', new: '- one\n- two' },
      { old: '# Notes', new: '# Project notes' },
    ]);
    e.turnEnd(at(3));
    // Extraction changed the file after the turn; its bytes only survive as the backup the next turn took.
    e.saved(at(10), [path]);
    const later = '# Project notes\n\n- one\n- two\n- three\n';
    await writeBackup(home.root, sid('e'), 'aaaabbbbccccdddd@v2', later);
    const turn2 = e.typed(at(60), 'And four');
    e.snapshot(at(60), { [path]: { name: 'aaaabbbbccccdddd@v2', version: 2, at: at(60) } });
    e.edit(at(61), path, '- three', '- three\n- four', null);
    e.turnEnd(at(62));
    await e.flush(at(62));
    const final = '# Project notes\n\n- one\n- two\n- three\n- four\n';
    await memoryFile(path, final, at(61));

    opened = openHistory(home);
    await opened.history.recordNow();
    const versions = await versionsOf('project_notes.md');
    expect(versions.map((v) => [v.cause, v.certainty, v.turnUuid])).toEqual([
      ['session', 'exact', turn],
      ['session', 'exact', turn],
      ['extraction', 'exact', turn],
      ['session', 'exact', turn2],
    ]);
    expect(await Promise.all(versions.map(textOf))).toEqual(['# Notes\n\n- one\n', '# Project notes\n\n- one\n- two\n', later, final]);
  });

  it('blames each line on the session that brought it in, across three sessions', async () => {
    const path = mem('feedback_style.md');
    const s1 = session('s1');
    const t1 = s1.typed(at(0), 'Style rules');
    s1.write(at(1), path, '# Style\n\n- tabs\n');
    await s1.flush(at(1));
    const s2 = session('s2');
    const t2 = s2.typed(at(100), 'More style');
    s2.edit(at(101), path, '- tabs', '- tabs\n- single quotes', null);
    await s2.flush(at(101));
    const s3 = session('s3');
    const t3 = s3.typed(at(200), 'Even more');
    s3.edit(at(201), path, '# Style', '# House style', null);
    await s3.flush(at(201));
    await memoryFile(path, '# House style\n\n- tabs\n- single quotes\n', at(201));

    opened = openHistory(home);
    await opened.history.recordNow();
    const blame = await opened.history.blame(projectFolder(), 'feedback_style.md');
    expect(blame.lines.map((l) => [l.line, l.text, l.cause, l.sessionId, l.turnUuid, l.certainty])).toEqual([
      [1, '# House style', 'session', sid('s3'), t3, 'exact'],
      [2, '', 'session', sid('s1'), t1, 'exact'],
      [3, '- tabs', 'session', sid('s1'), t1, 'exact'],
      [4, '- single quotes', 'session', sid('s2'), t2, 'exact'],
    ]);
    expect(blame.lines[3].place).toMatchObject({ sessionId: sid('s2'), line: 2 });
    expect(blame.version).toBe(contentHash('# House style\n\n- tabs\n- single quotes\n'));
  });

  it('keeps what it read when Claude Code deletes the transcripts, and reads a transcript only once', async () => {
    const f = session('f');
    f.typed(at(0), 'Remember the port');
    f.write(at(1), mem('reference_port.md'), 'Port 8080.\n');
    await f.flush(at(1));
    await memoryFile(mem('reference_port.md'), 'Port 8080.\n', at(1));
    opened = openHistory(home);
    await opened.history.recordNow();
    const first = (await reconstructedSets()).map(shape);
    expect(first).toHaveLength(1);
    expect((await opened.history.status()).reconstruction.bytesRead).toBeGreaterThan(0);

    // Nothing new: nothing read again.
    await opened.history.recordNow();
    expect((await opened.history.status()).reconstruction).toMatchObject({ bytesRead: 0, transcriptsRead: 0 });

    // Appended bytes only.
    const size = (await readFile(f.options.file)).length;
    f.typed(at(30), 'Nothing else');
    await f.flush(at(30));
    await opened.history.recordNow();
    expect((await opened.history.status()).reconstruction.bytesRead).toBe((await readFile(f.options.file)).length - size);

    // Claude Code's cleanup deletes the transcript; the app, restarted, still tells the story.
    await unlink(f.options.file);
    await opened.close();
    opened = openHistory(home);
    await opened.history.recordNow();
    expect((await reconstructedSets()).map(shape)).toEqual(first);
  });

  it('rebuilds the reconstruction from its evidence when the derived file is lost', async () => {
    const g = session('g');
    g.typed(at(0), 'Remember the host');
    g.write(at(1), mem('reference_host.md'), 'Host: db1.\n');
    await g.flush(at(1));
    await memoryFile(mem('reference_host.md'), 'Host: db1.\n', at(1));
    opened = openHistory(home);
    await opened.history.recordNow();
    const first = (await reconstructedSets()).map((s) => s.id);
    await rm(join(opened.dataDir, 'history', 'reconstructed.json'));
    await opened.history.recordNow();
    expect((await reconstructedSets()).map((s) => s.id)).toEqual(first);
  });
});
