import { appendFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { journalRebase } from '../../../../electron/core/history/journalRebase';
import { HistoryStore, type NewHistoryEntry } from '../../../../electron/core/changes/HistoryStore';
import { JsonlLog } from '../../../../electron/core/changes/jsonlLog';
import type { FileVersionRead } from '../../../../electron/core/history/versionReader';
import { versionTransitions } from '../../../../electron/core/history/versionTransitions';
import { changeSetTotals, describeTotals, netFileChanges } from '../../../../shared/history/changeSetFiles';

const h = (c: string) => c.repeat(64);

describe('netFileChanges', () => {
  it('takes each file from its first version before to its last after, and drops files that end where they began', () => {
    const net = netFileChanges([
      { path: 'a.md', before: h('1'), after: h('2') },
      { path: 'b.md', before: null, after: h('3') },
      { path: 'a.md', before: h('2'), after: h('4') },
      { path: 'c.md', before: h('5'), after: null },
      { path: 'b.md', before: h('3'), after: null },
    ]);
    const known = { certainty: 'exact', beforeKnown: true, gap: null };
    expect(net).toEqual([
      { path: 'a.md', kind: 'modified', before: h('1'), after: h('4'), ...known },
      { path: 'c.md', kind: 'deleted', before: h('5'), after: null, ...known },
    ]);
    const totals = changeSetTotals(net.map((f) => ({ ...f, linesAdded: 2, linesRemoved: 1 })));
    expect(totals).toEqual({ added: 0, modified: 1, deleted: 1, linesAdded: 4, linesRemoved: 2 });
    expect(describeTotals(totals)).toBe('1 modified, 1 deleted · +4 −2');
  });

  it('tells a reconstructed change whose bytes are unknown from a deletion, and keeps its gap', () => {
    const net = netFileChanges([
      { path: 'a.md', before: h('1'), after: null, certainty: 'inferred', kind: 'modified' },
      { path: 'b.md', before: null, after: null, certainty: 'inferred', beforeCertainty: 'inferred', kind: 'added' },
      { path: 'c.md', before: null, after: h('2'), beforeCertainty: 'inferred', kind: 'modified', gap: 'an edit that does not replay' },
    ]);
    expect(net).toEqual([
      { path: 'a.md', kind: 'modified', before: h('1'), after: null, certainty: 'inferred', beforeKnown: true, gap: null },
      { path: 'b.md', kind: 'added', before: null, after: null, certainty: 'inferred', beforeKnown: false, gap: null },
      {
        path: 'c.md',
        kind: 'modified',
        before: null,
        after: h('2'),
        certainty: 'exact',
        beforeKnown: false,
        gap: 'an edit that does not replay',
      },
    ]);
  });
});

describe('journalRebase', () => {
  const entry = (path: string, before: string | null, after: string | null): NewHistoryEntry => ({
    folder: '/m',
    path,
    before,
    after,
    size: 1,
    cause: 'external',
    changeSetId: 'x',
    summary: 's',
  });

  it('keeps entries that start where the journal is, and drops what the app journaled itself meanwhile', () => {
    const journal: Record<string, string | null> = { 'a.md': h('1'), 'b.md': h('2'), 'c.md': h('9') };
    const entries = [
      entry('a.md', h('1'), h('2')),
      entry('b.md', h('1'), h('2')),
      entry('b.md', h('2'), h('3')),
      entry('c.md', h('1'), h('4')),
    ];
    expect(journalRebase(entries, (_, path) => journal[path] ?? null)).toEqual([
      entry('a.md', h('1'), h('2')),
      // The app already wrote 2: only the later step is ours.
      entry('b.md', h('2'), h('3')),
      // The journal moved to a version we never saw: ours starts from there.
      entry('c.md', h('9'), h('4')),
    ]);
  });
});

describe('JsonlLog', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ccmem-jsonl-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('skips a torn last line and never glues the next record to it; ignores records of the wrong shape', async () => {
    const path = join(dir, 'log.jsonl');
    const log = new JsonlLog(path, (v): v is { n: number } => typeof (v as { n?: unknown })?.n === 'number');
    await log.append([{ n: 1 }]);
    await appendFile(path, '{"n":2, "torn');
    expect(await log.load()).toEqual([{ n: 1 }]);
    await log.append([{ n: 3 }]);
    await appendFile(path, '{"other":true}\n');
    expect(await new JsonlLog(path, (v): v is { n: number } => typeof (v as { n?: unknown })?.n === 'number').load()).toEqual([
      { n: 1 },
      { n: 3 },
    ]);
    expect(await log.load()).toEqual([{ n: 1 }, { n: 3 }]);
  });

  it('reads every line whole, blank lines between and text beyond ASCII in them, and the lines appended since', async () => {
    const path = join(dir, 'text.jsonl');
    const isText = (v: unknown): v is { t: string } => typeof (v as { t?: unknown })?.t === 'string';
    await appendFile(path, '{"t":"café"}\n\n  \n{"t":"日本語 🍵"}\n{"t":"Ω"}\n');
    const log = new JsonlLog(path, isText);
    expect(await log.load()).toEqual([{ t: 'café' }, { t: '日本語 🍵' }, { t: 'Ω' }]);
    await log.append([{ t: 'ünïcode' }]);
    expect((await log.load()).map((record) => record.t)).toEqual(['café', '日本語 🍵', 'Ω', 'ünïcode']);
  });
});

