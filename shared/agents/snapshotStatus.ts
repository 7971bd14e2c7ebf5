import { z } from 'zod';

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

// Claude Code's own zod schemas: plain objects (extra keys allowed), both strings non-empty.
const snapshotMetaSchema = z.object({ updatedAt: z.string().min(1) });
const syncedMetaSchema = z.object({ syncedFrom: z.string().min(1) });

function parseWith<T>(schema: z.ZodType<T>, text: string | null): T | null {
  if (text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const parsed = schema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** `snapshot.json` as Claude Code accepts it; null when it is missing, not JSON or has no usable `updatedAt`. */
export function parseSnapshotMeta(text: string | null): SnapshotMeta | null {
  const parsed = parseWith(snapshotMetaSchema, text);
  return parsed ? { updatedAt: parsed.updatedAt } : null;
}

/** `.snapshot-synced.json` as Claude Code accepts it; null when missing or invalid. */
export function parseSyncedMeta(text: string | null): SyncedMeta | null {
  const parsed = parseWith(syncedMetaSchema, text);
  return parsed ? { syncedFrom: parsed.syncedFrom } : null;
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
