import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { attributeChanges, DREAM_QUIET_MS, type ObservedChange } from '../../../../../electron/core/history/attribution/attributeChanges';
import {
  bodyHashOf,
  type TranscriptEvent,
  type TranscriptFileRef,
} from '../../../../../electron/core/history/attribution/transcriptEvents';

const DIR = '/home/me/.claude/projects/-home-me-app/memory';
const T = Date.parse('2026-06-01T12:00:00.000Z');
const file: TranscriptFileRef = {
  path: '/t/s1.jsonl',
  configRoot: '/home/me/.claude',
  slug: '-home-me-app',
  sessionId: 's1',
  agentId: null,
};

function sha(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function change(path: string, after: string | null, time = T, extra: Partial<ObservedChange> = {}): ObservedChange {
  return {
    path,
    absolutePaths: [`${DIR}/${path}`],
    before: 'b'.repeat(64),
    after: after === null ? null : sha(after),
    afterText: after,
    timeMs: time,
    timeKnown: true,
    sinceMs: T - 3_600_000,
    ...extra,
  };
}

let offset = 0;
function event<K extends TranscriptEvent['kind']>(kind: K, timeMs: number, extra: object = {}): TranscriptEvent {
  offset += 100;
  return { kind, file, offset, timeMs, uuid: `u-${kind}-${offset}`, ...extra } as TranscriptEvent;
}

function attribute(
  changes: ObservedChange[],
  events: TranscriptEvent[],
  dream: { takenAtMs: number } | null = null,
  extractionPossible = true,
) {
  return attributeChanges({
    memoryDir: DIR,
    extractionPossible,
    changes,
    dream: dream ? { takenAtMs: dream.takenAtMs, holderPid: 42, lastChangeMs: null, previousMs: T - 86_400_000 } : null,
    events,
  }).attributions;
}

describe('attributeChanges', () => {
  it("gives a change to the session whose Write put exactly this content, in that prompt's turn", () => {
    const prompt = event('prompt', T - 60_000);
    const write = event('tool-write', T - 2000, { tool: 'Write', filePath: `${DIR}/a.md`, contentHash: sha('new'), newStrings: [] });
    const [a] = attribute([change('a.md', 'new')], [prompt, write]);
    expect(a).toMatchObject({ cause: 'session', sessionId: 's1', groupKey: `session:s1:${prompt.uuid}` });
    expect(a.evidence).toMatchObject({ kind: 'session', tool: 'Write', contentMatched: true, turnUuid: prompt.uuid });
  });

  it('checks an Edit by the text it put in, and ignores calls on other files or too long before', () => {
    const edit = event('tool-write', T - 1000, { tool: 'Edit', filePath: `${DIR}/a.md`, contentHash: null, newStrings: ['put in'] });
    const other = event('tool-write', T - 1000, { tool: 'Write', filePath: `${DIR}/b.md`, contentHash: sha('x'), newStrings: [] });
    const old = event('tool-write', T - 3_600_000, { tool: 'Write', filePath: `${DIR}/c.md`, contentHash: sha('c'), newStrings: [] });
    const [a, b, c] = attribute([change('a.md', 'text put in here'), change('b.md', 'y'), change('c.md', 'c')], [old, edit, other]);
    expect(a.evidence).toMatchObject({ kind: 'session', contentMatched: true });
    // A call on the file whose content differs (Claude Code rewrites frontmatter) still names the session.
    expect(b).toMatchObject({ cause: 'session' });
    expect(b.evidence).toMatchObject({ contentMatched: false });
    expect(c.cause).toBe('external');
  });

  it('gives a deletion to the session whose shell command removed the file', () => {
    const rm = event('tool-shell', T - 500, { command: `rm ${DIR}/gone.md` });
    const [gone] = attribute([change('gone.md', null)], [rm]);
    expect(gone).toMatchObject({ cause: 'session' });
  });

  it('puts every change after the lock moved into one dream, until it goes quiet or says it is done', () => {
    const takenAtMs = T - 10_000;
    const improved = event('memory-saved', T + 120_000, { writtenPaths: [`${DIR}/a.md`], verb: 'Improved' });
    const changes = [
      change('a.md', 'merged', T),
      change('b.md', null, T + 60_000),
      change('c.md', 'late', T + 60_000 + DREAM_QUIET_MS + 1000),
      change('d.md', 'after it said so', T + 130_000),
    ];
    const [a, b, c, d] = attribute(changes, [improved], { takenAtMs });
    expect(a).toMatchObject({ cause: 'dream', groupKey: `dream:${DIR}:${takenAtMs}` });
    expect(a.evidence).toMatchObject({
      kind: 'dream',
      lockTakenAt: new Date(takenAtMs).toISOString(),
      previousConsolidationAt: new Date(T - 86_400_000).toISOString(),
      holderPid: 42,
    });
    expect(b.groupKey).toBe(a.groupKey);
    expect(c.cause).not.toBe('dream');
    expect(d.cause).not.toBe('dream');
  });

  it('knows a dream by its "Improved" report even when the lock was not seen to move', () => {
    const improved = event('memory-saved', T + 30_000, { writtenPaths: ['a.md'], verb: 'Improved' });
    const [a] = attribute([change('a.md', 'merged')], [improved]);
    expect(a).toMatchObject({ cause: 'dream', sessionId: 's1' });
    expect(a.evidence).toMatchObject({ kind: 'dream', lockTakenAt: null, improved: { sessionId: 's1' } });
  });

  it('calls a write reported by memory_saved without a tool call extraction, and so a write right after a turn ended', () => {
    const saved = event('memory-saved', T + 5000, { writtenPaths: [`${DIR}/a.md`], verb: null });
    const turnEnd = event('turn-end', T + 100_000);
    const [a, b] = attribute([change('a.md', 'x'), change('b.md', 'y', T + 110_000)], [saved, turnEnd]);
    expect(a).toMatchObject({ cause: 'extraction', groupKey: `extraction:s1:${saved.uuid}` });
    expect(a.evidence).toMatchObject({ kind: 'extraction', reason: 'memory-saved' });
    expect(b.evidence).toMatchObject({ kind: 'extraction', reason: 'end-of-turn' });
    // Agent memory is never written by extraction.
    const [agent] = attribute([change('b.md', 'y', T + 110_000)], [turnEnd], null, false);
    expect(agent.cause).toBe('external');
  });

  it('splits an extraction and the dream seconds after it in one turn by their memory_saved lines', () => {
    for (const takenAtMs of [T + 2000, T - 1000]) {
      const extraction = event('memory-saved', T + 1000, { writtenPaths: [`${DIR}/feedback_x.md`, `${DIR}/MEMORY.md`], verb: null });
      const improved = event('memory-saved', T + 4000, {
        writtenPaths: [`${DIR}/feedback_y.md`, `${DIR}/feedback_y_dup.md`, `${DIR}/MEMORY.md`],
        verb: 'Improved',
      });
      const turnEnd = event('turn-end', T - 500);
      const changes = [
        change('feedback_x.md', 'new fact', T + 500, { before: null }),
        change('MEMORY.md', 'index with x', T + 700),
        change('feedback_y.md', 'merged', T + 3000),
        change('feedback_y_dup.md', null, T + 3200),
        change('MEMORY.md', 'index rewritten', T + 3500, { before: sha('index with x') }),
      ];
      const [x, index1, y, dup, index2] = attribute(changes, [turnEnd, extraction, improved], { takenAtMs });
      for (const a of [x, index1]) {
        expect(a).toMatchObject({ cause: 'extraction', groupKey: `extraction:s1:${extraction.uuid}` });
        expect(a.evidence).toMatchObject({ kind: 'extraction', reason: 'memory-saved' });
      }
      for (const a of [y, dup, index2]) {
        expect(a.cause).toBe('dream');
        expect(a.evidence).toMatchObject({ kind: 'dream', improved: { uuid: improved.uuid } });
      }
      expect(new Set([y.groupKey, dup.groupKey, index2.groupKey]).size).toBe(1);
    }
  });

  it('does not fold a manual edit seconds after a dream into the dream', () => {
    const improved = event('memory-saved', T + 2000, { writtenPaths: [`${DIR}/a.md`], verb: 'Improved' });
    const changes = [
      change('a.md', 'merged', T + 1000),
      change('MEMORY.md', 'index rewritten', T + 1500),
      change('b.md', 'by hand', T + 3500),
      change('a.md', 'by hand too', T + 6000, { before: sha('merged') }),
    ];
    const [a, index, b, again] = attribute(changes, [improved], { takenAtMs: T });
    expect([a.cause, index.cause]).toEqual(['dream', 'dream']);
    expect([b.cause, again.cause]).toEqual(['external', 'external']);
  });

  it('does not take a change right after a turn for extraction when that turn reported what it extracted', () => {
    const turnEnd = event('turn-end', T - 10_000);
    const saved = event('memory-saved', T - 5000, { writtenPaths: [`${DIR}/x.md`], verb: null });
    const [other] = attribute([change('other.md', 'by hand', T)], [turnEnd, saved]);
    expect(other.cause).toBe('external');
  });

  it('knows a Write whose frontmatter Claude Code stamped by the rest of its content', () => {
    const prompt = event('prompt', T - 60_000);
    const sent = '---\nname: Tea\ntype: feedback\n---\n\nGreen tea.\n';
    const onDisk = '---\nname: tea\nmetadata:\n  node_type: memory\n  type: feedback\n  originSessionId: s1\n---\nGreen tea.\n';
    const write = event('tool-write', T - 2000, {
      tool: 'Write',
      filePath: `${DIR}/a.md`,
      contentHash: sha(sent),
      bodyHash: bodyHashOf(sent),
      newStrings: [],
    });
    const [a] = attribute([change('a.md', onDisk)], [prompt, write], { takenAtMs: T - 3000 });
    expect(a).toMatchObject({ cause: 'session' });
    expect(a.evidence).toMatchObject({ kind: 'session', contentMatched: true });
  });

  it('leaves anything else to an outside change, saying when it was found at start-up', () => {
    const [a] = attribute([change('a.md', null, T, { timeKnown: false })], []);
    expect(a).toMatchObject({ cause: 'external', sessionId: null, groupKey: 'external' });
    expect(a.evidence).toMatchObject({ kind: 'external', note: expect.stringMatching(/start-up/) });
  });
});
