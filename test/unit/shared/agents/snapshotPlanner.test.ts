import { describe, expect, it } from 'vitest';
import { compareSnapshotSides, type SnapshotSideListing } from '../../../../shared/agents/snapshotComparison';
import { planSnapshotAction, type SnapshotPlanInput } from '../../../../shared/agents/snapshotPlanner';

const NOW = '2026-05-10T12:00:00.000Z';

function side(files: Record<string, string>, obstacles: string[] = []): SnapshotSideListing {
  return { files: Object.entries(files).map(([name, hash]) => ({ name, hash })), obstacles };
}

function input(overrides: Partial<SnapshotPlanInput>): SnapshotPlanInput {
  return {
    command: 'create',
    agentDir: '/p/.claude/agent-memory/qa',
    snapshotDir: '/p/.claude/agent-memory-snapshots/qa',
    snapshotFolderExists: true,
    unusableFolder: null,
    local: side({}),
    snapshot: side({}),
    snapshotMeta: { value: { updatedAt: '2026-04-01T00:00:00.000Z' }, hash: 'meta-hash' },
    syncedMeta: { value: null, hash: null },
    now: NOW,
    secrets: [],
    ...overrides,
  };
}

describe('compareSnapshotSides', () => {
  it('pairs files by name; local non-.md files only take part when the snapshot carries the same name', () => {
    const compared = compareSnapshotSides(
      side({ 'MEMORY.md': 'a', 'same.md': 's', 'old.md': 'o', 'notes.txt': 'n1', 'keep.txt': 'k' }),
      side({ 'MEMORY.md': 'b', 'same.md': 's', 'new.md': 'x', 'notes.txt': 'n2' }),
    );
    expect(compared.map((c) => [c.name, c.state])).toEqual([
      ['MEMORY.md', 'changed'],
      ['new.md', 'snapshot-only'],
      ['notes.txt', 'changed'],
      ['old.md', 'local-only'],
      ['same.md', 'same'],
    ]);
  });
});

describe('create', () => {
  it('copies changed and new *.md into the snapshot, drops *.md gone locally, stamps updatedAt, marks local synced', () => {
    const plan = planSnapshotAction(
      input({
        local: side({ 'MEMORY.md': 'm2', 'a.md': 'a', 'b.md': 'b', 'scratch.txt': 't' }),
        snapshot: side({ 'MEMORY.md': 'm1', 'a.md': 'a', 'gone.md': 'g', README: 'r' }),
        syncedMeta: { value: { syncedFrom: '2026-04-01T00:00:00.000Z' }, hash: 'synced-hash' },
      }),
    );
    expect(plan.refusal).toBeNull();
    expect(plan.updatedAt).toBe(NOW);
    expect(plan.operations).toEqual([
      { kind: 'copy', to: 'snapshot', name: 'MEMORY.md', hash: 'm2', replaces: 'm1' },
      { kind: 'copy', to: 'snapshot', name: 'b.md', hash: 'b', replaces: null },
      { kind: 'delete', from: 'snapshot', name: 'gone.md', hash: 'g' },
      { kind: 'write-meta', to: 'snapshot', name: 'snapshot.json', text: `{\n  "updatedAt": "${NOW}"\n}\n`, replaces: 'meta-hash' },
      { kind: 'write-meta', to: 'local', name: '.snapshot-synced.json', text: `{"syncedFrom":"${NOW}"}`, replaces: 'synced-hash' },
    ]);
  });

  it('a first snapshot has nothing to replace', () => {
    const plan = planSnapshotAction(
      input({ snapshotFolderExists: false, snapshotMeta: { value: null, hash: null }, local: side({ 'MEMORY.md': 'm' }) }),
    );
    expect(plan.operations.map((op) => [op.kind, op.name, 'replaces' in op ? op.replaces : op.hash])).toEqual([
      ['copy', 'MEMORY.md', null],
      ['write-meta', 'snapshot.json', null],
      ['write-meta', '.snapshot-synced.json', null],
    ]);
  });

  it('nothing changed: keeps the old updatedAt so teammates are not asked to update to the same files', () => {
    const plan = planSnapshotAction(input({ local: side({ 'MEMORY.md': 'm' }), snapshot: side({ 'MEMORY.md': 'm' }) }));
    expect(plan.updatedAt).toBe('2026-04-01T00:00:00.000Z');
    expect(plan.operations).toEqual([
      { kind: 'write-meta', to: 'local', name: '.snapshot-synced.json', text: '{"syncedFrom":"2026-04-01T00:00:00.000Z"}', replaces: null },
    ]);
  });

  it('a clock behind the old snapshot still moves updatedAt forward', () => {
    const plan = planSnapshotAction(
      input({ local: side({ 'MEMORY.md': 'new' }), snapshotMeta: { value: { updatedAt: '2026-06-01T00:00:00.000Z' }, hash: 'h' } }),
    );
    expect(plan.updatedAt).toBe('2026-06-01T00:00:00.001Z');
  });

  it('is refused when a file holds a secret, naming it', () => {
    const secrets = [{ name: 'deploy.md', line: 3, kind: 'AWS access key' }];
    const plan = planSnapshotAction(input({ local: side({ 'MEMORY.md': 'm', 'deploy.md': 'd' }), secrets }));
    expect(plan.operations).toEqual([]);
    expect(plan.refusal).toEqual({ code: 'FORBIDDEN', message: expect.stringContaining('deploy.md'), secrets });
  });

  it('is refused with no local memory', () => {
    expect(planSnapshotAction(input({ local: side({ 'notes.txt': 'n' }) })).refusal?.code).toBe('INVALID_INPUT');
  });

  it('never writes over a symlink in the snapshot folder', () => {
    const plan = planSnapshotAction(input({ local: side({ 'MEMORY.md': 'm' }), snapshot: side({}, ['MEMORY.md']) }));
    expect(plan.refusal?.code).toBe('CONFLICT');
    expect(plan.operations).toEqual([]);
  });
});

