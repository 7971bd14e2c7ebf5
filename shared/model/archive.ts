/** Claude Code deletes sessions whose transcript was last changed more than this many days ago, unless set otherwise. */
export const DEFAULT_CLEANUP_PERIOD_DAYS = 30;

/** A retention shorter than this is worth a warning: the app must run (or `ccmem archive`) within it to keep everything. */
export const SHORT_CLEANUP_PERIOD_DAYS = 30;

/** What one config root's `settings.json` says about Claude Code's cleanup. */
export interface CleanupSetting {
  readonly configRoot: string;
  readonly settingsPath: string;
  /** As set in the file; null when it is not set (Claude Code then uses 30 days). */
  readonly cleanupPeriodDays: number | null;
  /** What Claude Code applies: the value set, or 30. */
  readonly effectiveDays: number;
}

/** One project's share of the archive. */
export interface ArchivedProjectSummary {
  readonly configRoot: string;
  readonly slug: string;
  readonly sessions: number;
  /** Sessions whose transcript Claude Code deleted: the archive holds the only copy. */
  readonly deletedSessions: number;
  readonly bytes: number;
  readonly compressedBytes: number;
  /** Last activity (ISO) of its oldest and newest archived sessions. */
  readonly oldest: string | null;
  readonly newest: string | null;
  /** Whether the project's folder still has transcripts on disk (a project deleted on purpose has none). */
  readonly transcriptsOnDisk: boolean;
}

/** A background archiving run: how far it got. */
export interface ArchiveProgress {
  readonly running: boolean;
  readonly filesDone: number;
  readonly filesTotal: number;
  readonly bytesDone: number;
  readonly bytesTotal: number;
  readonly cancelled: boolean;
}

/** The archive's settings, kept in the app data folder. */
export interface ArchiveSettings {
  /** Off: nothing new is archived; what is archived stays readable until pruned. */
  readonly enabled: boolean;
  /** The most the archive may take on disk (compressed); the sessions with the oldest activity go first. Null: no cap. */
  readonly maxBytes: number | null;
}

/** What the archive holds, how it is set, and how Claude Code's cleanup is set. */
export interface ArchiveStatus extends ArchiveSettings {
  /** The archive's folder in the app data folder. */
  readonly dir: string;
  readonly sessions: number;
  readonly deletedSessions: number;
  /** Transcript files (sessions and sub-agents). */
  readonly files: number;
  readonly fileHistoryBackups: number;
  /** Bytes held before compression, and what they take on disk. */
  readonly bytes: number;
  readonly compressedBytes: number;
  /** Last activity (ISO) of the oldest session held; null when empty. */
  readonly oldest: string | null;
  /** The shortest retention Claude Code applies over the config roots (30 when none is set). */
  readonly cleanupPeriodDays: number;
  readonly cleanup: readonly CleanupSetting[];
  /** Plain-language warnings: a short or zero `cleanupPeriodDays`, the archive off. */
  readonly warnings: readonly string[];
  readonly projects: readonly ArchivedProjectSummary[];
  /** The running (or last) archiving run; null before the first. */
  readonly progress: ArchiveProgress | null;
  /** When the last archiving run finished (ISO); null before the first in this process. */
  readonly lastRunAt: string | null;
}

/** What a prune or a project deletion freed. */
export interface ArchiveRemovalResult {
  readonly sessions: number;
  readonly files: number;
  readonly compressedBytes: number;
  readonly status: ArchiveStatus;
}
