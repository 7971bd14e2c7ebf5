import { describe, expect, it } from 'vitest';
import {
  buildVersionChain,
  type ChainInput,
  type FrontmatterStamp,
  type Observation,
  type StepOrigin,
} from '../../../../../electron/core/history/provenance/versionChains';

const T = Date.parse('2026-08-01T10:00:00.000Z');
const origin = (name: string): StepOrigin => ({
  cause: 'session',
  sessionId: name,
  turnUuid: null,
  evidence: { kind: 'external', note: name },
  groupKey: name,
  summary: name,
});
const noStamp = (): FrontmatterStamp | null => null;

function chain(observations: Observation[], anchor: ChainInput['anchor'], extra: Partial<ChainInput> = {}) {
  return buildVersionChain({
    memoryDir: '/m',
    path: 'a.md',
    observations,
    removals: [],
    anchor,
    stampOf: noStamp,
    lockTimes: [],
    ...extra,
  }).map((v) => ({
    cause: v.origin.cause,
    by: v.origin.sessionId,
    kind: v.kind,
    after: v.after.known ? v.after.text : '?',
    timeKnown: v.timeKnown,
    gap: v.gap !== null,
  }));
}

describe('version chains', () => {
  it('ends at the anchor: confirmed, or the last unknown version filled only when the file was not written again since', () => {
    const saved: Observation = { kind: 'saved', timeMs: T, mayDelete: false, origin: origin('extraction') };
    expect(chain([saved], { text: 'x\n', timeMs: T + 60_000, mtimeMs: T - 100 })).toEqual([
      { cause: 'session', by: 'extraction', kind: 'added', after: 'x\n', timeKnown: true, gap: false },
    ]);
    // Written again an hour later: the bytes now are not the extraction's.
    expect(chain([saved], { text: 'x\n', timeMs: T + 7_200_000, mtimeMs: T + 3_600_000 })).toEqual([
      { cause: 'session', by: 'extraction', kind: 'added', after: '?', timeKnown: true, gap: false },
      { cause: 'external', by: null, kind: 'modified', after: 'x\n', timeKnown: true, gap: true },
    ]);
  });

  it('gives the last unexplained change to the session its frontmatter names, or to a dream whose lock it falls in', () => {
    const write: Observation = { kind: 'write', timeMs: T, text: 'old\n', created: true, origin: origin('s1') };
    const stampOf = (text: string): FrontmatterStamp | null =>
      text.startsWith('stamped') ? { originSessionId: 's2', modified: new Date(T + 5000).toISOString(), modifiedMs: T + 5000 } : null;
    expect(chain([write], { text: 'stamped\n', timeMs: T + 60_000, mtimeMs: T + 5000 }, { stampOf })).toEqual([
      { cause: 'session', by: 's1', kind: 'added', after: 'old\n', timeKnown: true, gap: false },
      { cause: 'session', by: 's2', kind: 'modified', after: 'stamped\n', timeKnown: true, gap: false },
    ]);
    expect(chain([write], { text: 'merged\n', timeMs: T + 60_000, mtimeMs: T + 20_000 }, { lockTimes: [T + 10_000] })[1]).toMatchObject({
      cause: 'dream',
      after: 'merged\n',
    });
  });

  it('marks a deletion with no trace as a gap at an unknown time after the last thing known', () => {
    const write: Observation = { kind: 'write', timeMs: T, text: 'x\n', created: true, origin: origin('s1') };
    const backup: Observation = { kind: 'state', timeMs: T + 1000, text: 'x\n' };
    expect(chain([write, backup], { text: null, timeMs: T + 60_000, mtimeMs: null })).toEqual([
      { cause: 'session', by: 's1', kind: 'added', after: 'x\n', timeKnown: true, gap: false },
      { cause: 'external', by: null, kind: 'deleted', after: null, timeKnown: false, gap: true },
    ]);
  });

  it('keys a deletion with no trace on its own time, not on when the chain was built', () => {
    const write: Observation = { kind: 'write', timeMs: T, text: 'gone\n', created: true, origin: origin('s1') };
    // A folder history has not recorded yet is anchored at the time of the build: two builds, one deletion.
    const keys = [T + 60_000, T + 120_000].map((buildMs) =>
      buildVersionChain({
        memoryDir: '/m',
        path: 'a.md',
        observations: [write],
        removals: [],
        anchor: { text: null, timeMs: buildMs, mtimeMs: null },
        stampOf: noStamp,
        lockTimes: [],
      }).map((v) => [v.kind, v.origin.groupKey]),
    );
    expect(keys[0]).toEqual([
      ['added', 's1'],
      ['deleted', expect.stringMatching(/^gap:/)],
    ]);
    expect(keys[1]).toEqual(keys[0]);
  });
});
