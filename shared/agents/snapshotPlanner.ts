import type {
  SnapshotCommand,
  SnapshotNewerWarning,
  SnapshotOperation,
  SnapshotPlan,
  SnapshotRefusal,
  SnapshotSecret,
} from '../model/agents';
import { assertNever } from '../result';
import { compareSnapshotSides, localMemoryFiles, type SnapshotSideListing } from './snapshotComparison';
import {
  SNAPSHOT_META_FILE,
  snapshotAction,
  snapshotMetaText,
  SYNCED_META_FILE,
  syncedMetaText,
  type SnapshotMeta,
  type SyncedMeta,
} from './snapshotStatus';

/** A meta file as it is on disk: its parsed value (null when missing or invalid) and the hash of its bytes. */
export interface MetaFileState<T> {
  readonly value: T | null;
  /** null when the file does not exist. */
  readonly hash: string | null;
}

export interface SnapshotPlanInput {
  readonly command: SnapshotCommand;
  readonly agentDir: string;
  readonly snapshotDir: string;
  readonly snapshotFolderExists: boolean;
  /** A side that is a symlink or a file instead of a folder: every action is refused. */
  readonly unusableFolder: string | null;
  readonly local: SnapshotSideListing;
  readonly snapshot: SnapshotSideListing;
  readonly snapshotMeta: MetaFileState<SnapshotMeta>;
  readonly syncedMeta: MetaFileState<SyncedMeta>;
  /** The current time, ISO; becomes the new `updatedAt` of a created snapshot. */
  readonly now: string;
  /** Secrets found in the local `*.md` files; any one refuses `create`. */
  readonly secrets: readonly SnapshotSecret[];
  /** For `merge`: the files to take from the snapshot (a file only in local memory is removed). */
  readonly files?: readonly string[];
}

type Outcome = { readonly operations: SnapshotOperation[]; readonly updatedAt: string | null } | SnapshotRefusal;

function refuse(code: SnapshotRefusal['code'], message: string, secrets?: readonly SnapshotSecret[]): SnapshotRefusal {
  return secrets ? { code, message, secrets } : { code, message };
}

/** A new snapshot must sort after the old one, or teammates synced to the old one would never be asked to update. */
function nextUpdatedAt(now: string, previous: SnapshotMeta | null): string {
  const previousMs = previous ? Date.parse(previous.updatedAt) : Number.NaN;
  return Number.isFinite(previousMs) && previousMs >= Date.parse(now) ? new Date(previousMs + 1).toISOString() : now;
}

function syncedMetaOperation(input: SnapshotPlanInput, syncedFrom: string): SnapshotOperation[] {
  if (input.syncedMeta.value?.syncedFrom === syncedFrom) return [];
  return [{ kind: 'write-meta', to: 'local', name: SYNCED_META_FILE, text: syncedMetaText(syncedFrom), replaces: input.syncedMeta.hash }];
}

/** Copies every snapshot file that local memory lacks or holds differently: Claude Code's `copySnapshotToLocal`. */
function copySnapshotFiles(input: SnapshotPlanInput): SnapshotOperation[] {
  return compareSnapshotSides(input.local, input.snapshot)
    .filter((file) => file.snapshot && file.state !== 'same')
    .map((file) => ({ kind: 'copy', to: 'local', name: file.name, hash: file.snapshot!.hash, replaces: file.local?.hash ?? null }));
}

function planCreate(input: SnapshotPlanInput): Outcome {
  const memory = localMemoryFiles(input.local);
  if (memory.length === 0) return refuse('INVALID_INPUT', 'This agent has no memory files to put in a snapshot');
  if (input.secrets.length > 0) {
    const names = [...new Set(input.secrets.map((s) => s.name))].join(', ');
    return refuse('FORBIDDEN', `A snapshot is committed and shared, and ${names} holds what looks like a secret`, input.secrets);
  }
  const operations: SnapshotOperation[] = [];
  for (const file of compareSnapshotSides(input.local, input.snapshot)) {
    if (file.local && file.local.name.endsWith('.md') && file.state !== 'same')
      operations.push({ kind: 'copy', to: 'snapshot', name: file.name, hash: file.local.hash, replaces: file.snapshot?.hash ?? null });
    // A memory file that is gone locally leaves the snapshot too; other files someone committed there stay.
    if (file.state === 'snapshot-only' && file.name.endsWith('.md'))
      operations.push({ kind: 'delete', from: 'snapshot', name: file.name, hash: file.snapshot!.hash });
  }
  const previous = input.snapshotMeta.value;
  if (operations.length === 0 && previous) {
    // Nothing differs: keep the snapshot's time so teammates are not asked to update to the same files.
    return { operations: syncedMetaOperation(input, previous.updatedAt), updatedAt: previous.updatedAt };
  }
  const updatedAt = nextUpdatedAt(input.now, previous);
  operations.push({
    kind: 'write-meta',
    to: 'snapshot',
    name: SNAPSHOT_META_FILE,
    text: snapshotMetaText(updatedAt),
    replaces: input.snapshotMeta.hash,
  });
  // The local memory is what the snapshot now holds, so it is in sync with it.
  operations.push(...syncedMetaOperation(input, updatedAt));
  return { operations, updatedAt };
}

function requireValidSnapshot(input: SnapshotPlanInput): SnapshotMeta | SnapshotRefusal {
  if (!input.snapshotFolderExists) return refuse('NOT_FOUND', 'This agent has no snapshot in its project');
  return input.snapshotMeta.value ?? refuse('INVALID_INPUT', `The snapshot has no valid ${SNAPSHOT_META_FILE} with an "updatedAt"`);
}

