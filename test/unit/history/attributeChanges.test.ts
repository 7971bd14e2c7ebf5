import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { attributeChanges, DREAM_QUIET_MS, type ObservedChange } from '../../../electron/core/history/attribution/attributeChanges';
import type { TranscriptEvent, TranscriptFileRef } from '../../../electron/core/history/attribution/transcriptEvents';

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

  it('leaves anything else to an outside change, saying when it was found at start-up', () => {
    const [a] = attribute([change('a.md', null, T, { timeKnown: false })], []);
    expect(a).toMatchObject({ cause: 'external', sessionId: null, groupKey: 'external' });
    expect(a.evidence).toMatchObject({ kind: 'external', note: expect.stringMatching(/start-up/) });
  });
});