describe('a side that is a symlink instead of a folder', () => {
  it('refuses every action, so no marker says "synced" for files never copied', () => {
    for (const command of ['create', 'initialize', 'replace', 'mark-synced'] as const) {
      const plan = planSnapshotAction(
        input({ command, unusableFolder: '/p/.claude/agent-memory-snapshots/qa', local: side({ 'a.md': 'a' }) }),
      );
      expect(plan.refusal?.code).toBe('CONFLICT');
      expect(plan.operations).toEqual([]);
    }
  });
});

describe('initialize', () => {
  it('copies every snapshot file (not only *.md) and writes the synced marker', () => {
    const plan = planSnapshotAction(
      input({ command: 'initialize', snapshot: side({ 'MEMORY.md': 'm', 'data.json': 'd' }), local: side({ 'data.json': 'd' }) }),
    );
    expect(plan.operations).toEqual([
      { kind: 'copy', to: 'local', name: 'MEMORY.md', hash: 'm', replaces: null },
      { kind: 'write-meta', to: 'local', name: '.snapshot-synced.json', text: '{"syncedFrom":"2026-04-01T00:00:00.000Z"}', replaces: null },
    ]);
  });

  it('is refused when local memory exists (replace or merge instead) or the snapshot is invalid', () => {
    expect(planSnapshotAction(input({ command: 'initialize', local: side({ 'a.md': 'a' }) })).refusal?.code).toBe('CONFLICT');
    expect(planSnapshotAction(input({ command: 'initialize', snapshotMeta: { value: null, hash: 'x' } })).refusal?.code).toBe(
      'INVALID_INPUT',
    );
    expect(planSnapshotAction(input({ command: 'initialize', snapshotFolderExists: false })).refusal?.code).toBe('NOT_FOUND');
  });
});

describe('replace', () => {
  it('removes local *.md the snapshot lacks, overwrites what differs, leaves equal files and non-memory files alone', () => {
    const plan = planSnapshotAction(
      input({
        command: 'replace',
        local: side({ 'MEMORY.md': 'old', 'same.md': 's', 'mine.md': 'x', 'notes.txt': 'n' }),
        snapshot: side({ 'MEMORY.md': 'new', 'same.md': 's' }),
        syncedMeta: { value: { syncedFrom: '2026-03-01T00:00:00.000Z' }, hash: 'sh' },
      }),
    );
    expect(plan.operations).toEqual([
      { kind: 'delete', from: 'local', name: 'mine.md', hash: 'x' },
      { kind: 'copy', to: 'local', name: 'MEMORY.md', hash: 'new', replaces: 'old' },
      { kind: 'write-meta', to: 'local', name: '.snapshot-synced.json', text: '{"syncedFrom":"2026-04-01T00:00:00.000Z"}', replaces: 'sh' },
    ]);
  });
});

