import type { ChangeCause } from './historyModel';

export const BACKUP_FORMAT = 'claude-memory-manager/memory-backup';

/** An archive bigger than this (packed or unpacked) is not a memory backup; refusing it keeps a crafted file from filling memory. */
export const MAX_BACKUP_ARCHIVE_BYTES = 64 * 1024 * 1024;
/** The same limit for an archive as base64, as requests carry it. */
export const MAX_BACKUP_ARCHIVE_BASE64 = Math.ceil(MAX_BACKUP_ARCHIVE_BYTES / 3) * 4;

/** One journal line as a backup carries it, so the archive keeps where each file came from. */
export interface BackupHistoryLine {
  readonly changeSetId: string;
  readonly time: string;
  readonly cause: ChangeCause;
  readonly summary: string;
  readonly path: string;
  readonly before: string | null;
  readonly after: string | null;
}

/** `history-manifest.json` inside a backup archive. */
export interface BackupManifest {
  readonly format: typeof BACKUP_FORMAT;
  readonly version: 1;
  readonly exportedAt: string;
  /** The moment the files are as of: the export time for "now", or the chosen time. */
  readonly asOf: string;
  readonly source: { readonly memoryDir: string; readonly label: string };
  readonly files: readonly { readonly path: string; readonly sha256: string; readonly size: number }[];
  readonly history: readonly BackupHistoryLine[];
}

export interface BackupExport {
  readonly fileName: string;
  /** The `.tar.gz` archive, base64-encoded for the trip to the renderer. */
  readonly base64: string;
  readonly fileCount: number;
  readonly asOf: string;
}

export type ImportFileStatus = 'new' | 'same' | 'changed' | 'refused';

export interface ImportFilePreview {
  readonly path: string;
  readonly status: ImportFileStatus;
  /** The version in the target folder now (the base the import will check), or null when absent. */
  readonly current: string | null;
  readonly archived: string;
  readonly currentText: string | null;
  readonly archivedText: string | null;
  readonly linesAdded: number;
  readonly linesRemoved: number;
  /** Why a file is refused (a path outside the folder, a symlink in the way, …). */
  readonly reason: string | null;
}

export interface ImportPreview {
  readonly memoryDir: string;
  readonly manifest: Pick<BackupManifest, 'exportedAt' | 'asOf' | 'source'> | null;
  readonly files: readonly ImportFilePreview[];
  /** Files in the target folder that the archive does not hold: left as they are. */
  readonly untouched: readonly string[];
  /** Archive entries that are not memory files: never extracted. */
  readonly skipped: readonly string[];
}

export interface ImportResult {
  readonly written: readonly string[];
  readonly changeSetId: string | null;
}