describe('versionTransitions', () => {
  const read = (hash: string) => ({ hash, text: null, mtimeMs: 5, size: 1 });

  it('replays caught versions, then the file now, and takes a vanished file as deleted unless its folder was unreadable', () => {
    const transitions = versionTransitions({
      latest: new Map([
        ['a.md', h('1')],
        ['gone.md', h('7')],
        ['sub/hidden.md', h('8')],
        ['dead.md', null],
      ]),
      captured: [
        { path: 'a.md', hash: h('2'), text: null, size: 1, timeMs: 1 },
        { path: 'a.md', hash: h('2'), text: null, size: 1, timeMs: 2 },
        { path: 'new.md', hash: h('4'), text: null, size: 1, timeMs: 3 },
      ],
      current: new Map([
        ['a.md', read(h('3'))],
        ['new.md', read(h('4'))],
      ]),
      unreadable: ['sub/'],
      now: 9,
    });
    expect(transitions.map((t) => [t.path, t.before, t.after, t.timeKnown])).toEqual([
      ['a.md', h('1'), h('2'), true],
      ['a.md', h('2'), h('3'), true],
      ['gone.md', h('7'), null, false],
      ['new.md', null, h('4'), true],
    ]);
  });

  it('passes over an empty version caught on the way to a later one (a write caught between truncating and writing)', () => {
    const empty = h('0');
    const transitions = versionTransitions({
      latest: new Map([
        ['rewritten.md', h('1')],
        ['emptied.md', h('5')],
      ]),
      captured: [
        { path: 'rewritten.md', hash: empty, text: '', size: 0, timeMs: 1 },
        { path: 'rewritten.md', hash: h('2'), text: null, size: 1, timeMs: 2 },
        { path: 'emptied.md', hash: empty, text: '', size: 0, timeMs: 3 },
      ],
      current: new Map<string, FileVersionRead>([
        ['rewritten.md', read(h('2'))],
        ['emptied.md', { hash: empty, text: '', mtimeMs: 4, size: 0 }],
      ]),
      unreadable: [],
      now: 9,
    });
    // A file left empty is a version all the same.
    expect(transitions.map((t) => [t.path, t.before, t.after])).toEqual([
      ['rewritten.md', h('1'), h('2')],
      ['emptied.md', h('5'), empty],
    ]);
  });
});

describe('reading the journal from several requests at once', () => {
  it('adds each appended line once, however many loads overlap', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ccmem-concurrent-'));
    try {
      const writer = new HistoryStore(dir);
      const reader = new HistoryStore(dir);
      await writer.append([
        { folder: '/m', path: 'a.md', before: null, after: h('a'), size: 1, cause: 'external', changeSetId: 'x', summary: 's' },
      ]);
      const loads = await Promise.all([reader.load(), reader.load(), reader.load()]);
      expect(loads.map((entries) => entries.length)).toEqual([1, 1, 1]);
      const notes = new JsonlLog(join(dir, 'n.jsonl'), (v): v is { n: number } => typeof (v as { n?: unknown })?.n === 'number');
      await new JsonlLog(join(dir, 'n.jsonl'), (_v): _v is { n: number } => true).append([{ n: 1 }, { n: 2 }]);
      expect((await Promise.all([notes.load(), notes.load()])).map((records) => records.length)).toEqual([2, 2]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
