import { promises as fs } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { CodedError } from '../../../../shared/result';
import { errorCode } from '../../fs/readSafely';
import type { RandomAccessSource } from '../../fs/randomAccessSource';
import type { ArchivedSearchTarget } from '../../search/searchCorpus';
import type { ArchivedSubagentFile, ArchivedTranscriptInfo, TranscriptArchiveLookup } from '../../transcripts/transcriptSources';
import { ArchivedFileSource, readFrame } from './ArchivedFileSource';
import { encodeMetaFrame } from './archiveFrames';
import { headStampLength, headStampOf, NO_HEAD } from './archiveHeadStamp';
import { fileHistoryDir, generationOf, transcriptDataFileName, transcriptsDir } from './archiveDataFiles';
import { manifestPath, readManifest, writeManifest } from './archiveManifestFile';
import { readAgentList, writeAgentList, type ArchivedAgentPaths } from './archivedAgentList';
import { checksummedJsonHash } from '../../fs/checksummedJsonFile';
import { acquireArchiveLock } from './archiveWriteLock';
import {
  type ArchivedBackupRecord,
  type ArchivedFileRecord,
  type ArchivedLayout,
  type ArchiveManifest,
  type DataFileDescription,
  type ReleasedRecord,
  type SourceIdentity,
} from './archiveModel';
import { rebuildManifest, reconcileManifest } from './archiveRecovery';
import { archiveSessionKey, archiveTotals, backupBytesOf, sessionGroups, type ArchiveTotals } from './archiveTotals';
import { archiveFileHistoryBackup } from './fileHistoryBackupWriter';
import { needsRepack, readExactly, repackDataFile, writeFrames } from './transcriptFrameWriter';
import { SnapshotLineCollector } from './fileHistorySnapshots';
import { readMetaSync } from '../../layout/subagentFiles';

/** A long run saves the manifest this often, so a crash loses at most this much work (the frames are re-archived). */
const SAVE_EVERY_MS = 10_000;

/** A transcript on disk as the catalog knows it, to be archived (or found up to date). */
export interface ArchiveCandidate {
  readonly path: string;
  readonly configRoot: string;
  readonly slug: string;
  readonly sessionId: string;
  /** Null for the session's own transcript. */
  readonly agentId: string | null;
  readonly layout: ArchivedLayout;
  /** The file as the catalog last saw it: a file the archive holds in this version is not even opened. */
  readonly identity: SourceIdentity;
  /** The session's folder, against which file-history snapshots may name paths. */
  readonly cwd: string | null;
  /** Whether a path lies in a memory folder: the file-history backups of memory files are kept too. */
  readonly isMemoryPath: (path: string) => boolean;
}

export interface ArchiveProgress {
  readonly filesDone: number;
  readonly filesTotal: number;
  readonly bytesDone: number;
  readonly bytesTotal: number;
}

export interface ArchiveRunOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (progress: ArchiveProgress) => void;
  /**
   * The sessions (`configRoot\0slug\0sessionId`) the candidates cover: archived files of these sessions missing from the
   * candidates are checked on disk and marked gone. Without it the candidates are every transcript on disk.
   */
  readonly sessions?: ReadonlySet<string>;
  /** Wait while another process writes the archive (a command run by hand); otherwise such a run is skipped. */
  readonly waitForLock?: boolean;
  /** Told once when the run waits for another process (its PID, when known). */
  readonly onWaitForLock?: (holderPid: number | null) => void;
}

export interface ArchiveRunResult {
  readonly filesChecked: number;
  /** Files archived from their start, continued, or archived anew after a rewrite. */
  readonly filesArchived: number;
  readonly filesRewritten: number;
  /** Transcript bytes compressed by this run. */
  readonly bytesArchived: number;
  /** Archived files this run found deleted from disk. */
  readonly filesGone: number;
  readonly backupsArchived: number;
  readonly cancelled: boolean;
  /** The PID of another process that was writing the archive, so this run did nothing (0 when unknown); null otherwise. */
  readonly busyWithPid: number | null;
}

const NOTHING_DONE: ArchiveRunResult = {
  filesChecked: 0,
  filesArchived: 0,
  filesRewritten: 0,
  bytesArchived: 0,
  filesGone: 0,
  backupsArchived: 0,
  cancelled: false,
  busyWithPid: null,
};

