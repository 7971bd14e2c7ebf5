import type { MemoryFolderRef } from '../memory/memoryFolderRef';

/** Who changed a memory file (the same closed list the history journal stores). */
export const CHANGE_CAUSES = ['app-edit', 'session', 'extraction', 'dream', 'external'] as const;
export type ChangeCause = (typeof CHANGE_CAUSES)[number];

export const CAUSE_LABELS: Readonly<Record<ChangeCause, string>> = {
  'app-edit': 'Edited here',
  session: 'Claude Code session',
  extraction: 'Memory extraction',
  dream: 'Dream',
  external: 'Outside change',
};

export type FileChangeKind = 'added' | 'modified' | 'deleted';

/**
 * How sure history is of a version: `exact` when its bytes are known (or it is a deletion), `inferred` when
 * only the fact of a change is known (an extraction or a dream reported a file, a transcript shows an edit
 * that could not be replayed). An inferred version has no bytes: it can be shown, never restored.
 */
export const CERTAINTIES = ['exact', 'inferred'] as const;
export type Certainty = (typeof CERTAINTIES)[number];

/** A place in a transcript: enough to open the viewer there. `line` counts from 1 in the session's main file. */
export interface TranscriptPlace {
  readonly configRoot: string;
  readonly slug: string;
  readonly sessionId: string;
  /** The line in the session's transcript, or null when the evidence sits in a sub-agent's file. */
  readonly line: number | null;
  /** The uuid of the entry the evidence was found in. */
  readonly uuid: string | null;
  /** Set when the evidence came from a sub-agent transcript (agent memory is written by sub-agents). */
  readonly agentId: string | null;
}

/** Why a change was given its cause: what was found, and where. */
export type ChangeEvidence =
  | { readonly kind: 'app-edit'; readonly summary: string }
  | {
      readonly kind: 'session';
      readonly tool: string;
      readonly place: TranscriptPlace;
      /** The uuid of the prompt that started the turn, when it was found. */
      readonly turnUuid: string | null;
      /** The tool call's content matched the new version byte for byte (Write) or contained the new text (Edit). */
      readonly contentMatched: boolean;
    }
  | {
      readonly kind: 'extraction';
      readonly reason: 'memory-saved' | 'end-of-turn';
      readonly place: TranscriptPlace;
    }
  | {
      readonly kind: 'dream';
      /** The `.consolidate-lock` mtime that moved when the dream started, if it was seen to move. */
      readonly lockTakenAt: string | null;
      /** The lock's mtime before this dream took it: the previous consolidation, as Claude Code counts sessions from it. */
      readonly previousConsolidationAt: string | null;
      readonly holderPid: number | null;
      /** The `memory_saved` entry with verb "Improved" that Claude Code appended afterwards, if found. */
      readonly improved: TranscriptPlace | null;
    }
  | { readonly kind: 'external'; readonly note: string }
  | { readonly kind: 'first-sight'; readonly rebuilt: boolean }
  | {
      /** Nothing but the file's own frontmatter says who wrote it (its transcript is gone, or never held the write). */
      readonly kind: 'frontmatter';
      readonly originSessionId: string;
      /** `metadata.modified` as the file states it, when it has one. */
      readonly modified: string | null;
    };

/** One file's part in a change set: where it started and where it ended. */
export interface FileChangeSummary {
  /** Relative to the memory folder, forward slashes. */
  readonly path: string;
  readonly kind: FileChangeKind;
  /** sha256 of the version before the change set, or null when the file did not exist. */
  readonly before: string | null;
  /** sha256 of the version after it, or null when the change set deleted the file. */
  readonly after: string | null;
  readonly linesAdded: number;
  readonly linesRemoved: number;
  /** `inferred` when the bytes after the change are not known (then `after` is null and lines count 0). */
  readonly certainty: Certainty;
  /** Why the story of this file has a hole here (an edit that does not replay, a change with no trace), or null. */
  readonly gap: string | null;
}

export interface ChangeSetTotals {
  readonly added: number;
  readonly modified: number;
  readonly deleted: number;
  readonly linesAdded: number;
  readonly linesRemoved: number;
}

/** Changes that belong together: a dream, one turn's writes, a prune, one outside edit. */
export interface ChangeSetSummary {
  readonly id: string;
  /** When the change happened, as well as it can be told (file times; the time it was seen for deletions). */
  readonly time: string;
  /** When the history recorded it. */
  readonly recordedAt: string;
  readonly cause: ChangeCause;
  /** The session that caused it (session, extraction, or a dream noticed in a session), else null. */
  readonly sessionId: string | null;
  /** The uuid of the prompt that started the turn it happened in (or the turn it followed), when known. */
  readonly turnUuid: string | null;
  /** Rebuilt from what Claude Code left behind (transcripts, file-history, frontmatter) for the time before history started. */
  readonly reconstructed: boolean;
  /** False when only a span is known for when it happened (`time` is then the earliest it can have been). */
  readonly timeKnown: boolean;
  /** The memory folder, absolute. */
  readonly memoryDir: string;
  /** The folder as the UI names it, when it is one the app knows. */
  readonly folder: MemoryFolderRef | null;
  readonly folderLabel: string;
  /** True for the first record of files that were already there: not a change, the start of history. */
  readonly firstSight: boolean;
  /** Found when the app started: it happened while the app was closed. */
  readonly foundAtStartup: boolean;
  readonly summary: string;
  readonly evidence: ChangeEvidence | null;
  readonly files: readonly FileChangeSummary[];
  readonly totals: ChangeSetTotals;
}

