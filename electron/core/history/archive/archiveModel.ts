import type { SubagentMeta } from '../../layout/subagentFiles';
import type { HeadStamp } from './archiveHeadStamp';

/** Where a transcript lives in Claude Code's layout: the session's own file, or a sub-agent's in one of two layouts. */
export type ArchivedLayout = 'session' | 'subagents-folder' | 'sibling';

/** A file's identity and version as the catalog keys it (device + inode, size, mtime). */
export interface SourceIdentity {
  readonly fileId: string;
  readonly size: number;
  readonly mtimeNs: string;
  readonly mtimeMs: number;
}

/**
 * One frame of a data file: `[offset in the transcript, offset in the data file, length, stored length, CRC-32]`.
 * A tuple, not an object: a big archive holds thousands, and the manifest is written after every run.
 */
export type FrameRef = readonly [number, number, number, number, number];

export const FRAME_AT = 0;
export const FRAME_POSITION = 1;
export const FRAME_LENGTH = 2;
export const FRAME_STORED = 3;
export const FRAME_CRC = 4;

/** What the `.meta.json` beside a sub-agent file said when it was archived (as the transcript viewer reads it). */
export type ArchivedAgentMeta = SubagentMeta;

/** One transcript in the archive: where it was, which data file holds it, and how far it is archived. */
export interface ArchivedFileRecord {
  readonly path: string;
  readonly configRoot: string;
  readonly slug: string;
  readonly sessionId: string;
  /** Null for the session's own transcript. */
  readonly agentId: string | null;
  readonly layout: ArchivedLayout;
  /** The data file's name in the archive's `transcripts/` folder; a rewrite of the transcript starts a new one. */
  readonly dataFile: string;
  /** Bytes of the transcript archived (a prefix of the file, the whole file once up to date). */
  readonly bytes: number;
  /** The data file's size. */
  readonly compressedBytes: number;
  readonly frames: readonly FrameRef[];
  /**
   * The first bytes archived, as a stamp (see archiveHeadStamp.ts), and hex of the last bytes archived: if either
   * changed on disk, the file was rewritten.
   */
  readonly headStamp: HeadStamp;
  readonly tail: string;
  /** Where the last line of the archived bytes starts (the next run reads it again to find file-history snapshots). */
  readonly lineStart: number;
  /** The file as it was when last archived. */
  readonly source: SourceIdentity;
  readonly meta: ArchivedAgentMeta | null;
  readonly firstArchivedAt: string;
  readonly lastArchivedAt: string;
  /** When the archive first found the file gone from disk; null while it is there. */
  readonly goneSince: string | null;
  /** How often the file was found rewritten (shrunk, replaced) and archived again from its start. */
  readonly rewrites: number;
}

/** A `file-history/<sessionId>/<backupFileName>` backup of a memory file (what `/rewind` restores), kept compressed. */
export interface ArchivedBackupRecord {
  readonly configRoot: string;
  readonly sessionId: string;
  readonly backupFileName: string;
  /** The memory file path the snapshot line named for it (as Claude Code wrote it). */
  readonly trackedPath: string;
  readonly dataFile: string;
  readonly bytes: number;
  readonly compressedBytes: number;
  readonly frame: FrameRef;
  readonly archivedAt: string;
}

/** A transcript the user let go (pruned, or over the size cap): not archived again unless it changes. */
export interface ReleasedRecord {
  readonly path: string;
  readonly mtimeMs: number;
  readonly releasedAt: string;
}

export const ARCHIVE_MANIFEST_FORMAT = 'ccmem-transcript-archive-1';

export interface ArchiveManifest {
  readonly files: readonly ArchivedFileRecord[];
  readonly backups: readonly ArchivedBackupRecord[];
  readonly released: readonly ReleasedRecord[];
}

/** What the description frame at the start of a data file says, so the manifest can be rebuilt without it. */
export type DataFileDescription =
  | {
      readonly kind: 'transcript';
      readonly path: string;
      readonly configRoot: string;
      readonly slug: string;
      readonly sessionId: string;
      readonly agentId: string | null;
      readonly layout: ArchivedLayout;
      readonly meta: ArchivedAgentMeta | null;
      readonly createdAt: string;
    }
  | {
      readonly kind: 'file-history';
      readonly configRoot: string;
      readonly sessionId: string;
      readonly backupFileName: string;
      readonly trackedPath: string;
      readonly createdAt: string;
    };