/** What removing sessions from the archive freed. */
export interface ArchiveRemoval {
  /** The sessions removed (the catalog drops those no longer on disk). */
  readonly removed: readonly { readonly configRoot: string; readonly slug: string; readonly sessionId: string }[];
  readonly sessions: number;
  readonly files: number;
  readonly compressedBytes: number;
}

function sameIdentity(a: SourceIdentity, b: SourceIdentity): boolean {
  return a.fileId === b.fileId && a.size === b.size && a.mtimeNs === b.mtimeNs;
}

function identityOf(stats: { dev: bigint; ino: bigint; size: bigint; mtimeNs: bigint; mtimeMs: bigint }): SourceIdentity {
  return {
    fileId: `${stats.dev}:${stats.ino}`,
    size: Number(stats.size),
    mtimeNs: stats.mtimeNs.toString(),
    mtimeMs: Number(stats.mtimeMs),
  };
}

/**
 * The transcript archive: a compressed copy, in the app data folder, of every session and sub-agent transcript the
 * catalog finds, kept up to date by appending only what a transcript gained, so what Claude Code deletes after
 * `cleanupPeriodDays` can still be read. Also keeps the `file-history` backups that snapshot lines name for memory
 * files. It never writes under a config root.
 *
 * Layout under its folder: `manifest.json` (every archived file, its frames and where it stood on disk), `agents.json`
 * (each session's sub-agent files, saved with the manifest; see archivedAgentList.ts), and data files of independent
 * frames (see archiveFrames.ts) in `transcripts/` and `file-history/`. Reads by byte offset (`openSource`) decode only
 * the frames they touch. Changes are made one at a time.
 */
export class TranscriptArchive implements TranscriptArchiveLookup {
  private records = new Map<string, ArchivedFileRecord>();
  private backups = new Map<string, ArchivedBackupRecord>();
  private released = new Map<string, ReleasedRecord>();
  private loaded: Promise<void> | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  /** `manifest.json` as last read or written here (inode, size, mtime): another process changed it when it differs. */
  private manifestStamp: string | null = null;
  /** Set by every read of the state: the data files are checked against it under the write lock before a change. */
  private needsRepair = true;
  /** The manifest was rebuilt from the data files: the rebuilt one is saved at the next change. */
  private rebuilt = false;
  /** Data files replaced or dropped: removed once a manifest that no longer names them is saved. */
  private obsolete: string[] = [];
  /** The sub-agent list saved with the manifest whose hash it names, read while the manifest is not (null: unusable). */
  private agentList: { readonly manifestSha1: string; readonly pathsOf: ArchivedAgentPaths | null } | null = null;

  constructor(readonly dir: string) {}

  /**
   * Reads the manifest once (rebuilding it in memory from the data files if it is unreadable); later calls share the
   * first. Reads only: repairs wait for the write lock (another process may be writing).
   */
  load(): Promise<void> {
    this.loaded ??= this.readState();
    return this.loaded;
  }

  /** Every archived transcript: on disk still, or only here (`goneSince` set). */
  files(): readonly ArchivedFileRecord[] {
    return [...this.records.values()];
  }

  record(path: string): ArchivedFileRecord | null {
    return this.records.get(path) ?? null;
  }

  fileHistoryBackups(): readonly ArchivedBackupRecord[] {
    return [...this.backups.values()];
  }

  /** Where a record's frames are (for readers that decode them themselves, such as the search threads). */
  dataPath(record: ArchivedFileRecord): string {
    return join(transcriptsDir(this.dir), record.dataFile);
  }

  /** An archived transcript read by byte offset, as it was on disk when last archived; null when not archived. */
  async openSource(path: string): Promise<RandomAccessSource | null> {
    await this.load();
    for (let attempt = 0; attempt < 2; attempt++) {
      const record = this.records.get(path);
      if (!record) return null;
      try {
        return await ArchivedFileSource.open(this.dataPath(record), record.frames, record.bytes, record.source);
      } catch (error) {
        // Archived anew (here or by another process) between the look-up and the open: the manifest names the new file.
        if (errorCode(error) !== 'ENOENT' || attempt > 0) throw error;
        await this.reloadIfChanged();
      }
    }
    return null;
  }