/** One recorded version of one file. */
export interface FileVersion {
  readonly changeSetId: string;
  readonly time: string;
  readonly cause: ChangeCause;
  readonly kind: FileChangeKind;
  readonly before: string | null;
  /** The version's hash; null where the file was deleted. */
  readonly after: string | null;
  readonly size: number | null;
  readonly summary: string;
  readonly firstSight: boolean;
  readonly certainty: Certainty;
  readonly reconstructed: boolean;
  readonly sessionId: string | null;
  readonly turnUuid: string | null;
  readonly gap: string | null;
}

export type DreamDecision = 'kept' | 'reverted';

/** A detected consolidation, for review after the fact. */
export interface DreamReviewItem {
  readonly changeSet: ChangeSetSummary;
  /** Sessions of the project written to since the previous consolidation; null when that is not known. */
  readonly sessionsSince: number | null;
  readonly deleted: readonly string[];
  readonly review: { readonly decision: DreamDecision; readonly at: string } | null;
}

/** The reconstruction of the time before history started, from what Claude Code left behind. */
export interface ReconstructionStatus {
  readonly state: 'idle' | 'running' | 'done' | 'failed';
  /** The time of the oldest reconstructed version, or null when none was found. */
  readonly reconstructedFrom: string | null;
  readonly versionCount: number;
  readonly changeSetCount: number;
  /** Transcript files read so far (only appended bytes are ever read again). */
  readonly transcriptsRead: number;
  readonly bytesRead: number;
  readonly bytesTotal: number;
  readonly error: string | null;
}

/** Where history stands: when it starts, and whether older history was lost. */
export interface HistoryStatus {
  /** The time of the first record, or null when nothing is recorded yet. */
  readonly startedAt: string | null;
  /** True when the store had been deleted and was rebuilt from the files as they were: earlier history is gone. */
  readonly rebuilt: boolean;
  readonly rebuiltAt: string | null;
  readonly versionCount: number;
  readonly changeSetCount: number;
  readonly reconstruction: ReconstructionStatus;
}

export interface ChangeSetPage {
  readonly changeSets: readonly ChangeSetSummary[];
  /** How many change sets match the filter in all (the page may hold fewer). */
  readonly total: number;
  readonly status: HistoryStatus;
}

/** The two sides of one file in a diff; texts are null where the file does not exist (or is not text). */
export interface VersionPair {
  readonly path: string;
  readonly before: string | null;
  readonly after: string | null;
  readonly beforeText: string | null;
  readonly afterText: string | null;
  /** True when a side is too large or not UTF-8 text to be shown. */
  readonly binary: boolean;
}

/** One step of a restore or revert; `expected` is the version that must still be on disk for it to go ahead. */
export interface PlannedFileWrite {
  readonly path: string;
  readonly expected: string | null;
  /** The version to write, or null to delete the file. */
  readonly target: string | null;
  readonly linesAdded: number;
  readonly linesRemoved: number;
}

export interface RollbackConflict {
  readonly path: string;
  /** What the plan expected to find, and what is on disk. */
  readonly expected: string | null;
  readonly current: string | null;
  readonly reason: string;
}

/** What a restore or revert does, computed without writing; `conflicts` non-empty means it is refused. */
export interface RollbackPlan {
  readonly memoryDir: string;
  readonly writes: readonly PlannedFileWrite[];
  readonly conflicts: readonly RollbackConflict[];
  /** The unified diff of every write, for `--dry-run` and the confirmation. */
  readonly patch: string;
}

export interface RollbackResult {
  readonly plan: RollbackPlan;
  readonly applied: boolean;
  /** The app-edit change set that recorded it, when something was written. */
  readonly changeSetId: string | null;
}

/** One line of a memory file with the version that brought it in (`git blame` for memory). */
export interface BlameLine {
  /** 1-based. */
  readonly line: number;
  readonly text: string;
  /** The hash of the version that introduced the line; null when that version's bytes are not known. */
  readonly version: string | null;
  readonly changeSetId: string | null;
  readonly time: string | null;
  readonly cause: ChangeCause | null;
  readonly sessionId: string | null;
  readonly turnUuid: string | null;
  /** `inferred` when the line came in somewhere in a stretch of history whose bytes are not all known. */
  readonly certainty: Certainty;
  /** Where to open the transcript at the change that brought the line in, when there is one. */
  readonly place: TranscriptPlace | null;
}

export interface FileBlame {
  /** Relative to the memory folder, forward slashes. */
  readonly path: string;
  readonly memoryDir: string;
  /** The version blamed: the newest one history has (null when the file is deleted or not text). */
  readonly version: string | null;
  readonly lines: readonly BlameLine[];
}

/** Where a memory file came from: the version that created it and the newest one, with their causes. */
export interface FileOrigin {
  readonly path: string;
  readonly created: FileOriginStep | null;
  readonly lastChanged: FileOriginStep | null;
  readonly versionCount: number;
}

export interface FileOriginStep {
  readonly changeSetId: string;
  readonly time: string;
  readonly cause: ChangeCause;
  readonly sessionId: string | null;
  readonly turnUuid: string | null;
  readonly certainty: Certainty;
  readonly reconstructed: boolean;
  readonly place: TranscriptPlace | null;
}

/** What history says one session did to memory: the files its change sets touched (all causes). */
export interface SessionMemoryWrites {
  readonly sessionId: string;
  readonly changeSets: number;
  /** Absolute paths of the memory files changed, sorted. */
  readonly files: readonly string[];
}
