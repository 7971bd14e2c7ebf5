import type { PatchHunk, TextEdit } from './textEdits';

/**
 * What Claude Code left behind about memory writes, copied out of the transcripts and file-history into the
 * app's data folder once, so it outlives Claude Code's cleanup of old transcripts (`cleanupPeriodDays`).
 * Texts are kept inline: memory files are small, and a record must never depend on a file that may vanish.
 */

/** The transcript a record was found in. Sub-agent files carry their parent session's id. */
export interface EvidenceSource {
  readonly path: string;
  readonly configRoot: string;
  readonly slug: string;
  readonly sessionId: string;
  readonly agentId: string | null;
}

interface RecordBase {
  readonly v: 1;
  /** `<transcript path>#<line>:<n>`: the same line read twice gives the same id (the later record wins). */
  readonly id: string;
  readonly source: EvidenceSource;
  /** 1-based line in the transcript file. */
  readonly line: number;
  readonly timeMs: number;
  readonly uuid: string | null;
  /** The prompt that started the turn (for a sub-agent: the parent session's turn), when known. */
  readonly turnUuid: string | null;
}

/** A Write, Edit or MultiEdit call naming a file in a memory folder (or a Bash/PowerShell call removing one). */
export interface CallRecord extends RecordBase {
  readonly kind: 'call';
  readonly tool: string;
  readonly toolUseId: string;
  /** The path as the call typed it (any OS's separators). */
  readonly filePath: string;
  /** The session's working folder, for relative paths. */
  readonly cwd: string | null;
  /** A Write's content as sent (Claude Code may stamp its frontmatter before writing: see the result). */
  readonly content: string | null;
  readonly edits: readonly TextEdit[] | null;
  /** A shell call's command (removing memory files). */
  readonly command: string | null;
}

/** The result of a call above, found by its tool_use_id. */
export interface ResultRecord extends RecordBase {
  readonly kind: 'result';
  readonly toolUseId: string;
  readonly ok: boolean;
  /** `create` or `update` for a Write. */
  readonly writeType: string | null;
  /** The bytes a Write really wrote (`toolUseResult.content`, frontmatter stamp included). */
  readonly content: string | null;
  /** The whole file before the call (`originalFile`, `originalFileContents`). */
  readonly original: string | null;
  readonly hunks: readonly PatchHunk[] | null;
}

/** `system/memory_saved`: extraction (no verb) or a dream (`verb: "Improved"`) saved these files. */
export interface SavedRecord extends RecordBase {
  readonly kind: 'saved';
  readonly verb: string | null;
  readonly writtenPaths: readonly string[];
}

/** A file-history backup: the file's bytes (or its absence) at `timeMs`, taken before the session edited it. */
export interface BackupRecord extends RecordBase {
  readonly kind: 'backup';
  readonly filePath: string;
  readonly cwd: string | null;
  /** `<hash>@v<n>`, or null when the file did not exist then. */
  readonly backupFileName: string | null;
  /** The backup's text; null when the file did not exist, or the backup was gone or not text when read. */
  readonly text: string | null;
  /** True when a backup was named but could not be read (its bytes are unknown). */
  readonly unreadable: boolean;
}

export type EvidenceRecord = CallRecord | ResultRecord | SavedRecord | BackupRecord;

const KINDS = new Set(['call', 'result', 'saved', 'backup']);

export function isEvidenceRecord(value: unknown): value is EvidenceRecord {
  const r = value as Partial<RecordBase & { kind: string }> | null;
  return (
    typeof r === 'object' &&
    r !== null &&
    r.v === 1 &&
    typeof r.id === 'string' &&
    typeof r.kind === 'string' &&
    KINDS.has(r.kind) &&
    typeof r.timeMs === 'number' &&
    typeof r.line === 'number' &&
    typeof r.source === 'object' &&
    r.source !== null &&
    typeof r.source.sessionId === 'string'
  );
}