  async archivedTranscript(path: string): Promise<ArchivedTranscriptInfo | null> {
    await this.load();
    const record = this.records.get(path);
    return record
      ? { configRoot: record.configRoot, slug: record.slug, sessionId: record.sessionId, bytes: record.bytes, goneSince: record.goneSince }
      : null;
  }

  /**
   * The archived sub-agent transcripts of a session but those at `onDisk` (read from the disk). Until the manifest is
   * needed for something else, the list saved beside it tells whether there are any: the viewer asks on every first
   * open, and a session with a sub-agent only the archive holds is rare.
   */
  async archivedSubagents(
    configRoot: string,
    slug: string,
    sessionId: string,
    onDisk: ReadonlySet<string>,
  ): Promise<readonly ArchivedSubagentFile[]> {
    if (!this.loaded && (await this.savedAgentPaths(configRoot, slug, sessionId))?.every((path) => onDisk.has(path))) return [];
    await this.load();
    const out: ArchivedSubagentFile[] = [];
    for (const record of this.records.values()) {
      if (record.agentId === null || record.configRoot !== configRoot || record.slug !== slug || record.sessionId !== sessionId) continue;
      if (onDisk.has(record.path)) continue;
      out.push({
        agentId: record.agentId,
        path: record.path,
        layout: record.layout === 'sibling' ? 'sibling-file' : 'subagents-folder',
        meta: record.meta,
      });
    }
    return out.sort((a, b) => a.path.localeCompare(b.path));
  }

  /** A session's archived sub-agent paths by the list saved with the manifest on disk; null when it cannot tell. */
  private async savedAgentPaths(configRoot: string, slug: string, sessionId: string): Promise<readonly string[] | null> {
    const manifestSha1 = await checksummedJsonHash(manifestPath(this.dir));
    if (manifestSha1 === null) return null;
    if (this.agentList?.manifestSha1 !== manifestSha1)
      this.agentList = { manifestSha1, pathsOf: await readAgentList(this.dir, manifestSha1) };
    return this.agentList.pathsOf?.(configRoot, slug, sessionId) ?? null;
  }

  async archivedSessions(sessionId: string): Promise<readonly { configRoot: string; slug: string }[]> {
    await this.load();
    return [...this.records.values()]
      .filter((record) => record.agentId === null && record.sessionId === sessionId)
      .map((record) => ({ configRoot: record.configRoot, slug: record.slug }));
  }

  /** Every archived transcript with where its frames are, for the search threads (which decode them themselves). */
  async searchTargets(): Promise<ArchivedSearchTarget[]> {
    await this.load();
    return [...this.records.values()].map((record) => ({
      path: record.path,
      configRoot: record.configRoot,
      slug: record.slug,
      sessionId: record.sessionId,
      agentId: record.agentId,
      mtimeMs: record.source.mtimeMs,
      archive: { dataPath: this.dataPath(record), size: record.bytes, frames: record.frames },
    }));
  }

  /** A kept file-history backup's bytes; null when the archive has none by that name. */
  async readFileHistoryBackup(configRoot: string, sessionId: string, backupFileName: string): Promise<Buffer | null> {
    await this.load();
    const backup = this.backups.get(this.backupKey(configRoot, sessionId, backupFileName));
    if (!backup) return null;
    const handle = await open(join(fileHistoryDir(this.dir), backup.dataFile), 'r');
    try {
      return await readFrame(handle, backup.frame);
    } finally {
      await handle.close();
    }
  }

  totals(): ArchiveTotals {
    return archiveTotals([...this.records.values()], [...this.backups.values()]);
  }

  /**
   * Archives what the candidates gained since the last run, oldest first (the files Claude Code deletes next), and
   * marks archived files that left the disk. Cancelling stops after the frame being written; what was written counts.
   */
  update(candidates: readonly ArchiveCandidate[], options: ArchiveRunOptions = {}): Promise<ArchiveRunResult> {
    return this.serialize(async () => {
      await this.load();
      const lock = await acquireArchiveLock(this.dir, {
        wait: options.waitForLock ?? false,
        signal: options.signal,
        onWait: options.onWaitForLock,
      });
      if (!lock.acquired) return { ...NOTHING_DONE, busyWithPid: lock.holderPid ?? 0 };
      try {
        await this.beforeChange();
        return await this.runUpdate(candidates, options);
      } finally {
        await lock.release();
      }
    });
  }

