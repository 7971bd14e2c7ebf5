import type { ArchivedBackupRecord, ArchivedFileRecord } from './archiveModel';

/** One project's share of the archive. */
export interface ArchivedProjectTotals {
  readonly configRoot: string;
  readonly slug: string;
  readonly sessions: number;
  /** Sessions whose own transcript Claude Code deleted: the archive is the only copy. */
  readonly deletedSessions: number;
  readonly bytes: number;
  readonly compressedBytes: number;
  /** Last activity (file mtime) of its oldest and newest archived session. */
  readonly oldestMs: number | null;
  readonly newestMs: number | null;
}

export interface ArchiveTotals {
  readonly sessions: number;
  readonly deletedSessions: number;
  readonly files: number;
  /** Transcript and backup bytes held, before compression; `compressedBytes` is what they take in the archive. */
  readonly bytes: number;
  readonly compressedBytes: number;
  readonly backups: number;
  readonly oldestMs: number | null;
  readonly projects: readonly ArchivedProjectTotals[];
}

/** The archived files of one session (its own transcript and its sub-agents'). */
export interface SessionGroup {
  readonly configRoot: string;
  readonly slug: string;
  readonly sessionId: string;
  readonly files: ArchivedFileRecord[];
  /** The newest mtime of its files when archived: what Claude Code's cleanup and the prune go by. */
  lastActivityMs: number;
}

export function archiveSessionKey(configRoot: string, slug: string, sessionId: string): string {
  return `${configRoot}\0${slug}\0${sessionId}`;
}

/** The archived files grouped by session, keyed by `archiveSessionKey`. */
export function sessionGroups(records: Iterable<ArchivedFileRecord>): Map<string, SessionGroup> {
  const groups = new Map<string, SessionGroup>();
  for (const record of records) {
    const key = archiveSessionKey(record.configRoot, record.slug, record.sessionId);
    let group = groups.get(key);
    if (!group) {
      group = { configRoot: record.configRoot, slug: record.slug, sessionId: record.sessionId, files: [], lastActivityMs: 0 };
      groups.set(key, group);
    }
    group.files.push(record);
    group.lastActivityMs = Math.max(group.lastActivityMs, record.source.mtimeMs);
  }
  return groups;
}

/** A session is deleted once Claude Code removed its own transcript (or, without one archived, all its files). */
export function isDeletedSession(group: SessionGroup): boolean {
  const main = group.files.find((file) => file.agentId === null);
  return main ? main.goneSince !== null : group.files.every((file) => file.goneSince !== null);
}

/** The compressed bytes of a session's file-history backups (they go with it). */
export function backupBytesOf(group: SessionGroup, backups: Iterable<ArchivedBackupRecord>): number {
  let bytes = 0;
  for (const backup of backups)
    if (backup.configRoot === group.configRoot && backup.sessionId === group.sessionId) bytes += backup.compressedBytes;
  return bytes;
}

/** What the archive holds, in all and per project. */
export function archiveTotals(records: readonly ArchivedFileRecord[], backups: readonly ArchivedBackupRecord[]): ArchiveTotals {
  const projects = new Map<string, ArchivedProjectTotals>();
  const sessions = sessionGroups(records);
  let deletedSessions = 0;
  let oldestMs: number | null = null;
  for (const group of sessions.values()) {
    const deleted = isDeletedSession(group);
    if (deleted) deletedSessions++;
    oldestMs = oldestMs === null ? group.lastActivityMs : Math.min(oldestMs, group.lastActivityMs);
    const key = `${group.configRoot}\0${group.slug}`;
    const project = projects.get(key) ?? {
      configRoot: group.configRoot,
      slug: group.slug,
      sessions: 0,
      deletedSessions: 0,
      bytes: 0,
      compressedBytes: 0,
      oldestMs: null,
      newestMs: null,
    };
    projects.set(key, {
      ...project,
      sessions: project.sessions + 1,
      deletedSessions: project.deletedSessions + (deleted ? 1 : 0),
      bytes: project.bytes + group.files.reduce((sum, file) => sum + file.bytes, 0),
      compressedBytes: project.compressedBytes + group.files.reduce((sum, file) => sum + file.compressedBytes, 0),
      oldestMs: project.oldestMs === null ? group.lastActivityMs : Math.min(project.oldestMs, group.lastActivityMs),
      newestMs: project.newestMs === null ? group.lastActivityMs : Math.max(project.newestMs, group.lastActivityMs),
    });
  }
  let bytes = 0;
  let compressedBytes = 0;
  for (const item of [...records, ...backups]) {
    bytes += item.bytes;
    compressedBytes += item.compressedBytes;
  }
  return {
    sessions: sessions.size,
    deletedSessions,
    files: records.length,
    bytes,
    compressedBytes,
    backups: backups.length,
    oldestMs,
    projects: [...projects.values()].sort((a, b) => a.configRoot.localeCompare(b.configRoot) || a.slug.localeCompare(b.slug)),
  };
}
