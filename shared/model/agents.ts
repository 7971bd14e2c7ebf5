import type { SnapshotAction } from '../agents/snapshotStatus';
import type { ItemWarning } from './warnings';

export type AgentMemoryScope = 'user' | 'project' | 'local';

/** What Claude Code would do with a project's committed snapshot of this agent's memory (claude-code-state.md §7.6). */
export interface AgentSnapshotStatus {
  /** The committed snapshot folder `<project>/.claude/agent-memory-snapshots/<agentType>/`, when it exists. */
  readonly dir: string | null;
  /** `updatedAt` of a valid `snapshot.json`, else null. */
  readonly updatedAt: string | null;
  /** `syncedFrom` of a valid `.snapshot-synced.json` in the agent's memory folder, else null. */
  readonly syncedFrom: string | null;
  readonly action: SnapshotAction;
}

export interface AgentMemorySummary {
  /**
   * The agent's type: the raw name from its snapshot folder when it has one (`plugin:agent`), otherwise the
   * memory folder's name (where Claude Code writes a plugin agent's ':' as '-').
   */
  readonly agentType: string;
  readonly scope: AgentMemoryScope;
  /** The agent's memory folder; it may not exist yet for an agent that only has a snapshot. */
  readonly dir: string;
  readonly projectPath: string | null;
  /** Every `*.md` in the folder, MEMORY.md included (Claude Code's own test for "has memory"). */
  readonly fileCount: number;
  readonly hasIndex: boolean;
  readonly snapshot: AgentSnapshotStatus;
  /**
   * Which of its folders resolve, through a symlink, outside its project (the config root for user scope): `local`
   * (its memory folder), `snapshot`. Such a folder is listed with an `outside-root` warning and is never read,
   * written or sent to a model; snapshot actions are refused.
   */
  readonly outsideRoot: readonly SnapshotSide[];
  readonly warnings: readonly ItemWarning[];
}

/** Names one agent memory row: its memory folder, which the engine checks against what it discovered. */
export interface AgentRef {
  readonly dir: string;
}

/** One file on one side of a snapshot comparison. */
export interface SnapshotFileFacts {
  /** sha256 of the bytes, hex. */
  readonly hash: string;
  readonly size: number;
  /** The text, for showing a diff; null when the file is binary, not UTF-8 or too large to show. */
  readonly text: string | null;
}

export type SnapshotFileState = 'same' | 'changed' | 'snapshot-only' | 'local-only';

export interface SnapshotDiffEntry {
  readonly name: string;
  readonly state: SnapshotFileState;
  readonly local: SnapshotFileFacts | null;
  readonly snapshot: SnapshotFileFacts | null;
}

/** The snapshot and the local memory of one project agent, file by file (top-level files only, as Claude Code copies them). */
export interface AgentSnapshotDiff {
  readonly agent: AgentMemorySummary;
  readonly entries: readonly SnapshotDiffEntry[];
  /** Changes whenever either side changes on disk; pass it back with an action to refuse acting on a stale view. */
  readonly token: string;
  readonly warnings: readonly ItemWarning[];
}

export const SNAPSHOT_COMMANDS = ['create', 'initialize', 'replace', 'mark-synced', 'merge'] as const;
export type SnapshotCommand = (typeof SNAPSHOT_COMMANDS)[number];

export type SnapshotSide = 'local' | 'snapshot';

/** One step of a snapshot action; `replaces` is the hash of the file it overwrites (null: creates it). */
export type SnapshotOperation =
  | { readonly kind: 'copy'; readonly to: SnapshotSide; readonly name: string; readonly hash: string; readonly replaces: string | null }
  | { readonly kind: 'delete'; readonly from: SnapshotSide; readonly name: string; readonly hash: string }
  | {
      readonly kind: 'write-meta';
      readonly to: SnapshotSide;
      readonly name: string;
      readonly text: string;
      readonly replaces: string | null;
    };

export interface SnapshotRefusal {
  readonly code: 'INVALID_INPUT' | 'NOT_FOUND' | 'CONFLICT' | 'FORBIDDEN';
  readonly message: string;
  /** For a refused snapshot: which files hold which secrets. */
  readonly secrets?: readonly SnapshotSecret[];
}

export interface SnapshotSecret {
  readonly name: string;
  readonly line: number;
  readonly kind: string;
}

/**
 * The committed snapshot is newer than what local memory last synced from — a teammate's update not pulled into it —
 * and creating the snapshot now would overwrite or delete these files of theirs.
 */
export interface SnapshotNewerWarning {
  readonly snapshotUpdatedAt: string;
  /** What local memory last synced from, or null when it never did. */
  readonly syncedFrom: string | null;
  /** Snapshot files the action would overwrite or delete. */
  readonly files: readonly string[];
}

/** What an action would do, computed without touching anything: the dry run and the confirmation dialog both show it. */
export interface SnapshotPlan {
  readonly command: SnapshotCommand;
  readonly agentDir: string;
  readonly snapshotDir: string;
  /** The `updatedAt` the snapshot ends with (create) or the one being synced from; null when there is none. */
  readonly updatedAt: string | null;
  readonly operations: readonly SnapshotOperation[];
  readonly refusal: SnapshotRefusal | null;
  /** Set when the action would overwrite a newer snapshot: it only runs when the person says so, after seeing the merge. */
  readonly newerSnapshot: SnapshotNewerWarning | null;
}

export interface SnapshotActionResult {
  readonly plan: SnapshotPlan;
  /** The agent as it is after the action. */
  readonly agent: AgentMemorySummary;
}