  /** Removes the sessions whose last activity is before `before`; files still on disk are not archived again unless they change. */
  prune(before: Date): Promise<ArchiveRemoval> {
    return this.change(() => {
      const keys = [...sessionGroups(this.records.values())]
        .filter(([, group]) => group.lastActivityMs < before.getTime())
        .map(([key]) => key);
      return this.removeSessions(keys, true);
    });
  }

  /** Removes the sessions with the oldest activity until the archive takes no more than `maxBytes`. */
  pruneToSize(maxBytes: number): Promise<ArchiveRemoval> {
    return this.change(() => {
      let total = this.totals().compressedBytes;
      if (total <= maxBytes) return Promise.resolve({ removed: [], sessions: 0, files: 0, compressedBytes: 0 });
      const keys: string[] = [];
      const oldestFirst = [...sessionGroups(this.records.values())].sort(([, a], [, b]) => a.lastActivityMs - b.lastActivityMs);
      for (const [key, group] of oldestFirst) {
        if (total <= maxBytes) break;
        keys.push(key);
        total -= group.files.reduce((sum, file) => sum + file.compressedBytes, 0) + backupBytesOf(group, this.backups.values());
      }
      return this.removeSessions(keys, true);
    });
  }

  /** Removes every archived session of one project (of every config root when `configRoot` is null). */
  deleteProject(configRoot: string | null, slug: string): Promise<ArchiveRemoval> {
    return this.change(() => {
      const keys = [...sessionGroups(this.records.values())]
        .filter(([, group]) => group.slug === slug && (configRoot === null || group.configRoot === configRoot))
        .map(([key]) => key);
      return this.removeSessions(keys, false);
    });
  }

  /** Waits for a running change and saves what it left. */
  async dispose(): Promise<void> {
    await this.queue.catch(() => undefined);
  }

  // --- running ----------------------------------------------------------------------------------------------

  private serialize<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** A change the user asked for (prune, delete): refused at once while another process writes the archive. */
  private change<T>(task: () => Promise<T>): Promise<T> {
    return this.serialize(async () => {
      await this.load();
      const lock = await acquireArchiveLock(this.dir, { wait: false });
      if (!lock.acquired)
        throw new CodedError(
          'LOCK_HELD',
          `Another process${lock.holderPid ? ` (PID ${lock.holderPid})` : ''} is updating the transcript archive; try again when it is done.`,
        );
      try {
        await this.beforeChange();
        return await task();
      } finally {
        await lock.release();
      }
    });
  }

  /** Under the write lock: what another process saved is read, and the data files are checked against it once. */
  private async beforeChange(): Promise<void> {
    await this.reloadIfChanged();
    if (!this.needsRepair) return;
    const { manifest, changed } = await reconcileManifest(this.dir, this.manifest());
    this.apply(manifest);
    this.needsRepair = false;
    if (changed || this.rebuilt) await this.save();
    this.rebuilt = false;
  }

  private manifest(): ArchiveManifest {
    return { files: [...this.records.values()], backups: [...this.backups.values()], released: [...this.released.values()] };
  }

  private apply(manifest: ArchiveManifest): void {
    this.records = new Map(manifest.files.map((record) => [record.path, record]));
    this.backups = new Map(manifest.backups.map((b) => [this.backupKey(b.configRoot, b.sessionId, b.backupFileName), b]));
    this.released = new Map(manifest.released.map((entry) => [entry.path, entry]));
  }

  private async stamp(): Promise<string | null> {
    try {
      const stats = await fs.stat(manifestPath(this.dir));
      return `${stats.ino}:${stats.size}:${stats.mtimeMs}`;
    } catch {
      return null;
    }
  }

  /** Reads the state again when another process saved a manifest since this one last read or wrote it. */
  private async reloadIfChanged(): Promise<void> {
    if ((await this.stamp()) !== this.manifestStamp) await this.readState();
  }

  private async readState(): Promise<void> {
    const stamp = await this.stamp();
    const saved = stamp === null ? null : await readManifest(this.dir);
    if (saved) {
      this.apply(saved);
      this.rebuilt = false;
    } else {
      // No manifest, or one that cannot be trusted: the data files say what the archive holds.
      const rebuilt = await rebuildManifest(this.dir, new Date().toISOString());
      this.apply(rebuilt);
      this.rebuilt = stamp !== null || rebuilt.files.length > 0 || rebuilt.backups.length > 0;
    }
    this.manifestStamp = stamp;
    this.needsRepair = true;
  }

