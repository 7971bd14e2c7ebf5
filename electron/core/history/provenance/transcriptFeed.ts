import { promises as fs, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { isSessionFileName, sessionIdFromFileName } from '../../../../shared/claude/sessionFiles';
import { readJsonlLines, ReadBuffers } from '../../jsonl/fileLineReader';
import { mapLimit } from '../../async/mapLimit';
import { isUuid } from '../../../../shared/claude/sessionIds';

/** A project folder under `projects/` whose transcripts may hold memory writes. */
export interface TranscriptProject {
  readonly configRoot: string;
  readonly slug: string;
  /** `<configRoot>/projects/<slug>` */
  readonly dir: string;
}

/** One transcript: a session's main file or one of its sub-agents' files. */
export interface TranscriptRef {
  /** Where it is (or was, for an archived copy): the key its read position is kept under. */
  readonly path: string;
  readonly configRoot: string;
  readonly slug: string;
  /** The session; '' for a 2.0 sub-agent file beside the sessions (its lines carry the parent's id). */
  readonly sessionId: string;
  /** The sub-agent's id for `agent-<id>.jsonl` files, else null. */
  readonly agentId: string | null;
  readonly size: number;
  readonly mtimeMs: number;
}

export interface LineRead {
  /** The offset after the last complete line: where the next read starts. */
  readonly offset: number;
  /** Lines before `offset`. */
  readonly lines: number;
  /** Up to 32 bytes just before `offset`, to notice a file rewritten rather than appended to. */
  readonly tail: Buffer;
}

/**
 * Where reconstruction reads transcripts and file-history backups from. The disk is one source; a copy of
 * transcripts Claude Code has since deleted (an archive in the app's data folder) can be another, as long
 * as it hands out the same bytes under the same path.
 */
export interface TranscriptFeed {
  /** Every transcript of these project folders: sessions, their sub-agents (every layout), orphaned sub-agent runs. */
  list(projects: readonly TranscriptProject[]): Promise<TranscriptRef[]>;
  /** Streams the complete lines from `from.offset` (a line boundary a previous read returned). */
  readLines(
    ref: TranscriptRef,
    from: { readonly offset: number; readonly lines: number },
    onLine: (line: Buffer, lineNumber: number) => void,
    signal?: AbortSignal,
  ): Promise<LineRead>;
  /** The `length` bytes before `offset`, to compare with a saved tail; null when the file cannot be read. */
  readTail(ref: TranscriptRef, offset: number, length: number): Promise<Buffer | null>;
  /** A file-history backup (`file-history/<sessionId>/<name>`), or null when it is gone. */
  readBackup(configRoot: string, sessionId: string, backupFileName: string): Promise<Buffer | null>;
}

const AGENT_FILE = /^agent-(.+)\.jsonl$/;
const BACKUP_NAME = /^[0-9a-zA-Z_.@-]{1,200}$/;
/** Bytes kept before a read position to notice a rewrite; every feed reads the same number. */
export const TAIL_BYTES = 32;
/** Memory backups are small; anything bigger is not a memory file Claude Code backed up. */
const MAX_BACKUP_BYTES = 8 * 1024 * 1024;

async function entriesOf(dir: string): Promise<Dirent[]> {
  try {
    return await fs.readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

interface Candidate {
  readonly path: string;
  readonly project: TranscriptProject;
  readonly sessionId: string;
  readonly agentId: string | null;
}

/** Sub-agent transcripts under a session folder (2.1.2+), workflow runs included. */
async function subagentFiles(project: TranscriptProject, sessionId: string): Promise<Candidate[]> {
  const found: Candidate[] = [];
  const visit = async (dir: string, depth: number): Promise<void> => {
    for (const entry of await entriesOf(dir)) {
      const match = AGENT_FILE.exec(entry.name);
      if (match && entry.isFile()) found.push({ path: join(dir, entry.name), project, sessionId, agentId: match[1] });
      else if (entry.isDirectory() && depth < 3) await visit(join(dir, entry.name), depth + 1);
    }
  };
  await visit(join(project.dir, sessionId, 'subagents'), 0);
  return found;
}

/** The transcripts as they are on disk now. */
export class DiskTranscriptFeed implements TranscriptFeed {
  private readonly buffers = new ReadBuffers();

  async list(projects: readonly TranscriptProject[]): Promise<TranscriptRef[]> {
    const candidates: Candidate[] = [];
    for (const project of projects) {
      const sessionDirs: string[] = [];
      for (const entry of await entriesOf(project.dir)) {
        if (entry.isFile() && isSessionFileName(entry.name))
          candidates.push({ path: join(project.dir, entry.name), project, sessionId: sessionIdFromFileName(entry.name), agentId: null });
        else if (entry.isFile() && AGENT_FILE.test(entry.name))
          candidates.push({
            path: join(project.dir, entry.name),
            project,
            sessionId: '',
            agentId: AGENT_FILE.exec(entry.name)?.[1] ?? null,
          });
        else if (entry.isDirectory() && isUuid(entry.name)) sessionDirs.push(entry.name);
      }
      for (const sessionId of sessionDirs) candidates.push(...(await subagentFiles(project, sessionId)));
    }
    const stats = await mapLimit(candidates, 16, (c) => fs.stat(c.path).catch(() => null));
    const refs: TranscriptRef[] = [];
    candidates.forEach((c, index) => {
      const stat = stats[index];
      if (!stat?.isFile()) return;
      refs.push({
        path: c.path,
        configRoot: c.project.configRoot,
        slug: c.project.slug,
        sessionId: c.sessionId,
        agentId: c.agentId,
        size: stat.size,
        mtimeMs: stat.mtimeMs,
      });
    });
    return refs;
  }

  async readLines(
    ref: TranscriptRef,
    from: { readonly offset: number; readonly lines: number },
    onLine: (line: Buffer, lineNumber: number) => void,
    signal?: AbortSignal,
  ): Promise<LineRead> {
    const result = await readJsonlLines(ref.path, {
      fromOffset: from.offset,
      linesBefore: from.lines,
      onLine,
      signal,
      tailBytes: TAIL_BYTES,
      sizeHint: ref.size,
      buffers: this.buffers,
    });
    return { offset: result.offset, lines: result.lines, tail: result.tail };
  }

  async readTail(ref: TranscriptRef, offset: number, length: number): Promise<Buffer | null> {
    const handle = await fs.open(ref.path, 'r').catch(() => null);
    if (!handle) return null;
    try {
      const start = Math.max(0, offset - length);
      const buffer = Buffer.alloc(offset - start);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, start);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  async readBackup(configRoot: string, sessionId: string, backupFileName: string): Promise<Buffer | null> {
    if (!isUuid(sessionId) || !BACKUP_NAME.test(backupFileName) || backupFileName.includes('..')) return null;
    const path = join(configRoot, 'file-history', sessionId, backupFileName);
    try {
      const stat = await fs.lstat(path);
      if (!stat.isFile() || stat.size > MAX_BACKUP_BYTES) return null;
      return await fs.readFile(path);
    } catch {
      return null;
    }
  }
}