function planInitialize(input: SnapshotPlanInput): Outcome {
  const meta = requireValidSnapshot(input);
  if ('code' in meta) return meta;
  if (localMemoryFiles(input.local).length > 0)
    return refuse('CONFLICT', 'This agent already has local memory; replace it from the snapshot or merge chosen files instead');
  return { operations: [...copySnapshotFiles(input), ...syncedMetaOperation(input, meta.updatedAt)], updatedAt: meta.updatedAt };
}

function planReplace(input: SnapshotPlanInput): Outcome {
  const meta = requireValidSnapshot(input);
  if ('code' in meta) return meta;
  const removals: SnapshotOperation[] = compareSnapshotSides(input.local, input.snapshot)
    .filter((file) => file.state === 'local-only')
    .map((file) => ({ kind: 'delete', from: 'local', name: file.name, hash: file.local!.hash }));
  return {
    operations: [...removals, ...copySnapshotFiles(input), ...syncedMetaOperation(input, meta.updatedAt)],
    updatedAt: meta.updatedAt,
  };
}

function planMarkSynced(input: SnapshotPlanInput): Outcome {
  const meta = requireValidSnapshot(input);
  if ('code' in meta) return meta;
  return { operations: syncedMetaOperation(input, meta.updatedAt), updatedAt: meta.updatedAt };
}

function planMerge(input: SnapshotPlanInput): Outcome {
  if (!input.snapshotFolderExists) return refuse('NOT_FOUND', 'This agent has no snapshot in its project');
  const chosen = input.files ?? [];
  if (chosen.length === 0) return refuse('INVALID_INPUT', 'Choose at least one file to merge');
  const compared = new Map(compareSnapshotSides(input.local, input.snapshot).map((file) => [file.name, file]));
  const unknown = chosen.filter((name) => !compared.has(name));
  if (unknown.length > 0) return refuse('INVALID_INPUT', `Not in the snapshot or the local memory: ${unknown.join(', ')}`);
  const operations: SnapshotOperation[] = [];
  for (const name of [...new Set(chosen)].sort()) {
    const file = compared.get(name)!;
    if (file.state === 'local-only') operations.push({ kind: 'delete', from: 'local', name, hash: file.local!.hash });
    else if (file.state !== 'same')
      operations.push({ kind: 'copy', to: 'local', name, hash: file.snapshot!.hash, replaces: file.local?.hash ?? null });
  }
  return { operations, updatedAt: input.snapshotMeta.value?.updatedAt ?? null };
}

function outcomeOf(input: SnapshotPlanInput): Outcome {
  switch (input.command) {
    case 'create':
      return planCreate(input);
    case 'initialize':
      return planInitialize(input);
    case 'replace':
      return planReplace(input);
    case 'mark-synced':
      return planMarkSynced(input);
    case 'merge':
      return planMerge(input);
    default:
      return assertNever(input.command);
  }
}

/** A symlink or folder where a file would be written is never written through or replaced. */
function blockedBy(input: SnapshotPlanInput, operations: readonly SnapshotOperation[]): SnapshotRefusal | null {
  for (const op of operations) {
    const side = op.kind === 'delete' ? op.from : op.to;
    const obstacles = side === 'local' ? input.local.obstacles : input.snapshot.obstacles;
    if (obstacles.includes(op.name)) {
      const dir = side === 'local' ? input.agentDir : input.snapshotDir;
      return refuse('CONFLICT', `${op.name} in ${dir} is a symlink or a folder; it is left alone, so this action cannot run`);
    }
  }
  return null;
}

/**
 * Whether creating the snapshot would overwrite a newer one: Claude Code would offer this agent's local memory an
 * update from the committed snapshot (it changed after the local memory last synced, or it never synced), and the
 * action replaces or deletes snapshot files — a teammate's work that local memory has not taken in.
 */
function newerSnapshotOf(input: SnapshotPlanInput, operations: readonly SnapshotOperation[]): SnapshotNewerWarning | null {
  const snapshot = input.snapshotMeta.value;
  if (input.command !== 'create' || !snapshot) return null;
  const behind = snapshotAction({ snapshot, hasLocalMemory: true, synced: input.syncedMeta.value }) === 'prompt-update';
  const files = operations
    .filter(
      (op) => (op.kind === 'copy' && op.to === 'snapshot' && op.replaces !== null) || (op.kind === 'delete' && op.from === 'snapshot'),
    )
    .map((op) => op.name);
  if (!behind || files.length === 0) return null;
  return { snapshotUpdatedAt: snapshot.updatedAt, syncedFrom: input.syncedMeta.value?.syncedFrom ?? null, files };
}

/** What a snapshot action would do, exactly as Claude Code's own functions would, minus anything that could lose a file. */
export function planSnapshotAction(input: SnapshotPlanInput): SnapshotPlan {
  const base = { command: input.command, agentDir: input.agentDir, snapshotDir: input.snapshotDir, newerSnapshot: null };
  const outcome = input.unusableFolder
    ? refuse('CONFLICT', `${input.unusableFolder} is a symlink or not a folder; it is left alone, so this action cannot run`)
    : outcomeOf(input);
  if ('code' in outcome) return { ...base, updatedAt: input.snapshotMeta.value?.updatedAt ?? null, operations: [], refusal: outcome };
  const blocked = blockedBy(input, outcome.operations);
  if (blocked) return { ...base, updatedAt: outcome.updatedAt, operations: [], refusal: blocked };
  return {
    ...base,
    updatedAt: outcome.updatedAt,
    operations: outcome.operations,
    refusal: null,
    newerSnapshot: newerSnapshotOf(input, outcome.operations),
  };
}