  private async runUpdate(candidates: readonly ArchiveCandidate[], options: ArchiveRunOptions): Promise<ArchiveRunResult> {
    const pending = candidates
      .filter((candidate) => !this.upToDate(candidate))
      .sort((a, b) => a.identity.mtimeMs - b.identity.mtimeMs || a.path.localeCompare(b.path));
    const bytesTotal = pending.reduce((sum, candidate) => sum + this.bytesToArchive(candidate), 0);
    let filesDone = 0;
    let bytesDone = 0;
    const report = (): void => options.onProgress?.({ filesDone, filesTotal: pending.length, bytesDone, bytesTotal });
    report();
    let filesArchived = 0;
    let filesRewritten = 0;
    let filesGone = 0;
    let backupsArchived = 0;
    let cancelled = false;
    let savedAt = Date.now();
    const now = () => new Date().toISOString();
    for (const candidate of pending) {
      if (options.signal?.aborted) {
        cancelled = true;
        break;
      }
      const outcome = await this.archiveFile(candidate, options.signal, (bytes) => {
        bytesDone += bytes;
        report();
      });
      filesDone++;
      if (outcome.kind === 'gone') filesGone++;
      if (outcome.kind === 'created' || outcome.kind === 'appended' || outcome.kind === 'rewritten') filesArchived++;
      if (outcome.kind === 'rewritten') filesRewritten++;
      backupsArchived += await this.archiveBackups(candidate, outcome.backups, now());
      report();
      if (Date.now() - savedAt > SAVE_EVERY_MS) {
        await this.save();
        savedAt = Date.now();
      }
    }
    cancelled ||= options.signal?.aborted ?? false;
    if (!cancelled) filesGone += await this.markGone(candidates, options.sessions ?? null, now());
    await this.save();
    return {
      filesChecked: candidates.length,
      filesArchived,
      filesRewritten,
      bytesArchived: bytesDone,
      filesGone,
      backupsArchived,
      cancelled,
      busyWithPid: null,
    };
  }

  /** The archive holds this version of the file already (or the user released it and it has not changed since). */
  private upToDate(candidate: ArchiveCandidate): boolean {
    const released = this.released.get(candidate.path);
    if (released && candidate.identity.mtimeMs <= released.mtimeMs) return true;
    const record = this.records.get(candidate.path);
    if (!record || !sameIdentity(record.source, candidate.identity) || record.bytes !== candidate.identity.size) return false;
    if (record.goneSince !== null) this.records.set(record.path, { ...record, goneSince: null });
    return true;
  }

  private bytesToArchive(candidate: ArchiveCandidate): number {
    const record = this.records.get(candidate.path);
    const canAppend = record && record.source.fileId === candidate.identity.fileId && candidate.identity.size >= record.bytes;
    return canAppend ? candidate.identity.size - record.bytes : candidate.identity.size;
  }

  private async archiveFile(
    candidate: ArchiveCandidate,
    signal: AbortSignal | undefined,
    onBytes: (bytes: number) => void,
  ): Promise<{ kind: 'unchanged' | 'created' | 'appended' | 'rewritten' | 'gone'; backups: ReadonlyMap<string, string> }> {
    const none = new Map<string, string>();
    let source: FileHandle;
    try {
      source = await open(candidate.path, 'r');
    } catch (error) {
      if (errorCode(error) !== 'ENOENT') throw error;
      const record = this.records.get(candidate.path);
      if (record && record.goneSince === null) this.records.set(record.path, { ...record, goneSince: new Date().toISOString() });
      return { kind: record ? 'gone' : 'unchanged', backups: none };
    }
    try {
      this.released.delete(candidate.path);
      const identity = identityOf(await source.stat({ bigint: true }));
      const record = this.records.get(candidate.path) ?? null;
      let kind: 'created' | 'appended' | 'rewritten';
      if (!record) kind = 'created';
      else if (record.source.fileId === identity.fileId && identity.size >= record.bytes && (await this.prefixUnchanged(source, record)))
        kind = 'appended';
      else kind = 'rewritten';
      const collector = new SnapshotLineCollector(candidate.isMemoryPath, candidate.cwd);
      const written =
        kind === 'appended' && record
          ? await this.append(source, record, identity, collector, signal, onBytes)
          : await this.archiveAnew(source, candidate, record, identity, collector, signal, onBytes);
      const packed = needsRepack(written) ? await this.repack(written) : written;
      this.records.set(packed.path, packed);
      return { kind, backups: collector.found };
    } finally {
      await source.close();
    }
  }

