/**
 * Agent memory snapshots exactly as Claude Code reads them (claude-code-state.md §7.6, SRC
 * `tools/AgentTool/agentMemorySnapshot.ts`): a committed folder `<project>/.claude/agent-memory-snapshots/<agentType>/`
 * with `snapshot.json` and the files to seed, and a `.snapshot-synced.json` in the agent's own memory folder.
 */
export const SNAPSHOTS_FOLDER = 'agent-memory-snapshots';
export const SNAPSHOT_META_FILE = 'snapshot.json';
export const SYNCED_META_FILE = '.snapshot-synced.json';

export type SnapshotAction = 'none' | 'initialize' | 'prompt-update';

export interface SnapshotMeta {
  readonly updatedAt: string;
}

export interface SyncedMeta {
  readonly syncedFrom: string;
}

/**
 * A non-empty string field of a JSON object, as Claude Code's zod schemas for both files accept it (a plain object, extra
 * keys allowed); null for anything else. Written out rather than with zod: listing agent memory is part of every one-shot
 * `ccmem search`, and loading zod costs it ~40 ms before the first byte is read.
 */
function nonEmptyStringField(text: string | null, key: string): string | null {
  if (text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const field = (value as Record<string, unknown>)[key];
  return typeof field === 'string' && field.length > 0 ? field : null;
}

/** `snapshot.json` as Claude Code accepts it; null when it is missing, not JSON or has no usable `updatedAt`. */
export function parseSnapshotMeta(text: string | null): SnapshotMeta | null {
  const updatedAt = nonEmptyStringField(text, 'updatedAt');
  return updatedAt === null ? null : { updatedAt };
}

/** `.snapshot-synced.json` as Claude Code accepts it; null when missing or invalid. */
export function parseSyncedMeta(text: string | null): SyncedMeta | null {
  const syncedFrom = nonEmptyStringField(text, 'syncedFrom');
  return syncedFrom === null ? null : { syncedFrom };
}

/**
 * Claude Code's "has local memory" test: a regular file (not a symlink, not in a sub-folder) directly in
 * the agent's memory folder whose name ends in `.md`, case-sensitively.
 */
export function countsAsLocalMemory(name: string, isRegularFile: boolean): boolean {
  return isRegularFile && name.endsWith('.md');
}

export interface SnapshotActionInput {
  readonly snapshot: SnapshotMeta | null;
  readonly hasLocalMemory: boolean;
  readonly synced: SyncedMeta | null;
}

/** `checkAgentMemorySnapshot`: what Claude Code does with a snapshot when it loads the agent. */
export function snapshotAction({ snapshot, hasLocalMemory, synced }: SnapshotActionInput): SnapshotAction {
  if (!snapshot) return 'none';
  if (!hasLocalMemory) return 'initialize';
  // Invalid dates compare false, exactly as in Claude Code: an unparsable time never prompts.
  if (!synced || new Date(snapshot.updatedAt) > new Date(synced.syncedFrom)) return 'prompt-update';
  return 'none';
}

/** The synced marker byte for byte as Claude Code writes it (`jsonStringify`, no indentation, no newline). */
export function syncedMetaText(syncedFrom: string): string {
  return JSON.stringify({ syncedFrom });
}

/** A snapshot.json meant to be committed: readable in a diff, ending in a newline. */
export function snapshotMetaText(updatedAt: string): string {
  return `${JSON.stringify({ updatedAt }, null, 2)}\n`;
}
