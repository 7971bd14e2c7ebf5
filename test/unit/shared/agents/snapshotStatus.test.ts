import { describe, expect, it } from 'vitest';
import {
  countsAsLocalMemory,
  parseSnapshotMeta,
  parseSyncedMeta,
  snapshotAction,
  snapshotMetaText,
  syncedMetaText,
} from '../../../../shared/agents/snapshotStatus';

describe('parseSnapshotMeta: Claude Code’s schema { updatedAt: string (min 1) }, extra keys allowed', () => {
  it.each([
    ['{"updatedAt":"2026-04-01T00:00:00.000Z"}', { updatedAt: '2026-04-01T00:00:00.000Z' }],
    ['{"updatedAt":"2026-04-01T00:00:00.000Z","by":"ana"}', { updatedAt: '2026-04-01T00:00:00.000Z' }],
    ['{"updatedAt":"not a date"}', { updatedAt: 'not a date' }],
  ])('%s is valid', (text, expected) => {
    expect(parseSnapshotMeta(text)).toEqual(expected);
  });

  it.each([
    null,
    '',
    '{',
    '[]',
    'null',
    '"2026"',
    '{"updatedAt":null}',
    '{"updatedAt":""}',
    '{"updatedAt":5}',
    '{"updated":"2026"}',
    '\uFEFF{"updatedAt":"2026"}',
  ])('%j is not', (text) => {
    expect(parseSnapshotMeta(text)).toBeNull();
  });
});

describe('parseSyncedMeta', () => {
  it('accepts { syncedFrom } and refuses an empty or missing one', () => {
    expect(parseSyncedMeta('{"syncedFrom":"2026-04-01T00:00:00.000Z"}')).toEqual({ syncedFrom: '2026-04-01T00:00:00.000Z' });
    expect(parseSyncedMeta('{"syncedFrom":""}')).toBeNull();
    expect(parseSyncedMeta('{}')).toBeNull();
    expect(parseSyncedMeta(null)).toBeNull();
  });
});

describe('snapshotAction: checkAgentMemorySnapshot', () => {
  const snapshot = { updatedAt: '2026-04-02T00:00:00.000Z' };
  it('no valid snapshot.json → none, whatever the local folder holds', () => {
    expect(snapshotAction({ snapshot: null, hasLocalMemory: false, synced: null })).toBe('none');
    expect(snapshotAction({ snapshot: null, hasLocalMemory: true, synced: null })).toBe('none');
  });
  it('no local *.md → initialize, even when a synced marker exists', () => {
    expect(snapshotAction({ snapshot, hasLocalMemory: false, synced: null })).toBe('initialize');
    expect(snapshotAction({ snapshot, hasLocalMemory: false, synced: { syncedFrom: snapshot.updatedAt } })).toBe('initialize');
  });
  it('local memory without a synced marker → prompt-update', () => {
    expect(snapshotAction({ snapshot, hasLocalMemory: true, synced: null })).toBe('prompt-update');
  });
  it('snapshot newer than syncedFrom → prompt-update; equal or older → none', () => {
    expect(snapshotAction({ snapshot, hasLocalMemory: true, synced: { syncedFrom: '2026-04-01T00:00:00.000Z' } })).toBe('prompt-update');
    expect(snapshotAction({ snapshot, hasLocalMemory: true, synced: { syncedFrom: snapshot.updatedAt } })).toBe('none');
    expect(snapshotAction({ snapshot, hasLocalMemory: true, synced: { syncedFrom: '2026-05-01T00:00:00.000Z' } })).toBe('none');
  });
  it('compares as dates, not as strings: another offset for the same instant is equal', () => {
    expect(snapshotAction({ snapshot, hasLocalMemory: true, synced: { syncedFrom: '2026-04-02T02:00:00+02:00' } })).toBe('none');
  });
  it('an unparsable time never prompts (Invalid Date compares false), as in Claude Code', () => {
    expect(snapshotAction({ snapshot: { updatedAt: 'soon' }, hasLocalMemory: true, synced: { syncedFrom: 'x' } })).toBe('none');
    expect(snapshotAction({ snapshot, hasLocalMemory: true, synced: { syncedFrom: 'yesterday' } })).toBe('none');
  });
});

describe('countsAsLocalMemory', () => {
  it('only regular files ending in .md (case-sensitive)', () => {
    expect(countsAsLocalMemory('MEMORY.md', true)).toBe(true);
    expect(countsAsLocalMemory('notes.MD', true)).toBe(false);
    expect(countsAsLocalMemory('linked.md', false)).toBe(false);
    expect(countsAsLocalMemory('.snapshot-synced.json', true)).toBe(false);
  });
});

describe('meta texts', () => {
  it('the synced marker is written exactly as Claude Code writes it', () => {
    expect(syncedMetaText('2026-04-02T00:00:00.000Z')).toBe('{"syncedFrom":"2026-04-02T00:00:00.000Z"}');
  });
  it('snapshot.json round-trips through the parser', () => {
    expect(parseSnapshotMeta(snapshotMetaText('2026-04-02T00:00:00.000Z'))).toEqual({ updatedAt: '2026-04-02T00:00:00.000Z' });
    expect(snapshotMetaText('2026-04-02T00:00:00.000Z')).toBe('{\n  "updatedAt": "2026-04-02T00:00:00.000Z"\n}\n');
  });
});