  /** Whether the bytes the archive holds are still the file's first bytes (an append-only transcript keeps them). */
  private async prefixUnchanged(source: FileHandle, record: ArchivedFileRecord): Promise<boolean> {
    const head = await readExactly(source, headStampLength(record.headStamp), 0);
    if (headStampOf(head) !== record.headStamp) return false;
    const tailLength = record.tail.length / 2;
    const tail = await readExactly(source, tailLength, record.bytes - tailLength);
    return tail.toString('hex') === record.tail;
  }

  /** Archives a file from its start into a new data file (first time, or after Claude Code rewrote it). */
  private async archiveAnew(
    source: FileHandle,
    candidate: ArchiveCandidate,
    previous: ArchivedFileRecord | null,
    identity: SourceIdentity,
    collector: SnapshotLineCollector,
    signal: AbortSignal | undefined,
    onBytes: (bytes: number) => void,
  ): Promise<ArchivedFileRecord> {
    const generation = previous ? generationOf(previous.dataFile) + 1 : 0;
    const dataFile = transcriptDataFileName(candidate.path, generation);
    const now = new Date().toISOString();
    const meta = candidate.layout === 'session' ? null : readMetaSync(candidate.path);
    const description: DataFileDescription = {
      kind: 'transcript',
      path: candidate.path,
      configRoot: candidate.configRoot,
      slug: candidate.slug,
      sessionId: candidate.sessionId,
      agentId: candidate.agentId,
      layout: candidate.layout,
      meta,
      createdAt: now,
    };
    const descriptionFrame = encodeMetaFrame(description);
    await fs.mkdir(transcriptsDir(this.dir), { recursive: true });
    const data = await open(join(transcriptsDir(this.dir), dataFile), 'w', 0o600);
    try {
      await data.write(descriptionFrame, 0, descriptionFrame.length, 0);
      const base: ArchivedFileRecord = {
        path: candidate.path,
        configRoot: candidate.configRoot,
        slug: candidate.slug,
        sessionId: candidate.sessionId,
        agentId: candidate.agentId,
        layout: candidate.layout,
        dataFile,
        bytes: 0,
        compressedBytes: descriptionFrame.length,
        frames: [],
        headStamp: NO_HEAD,
        tail: '',
        lineStart: 0,
        source: identity,
        meta,
        firstArchivedAt: previous?.firstArchivedAt ?? now,
        lastArchivedAt: now,
        goneSince: null,
        rewrites: previous ? previous.rewrites + 1 : 0,
      };
      const record = await writeFrames({ source, data, record: base, identity, from: 0, collector, signal, onBytes });
      if (previous) this.obsolete.push(join(transcriptsDir(this.dir), previous.dataFile));
      return record;
    } finally {
      await data.close();
    }
  }

  /** Archives what a file gained since the last run, as new frames at the end of its data file. */
  private async append(
    source: FileHandle,
    record: ArchivedFileRecord,
    identity: SourceIdentity,
    collector: SnapshotLineCollector,
    signal: AbortSignal | undefined,
    onBytes: (bytes: number) => void,
  ): Promise<ArchivedFileRecord> {
    // The last line archived may be a snapshot line still being written: read it again for the collector.
    const rescan = await readExactly(source, record.bytes - record.lineStart, record.lineStart);
    collector.push(rescan);
    const data = await open(this.dataPath(record), 'r+');
    try {
      return await writeFrames({ source, data, record, identity, from: record.bytes, collector, signal, onBytes });
    } finally {
      await data.close();
    }
  }

  /** Packs a data file of many small frames anew; the old one goes once the manifest no longer names it. */
  private async repack(record: ArchivedFileRecord): Promise<ArchivedFileRecord> {
    const packed = await repackDataFile(this.dir, record);
    this.obsolete.push(this.dataPath(record));
    return packed;
  }

