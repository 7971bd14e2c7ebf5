import { errorCode } from '../fs/readSafely';
import { openFromDisk, type RandomAccessSource, type SourceOpener } from '../fs/randomAccessSource';
import { readLines, type LineReadResult, type LineVisitor } from '../jsonl/sourceLineReader';
import type { SubagentMeta } from '../layout/subagentFiles';

/** An archived sub-agent transcript of a session (its file may be gone from disk). */
export interface ArchivedSubagentFile {
  readonly agentId: string;
  readonly path: string;
  readonly layout: 'subagents-folder' | 'sibling-file';
  readonly meta: SubagentMeta | null;
}

/** An archived transcript as the viewer needs to know it. */
export interface ArchivedTranscriptInfo {
  readonly configRoot: string;
  readonly slug: string;
  readonly sessionId: string;
  /** Bytes archived. */
  readonly bytes: number;
  /** When the archive found the file deleted from disk; null while it is there. */
  readonly goneSince: string | null;
}

/** What the transcript readers ask the archive (history/archive's TranscriptArchive answers it). */
export interface TranscriptArchiveLookup {
  /** The archived copy of a transcript, read by byte offset; null when there is none. */
  openSource(path: string): Promise<RandomAccessSource | null>;
  /** What the archive holds of a transcript; null when nothing. */
  archivedTranscript(path: string): Promise<ArchivedTranscriptInfo | null>;
  /** The archived sub-agent transcripts of a session but those at `onDisk` (which are read from the disk). */
  archivedSubagents(
    configRoot: string,
    slug: string,
    sessionId: string,
    onDisk: ReadonlySet<string>,
  ): Promise<readonly ArchivedSubagentFile[]>;
  /** Where sessions with this id are archived (their own transcript). */
  archivedSessions(sessionId: string): Promise<readonly { readonly configRoot: string; readonly slug: string }[]>;
}

/**
 * Where transcripts are read from: the file on disk, or, once Claude Code deleted it (`cleanupPeriodDays`), the app's
 * archived copy, which reads the same bytes by the same offsets. Every transcript reader opens through `open`, so
 * it needs no other change to go on from the archive. Also the "path → lines" reader other features build on.
 */
export class TranscriptSources {
  constructor(readonly archive: TranscriptArchiveLookup | null = null) {}

  /** The file if it is on disk, else its archived copy; rejects with the disk's error (`ENOENT`) when neither exists. */
  readonly open: SourceOpener = async (path) => {
    try {
      return await openFromDisk(path);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT' || !this.archive) throw error;
      const archived = await this.archive.openSource(path);
      if (!archived) throw error;
      return archived;
    }
  };

  /** The archived copy of a transcript that is no longer on disk; null while the file is there or when none is kept. */
  async archivedOnly(path: string): Promise<ArchivedTranscriptInfo | null> {
    if (!this.archive) return null;
    try {
      await (await openFromDisk(path)).close();
      return null;
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') return null;
    }
    return this.archive.archivedTranscript(path);
  }

  /**
   * Streams the complete lines of a transcript from `start` (on disk or archived): each line's bytes (without its
   * newline), offset, length and 1-based number; a last line still being written is held back.
   */
  async readLines(
    path: string,
    options: { readonly start?: number; readonly firstLineNumber?: number },
    visit: LineVisitor,
  ): Promise<LineReadResult> {
    const source = await this.open(path);
    try {
      const { size } = await source.stat();
      return await readLines(source, { start: options.start ?? 0, end: size, firstLineNumber: options.firstLineNumber ?? 1 }, visit);
    } finally {
      await source.close();
    }
  }
}

/** Reads from disk only (no archive): the default of every reader, and what tests and benchmarks use. */
export const DISK_SOURCES = new TranscriptSources(null);
