import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { errorCode } from '../../fs/readSafely';
import type { RandomAccessSource } from '../../fs/randomAccessSource';
import { readLines } from '../../jsonl/sourceLineReader';
import {
  DiskTranscriptFeed,
  TAIL_BYTES,
  type LineRead,
  type TranscriptFeed,
  type TranscriptProject,
  type TranscriptRef,
} from '../provenance/transcriptFeed';
import type { ArchivedFileRecord } from './archiveModel';

/** What reconstruction asks the transcript archive (TranscriptArchive answers it). */
export interface ArchivedTranscriptStore {
  load(): Promise<void>;
  files(): readonly ArchivedFileRecord[];
  openSource(path: string): Promise<RandomAccessSource | null>;
  readFileHistoryBackup(configRoot: string, sessionId: string, backupFileName: string): Promise<Buffer | null>;
}

function projectKey(configRoot: string, slug: string): string {
  return `${configRoot}\0${slug}`;
}

async function projectFolderExists(configRoot: string, slug: string): Promise<boolean> {
  return fs.stat(join(configRoot, 'projects', slug)).then(
    (stats) => stats.isDirectory(),
    () => false,
  );
}

function notFound(path: string): Error {
  return Object.assign(new Error(`${path} is neither on disk nor archived`), { code: 'ENOENT' });
}

/**
 * Reconstruction's transcripts and file-history backups: from the disk first, and from the app's archive for what
 * Claude Code has deleted since it was archived. The archive hands out the bytes the file had under the path it had,
 * so read positions kept for a file on disk go on from its archived copy, and a history rebuilt after the
 * cleanup tells the same story.
 */
export class ArchiveBackedTranscriptFeed implements TranscriptFeed {
  constructor(
    private readonly archive: ArchivedTranscriptStore,
    private readonly disk: TranscriptFeed = new DiskTranscriptFeed(),
  ) {}

  async list(projects: readonly TranscriptProject[]): Promise<TranscriptRef[]> {
    const refs = await this.disk.list(projects);
    const records = await this.archivedRecords();
    const onDisk = new Set(refs.map((ref) => ref.path));
    const wanted = new Set(projects.map((project) => projectKey(project.configRoot, project.slug)));
    const roots = new Set(projects.map((project) => project.configRoot));
    const folderGone = new Map<string, boolean>();
    for (const record of records) {
      if (onDisk.has(record.path) || record.bytes === 0 || !roots.has(record.configRoot)) continue;
      // A project folder gone whole (a repository sub-folder's sessions, whose memory is the root's) is no project of
      // the home any more; its transcripts still hold writes into folders that are, found by their paths.
      const key = projectKey(record.configRoot, record.slug);
      if (!wanted.has(key) && !folderGone.has(key)) folderGone.set(key, !(await projectFolderExists(record.configRoot, record.slug)));
      if (!wanted.has(key) && !folderGone.get(key)) continue;
      refs.push({
        path: record.path,
        configRoot: record.configRoot,
        slug: record.slug,
        // As the disk lists a 2.0 sub-agent file beside the sessions: its lines name the session.
        sessionId: record.layout === 'sibling' ? '' : record.sessionId,
        agentId: record.agentId,
        size: record.bytes,
        mtimeMs: record.source.mtimeMs,
      });
    }
    return refs;
  }

  async readLines(
    ref: TranscriptRef,
    from: { readonly offset: number; readonly lines: number },
    onLine: (line: Buffer, lineNumber: number) => void,
    signal?: AbortSignal,
  ): Promise<LineRead> {
    try {
      return await this.disk.readLines(ref, from, onLine, signal);
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error;
    }
    const source = await this.archive.openSource(ref.path);
    if (!source) throw notFound(ref.path);
    try {
      const end = Math.min(ref.size, (await source.stat()).size);
      const read = await readLines(
        source,
        { start: from.offset, end, firstLineNumber: from.lines + 1 },
        (bytes, _offset, _length, number) => {
          signal?.throwIfAborted();
          // A line longer than the reader keeps is skipped, as the disk read skips it.
          if (bytes) onLine(bytes, number);
        },
      );
      const offset = read.committedBytes;
      return { offset, lines: read.nextLineNumber - 1, tail: await bytesBefore(source, offset, TAIL_BYTES) };
    } finally {
      await source.close();
    }
  }

  async readTail(ref: TranscriptRef, offset: number, length: number): Promise<Buffer | null> {
    const onDisk = await this.disk.readTail(ref, offset, length);
    if (onDisk) return onDisk;
    const source = await this.archive.openSource(ref.path).catch(() => null);
    if (!source) return null;
    try {
      return await bytesBefore(source, offset, length);
    } finally {
      await source.close();
    }
  }

  async readBackup(configRoot: string, sessionId: string, backupFileName: string): Promise<Buffer | null> {
    const onDisk = await this.disk.readBackup(configRoot, sessionId, backupFileName);
    if (onDisk) return onDisk;
    // A damaged archive holds no backup for us: the version stays unknown, as when nothing kept it.
    return this.archive.readFileHistoryBackup(configRoot, sessionId, backupFileName).catch(() => null);
  }

  /** The archive's transcripts; none when it cannot be read (reconstruction goes on from the disk). */
  private async archivedRecords(): Promise<readonly ArchivedFileRecord[]> {
    try {
      await this.archive.load();
      return this.archive.files();
    } catch {
      return [];
    }
  }
}

/** The `length` bytes before `offset` (fewer at the start of the file). */
async function bytesBefore(source: RandomAccessSource, offset: number, length: number): Promise<Buffer> {
  const start = Math.max(0, offset - length);
  const buffer = Buffer.alloc(offset - start);
  const { bytesRead } = await source.read(buffer, 0, buffer.length, start);
  return buffer.subarray(0, bytesRead);
}