  /** Keeps the file-history backups a transcript's snapshot lines named for memory files, once each. */
  private async archiveBackups(candidate: ArchiveCandidate, found: ReadonlyMap<string, string>, now: string): Promise<number> {
    let archived = 0;
    for (const [backupFileName, trackedPath] of found) {
      const key = this.backupKey(candidate.configRoot, candidate.sessionId, backupFileName);
      if (this.backups.has(key)) continue;
      const backup = { configRoot: candidate.configRoot, sessionId: candidate.sessionId, backupFileName, trackedPath };
      const record = await archiveFileHistoryBackup(this.dir, backup, now);
      if (!record) continue;
      this.backups.set(key, record);
      archived++;
    }
    return archived;
  }

  private backupKey(configRoot: string, sessionId: string, backupFileName: string): string {
    return `${configRoot}\0${sessionId}\0${backupFileName}`;
  }

  /** Archived files of the covered sessions (all, without `sessions`) that the candidates left out and the disk lost. */
  private async markGone(candidates: readonly ArchiveCandidate[], sessions: ReadonlySet<string> | null, now: string): Promise<number> {
    const present = new Set(candidates.map((candidate) => candidate.path));
    let gone = 0;
    for (const record of this.records.values()) {
      if (record.goneSince !== null || present.has(record.path)) continue;
      if (sessions && !sessions.has(archiveSessionKey(record.configRoot, record.slug, record.sessionId))) continue;
      try {
        await fs.stat(record.path);
      } catch (error) {
        if (errorCode(error) !== 'ENOENT') continue;
        this.records.set(record.path, { ...record, goneSince: now });
        gone++;
      }
    }
    return gone;
  }

  /** Drops sessions (their transcripts and backups); with `release`, files still on disk are not archived again unchanged. */
  private async removeSessions(keys: readonly string[], release: boolean): Promise<ArchiveRemoval> {
    const wanted = new Set(keys);
    const sessions = new Set<string>();
    let files = 0;
    let compressedBytes = 0;
    const now = new Date().toISOString();
    for (const record of [...this.records.values()]) {
      const key = archiveSessionKey(record.configRoot, record.slug, record.sessionId);
      if (!wanted.has(key)) continue;
      sessions.add(key);
      files++;
      compressedBytes += record.compressedBytes;
      this.records.delete(record.path);
      this.obsolete.push(this.dataPath(record));
      if (release && record.goneSince === null)
        this.released.set(record.path, { path: record.path, mtimeMs: record.source.mtimeMs, releasedAt: now });
    }
    // A session's backups go with it (they are keyed by config root and session id, as Claude Code files them).
    const removedSessions = new Set(
      [...sessions].map((key) => key.split('\0')).map(([configRoot, , sessionId]) => `${configRoot}\0${sessionId}`),
    );
    const stillHeld = new Set([...this.records.values()].map((record) => `${record.configRoot}\0${record.sessionId}`));
    for (const [key, backup] of [...this.backups]) {
      const owner = `${backup.configRoot}\0${backup.sessionId}`;
      if (!removedSessions.has(owner) || stillHeld.has(owner)) continue;
      this.backups.delete(key);
      compressedBytes += backup.compressedBytes;
      this.obsolete.push(join(fileHistoryDir(this.dir), backup.dataFile));
    }
    await this.save();
    const removed = [...sessions].map((key) => {
      const [configRoot, slug, sessionId] = key.split('\0');
      return { configRoot, slug, sessionId };
    });
    return { removed, sessions: sessions.size, files, compressedBytes };
  }

  /** Saves the manifest, then removes the data files it no longer names. */
  private async save(): Promise<void> {
    const manifest = this.manifest();
    await fs.mkdir(this.dir, { recursive: true });
    const manifestSha1 = await writeManifest(this.dir, manifest);
    this.manifestStamp = await this.stamp();
    // Not kept is no loss: a list that names another manifest is not used, and the manifest is read instead.
    await writeAgentList(this.dir, manifestSha1, manifest.files).catch(() => undefined);
    // A file a reader still holds open may refuse to go (Windows): the next load removes what no manifest names.
    for (const path of this.obsolete.splice(0)) await fs.rm(path, { force: true }).catch(() => undefined);
  }
}