describe('mark-synced', () => {
  it('only writes the marker, and nothing when it already says so', () => {
    expect(planSnapshotAction(input({ command: 'mark-synced', local: side({ 'a.md': 'a' }) })).operations).toEqual([
      { kind: 'write-meta', to: 'local', name: '.snapshot-synced.json', text: '{"syncedFrom":"2026-04-01T00:00:00.000Z"}', replaces: null },
    ]);
    const synced = { value: { syncedFrom: '2026-04-01T00:00:00.000Z' }, hash: 'h' };
    expect(planSnapshotAction(input({ command: 'mark-synced', syncedMeta: synced })).operations).toEqual([]);
  });
});

describe('merge', () => {
  const local = side({ 'MEMORY.md': 'm1', 'a.md': 'a1', 'mine.md': 'x' });
  const snapshot = side({ 'MEMORY.md': 'm2', 'a.md': 'a2', 'b.md': 'b' });
  it('takes only the chosen files from the snapshot; a chosen local-only file is removed', () => {
    const plan = planSnapshotAction(input({ command: 'merge', local, snapshot, files: ['b.md', 'a.md', 'mine.md'] }));
    expect(plan.operations).toEqual([
      { kind: 'copy', to: 'local', name: 'a.md', hash: 'a2', replaces: 'a1' },
      { kind: 'copy', to: 'local', name: 'b.md', hash: 'b', replaces: null },
      { kind: 'delete', from: 'local', name: 'mine.md', hash: 'x' },
    ]);
  });
  it('refuses unknown names and an empty choice', () => {
    expect(planSnapshotAction(input({ command: 'merge', local, snapshot, files: ['nope.md'] })).refusal?.code).toBe('INVALID_INPUT');
    expect(planSnapshotAction(input({ command: 'merge', local, snapshot, files: [] })).refusal?.code).toBe('INVALID_INPUT');
  });
});

describe('create over a newer snapshot', () => {
  const newer = { value: { updatedAt: '2026-05-01T00:00:00.000Z' }, hash: 'meta-hash' };

  it('warns with the files it would overwrite or delete when local memory has not synced the committed snapshot', () => {
    const plan = planSnapshotAction(
      input({
        local: side({ 'MEMORY.md': 'm-local', 'a.md': 'a' }),
        snapshot: side({ 'MEMORY.md': 'm-theirs', 'a.md': 'a', 'theirs.md': 't' }),
        snapshotMeta: newer,
        syncedMeta: { value: { syncedFrom: '2026-04-01T00:00:00.000Z' }, hash: 's' },
      }),
    );
    expect(plan.refusal).toBeNull();
    expect(plan.newerSnapshot).toEqual({
      snapshotUpdatedAt: '2026-05-01T00:00:00.000Z',
      syncedFrom: '2026-04-01T00:00:00.000Z',
      files: ['MEMORY.md', 'theirs.md'],
    });
  });

  it('does not warn when local memory is in sync, when nothing of theirs would be lost, or for other actions', () => {
    const synced = { value: { syncedFrom: '2026-05-01T00:00:00.000Z' }, hash: 's' };
    const sides = { local: side({ 'MEMORY.md': 'm-local' }), snapshot: side({ 'MEMORY.md': 'm-theirs' }), snapshotMeta: newer };
    expect(planSnapshotAction(input({ ...sides, syncedMeta: synced })).newerSnapshot).toBeNull();
    expect(
      planSnapshotAction(
        input({ local: side({ 'MEMORY.md': 'm', 'new.md': 'n' }), snapshot: side({ 'MEMORY.md': 'm' }), snapshotMeta: newer }),
      ).newerSnapshot,
    ).toBeNull();
    expect(planSnapshotAction(input({ ...sides, command: 'replace' })).newerSnapshot).toBeNull();
    // Never synced at all counts as behind, as Claude Code's own check does.
    expect(planSnapshotAction(input(sides)).newerSnapshot).toMatchObject({ syncedFrom: null, files: ['MEMORY.md'] });
  });
});
