import type { CatalogProgress } from '../../../shared/model/catalog';
import { sessionKeyOf } from '../../../shared/claude/sessionIds';
import { errorCode } from '../fs/readSafely';
import { ReadBuffers } from '../jsonl/fileLineReader';
import { buildOrder, drainQueue, isBigSession } from './buildQueue';
import type { CachedFile, CachedSession } from './catalogCacheSchema';
import {
  newestMtimeMs,
  type DiscoveredFile,
  type DiscoveredProject,
  type DiscoveredSession,
  type DiscoveredSubagentFile,
} from './catalogDiscovery';
import type { ReadContext } from './catalogReadContext';
import { ScanOffload } from './ScanOffload';

/**
 * Files the engine's thread reads at once. Opening and the first chunk are blocking, so more than a few only
 * keeps more half-read aggregates alive long enough to reach the old generation: with 6, the engine's first
 * start on a 2.2 GB home peaked at 351–414 MB over eight runs, with 3 at 342–377 MB, at the same speed.
 */
const READ_PARALLELISM = 3;
/**
 * Builds with less to read than this stay in the engine's thread: a worker takes tens of milliseconds to start
 * and warm up, about what the engine's thread reads of a small home in that time.
 */
const DEFAULT_WORKER_MIN_BUILD_BYTES = 32 * 1024 * 1024;
const PROGRESS_INTERVAL_MS = 100;
const UPDATE_BATCH_INTERVAL_MS = 250;

export interface CatalogBuildOptions {
  readonly onProgress?: (progress: CatalogProgress) => void;
  readonly signal?: AbortSignal;
}

export interface CatalogBuildResult {
  readonly sessions: number;
  /** Files actually read (in full or from their saved offset) and the bytes read. */
  readonly filesRead: number;
  readonly bytesRead: number;
  /** Of those, the bytes the scan worker read (0 when the build had none). */
  readonly workerBytes: number;
  readonly cancelled: boolean;
}

/** What a build needs of the catalog it brings up to date. */
export interface CatalogBuildHost {
  /** The bundled scan worker, when the shells pass one (see `SessionCatalogOptions.scanWorker`). */
  readonly scanWorker?: { readonly script: string; readonly minBuildBytes?: number };
  /** Bytes left to read of a file: none when cached as it is, the appended ones when it only grew. */
  pendingBytes(file: DiscoveredFile): number;
  readFile(file: DiscoveredFile, isSubagentFile: boolean, configRoot: string, slug: string, context: ReadContext): Promise<CachedFile>;
  cachedFile(path: string): CachedFile | undefined;
  cachedSession(key: string): CachedSession | undefined;
  /** Whether the session has a published entry. */
  hasEntry(key: string): boolean;
  /** Forgets a file deleted since discovery. */
  dropFile(path: string): void;
  /** For a file the scan worker was handed during discovery, its bytes still queued in it; null for the rest. */
  handedToWorker(path: string): number | null;
  siblingsBySession(project: DiscoveredProject): Map<string, DiscoveredSubagentFile[]>;
  /** Records which files make up a session once they are read; returns its key. */
  recordSession(session: DiscoveredSession, siblings: readonly DiscoveredSubagentFile[]): string;
  publishSessions(keys: readonly string[]): void;
  /** The sessions of projects whose legacy summaries changed, once. */
  takeProjectsToRepublish(): string[];
  /** After a complete build: drops the sessions not seen and the files no longer present. */
  forgetAllBut(seenSessions: ReadonlySet<string>, presentFiles: ReadonlySet<string>): void;
  /**
   * Saves the index and the states behind the build, which resolves without waiting for the disk: whatever the catalog
   * does next (another build, a live update, its disposal) waits for the save first.
   */
  saveBehind(): void;
  /** Publishes the build's progress (to the build's caller and the catalog's listeners). */
  progressed(progress: CatalogProgress): void;
  sessionCount(): number;
}

/** One file for a build to read, with what reading it needs to know. */
interface BuildFile {
  readonly file: DiscoveredFile;
  readonly isSubagentFile: boolean;
  readonly configRoot: string;
  readonly slug: string;
}

/** A file in the build's queue: one of a session's, or (without a session) a sibling agent file. */
interface QueuedFile extends BuildFile {
  readonly session?: DiscoveredSession;
}

/** A session's own file, then its sub-agents'. */
export function filesOf(session: DiscoveredSession): DiscoveredFile[] {
  return session.main ? [session.main, ...session.subagents] : [...session.subagents];
}

function sameAgentFiles(a: CachedSession | undefined, b: CachedSession | undefined): boolean {
  const pathsOf = (session: CachedSession | undefined): string => (session?.subagents ?? []).map((agent) => agent.path).join('\0');
  return pathsOf(a) === pathsOf(b);
}

/** Whether the same files of a session are read from the archive (a file Claude Code deleted changes the session). */
function sameArchivedFiles(a: CachedSession | undefined, b: CachedSession | undefined): boolean {
  return (a?.archivedPaths ?? []).join('\0') === (b?.archivedPaths ?? []).join('\0');
}

/**
 * One build of the catalog over what discovery found: sibling agent files first (which session each belongs to is
 * only known from its lines), then the files of every session from one queue shared by the engine's thread and the
 * scan worker, each session recorded and published (in batches) once its last file is read; at the end, what was not
 * seen is dropped (unless cancelled) and the cache saved.
 */
export class CatalogBuild {
  private done = 0;
  private bytesDone = 0;
  private filesRead = 0;
  private readonly total: number;
  private readonly bytesTotal: number;
  private lastProgressAt = 0;
  private batch: string[] = [];
  private batchAt = Date.now();
  private readonly seen = new Set<string>();
  private readonly context: ReadContext;
  private offload: ScanOffload | undefined;
  private workerContext: ReadContext;

  /**
   * @param startedOffload a scan worker started while discovery ran (a first build): used when the build is big enough
   *   for one, disposed of otherwise.
   */
  constructor(
    private readonly host: CatalogBuildHost,
    private readonly projects: readonly DiscoveredProject[],
    private readonly signal: AbortSignal | undefined,
    private readonly startedOffload?: ScanOffload,
  ) {
    const allFiles = this.allFiles();
    this.total = allFiles.length;
    this.bytesTotal = allFiles.reduce((sum, file) => sum + host.pendingBytes(file), 0);
    this.context = {
      signal,
      onBytes: (delta) => {
        this.bytesDone += delta;
        this.report(true, false, false);
      },
      buffers: new ReadBuffers(),
      live: false,
    };
    this.workerContext = this.context;
  }

  async run(): Promise<CatalogBuildResult> {
    this.report(true, false, true);
    const worker = this.host.scanWorker;
    if (worker && !this.signal?.aborted && this.bytesTotal >= (worker.minBuildBytes ?? DEFAULT_WORKER_MIN_BUILD_BYTES)) {
      this.offload = this.startedOffload ?? new ScanOffload(worker.script, this.signal);
      this.workerContext = { ...this.context, offload: this.offload };
    } else {
      await this.startedOffload?.dispose();
    }
    let cancelled = false;
    let failure: { readonly error: unknown } | null = null;
    try {
      await this.readAllFiles();
      cancelled = this.signal?.aborted ?? false;
    } catch (error) {
      if (this.signal?.aborted) cancelled = true;
      else failure = { error };
    }
    // Every read has settled, so the worker has nothing left: it exits while the build publishes and saves on this
    // thread, instead of this thread waiting for it first.
    const workerGone = this.offload?.dispose();
    if (failure) {
      await workerGone;
      throw failure.error;
    }
    try {
      for (const key of this.host.takeProjectsToRepublish()) this.batch.push(key);
      this.flushBatch(true);
      if (!cancelled) this.host.forgetAllBut(this.seen, new Set(this.allFiles().map((file) => file.path)));
      this.host.saveBehind();
    } finally {
      await workerGone;
    }
    this.report(false, cancelled, true);
    return {
      sessions: this.host.sessionCount(),
      filesRead: this.filesRead,
      bytesRead: this.bytesDone,
      workerBytes: this.offload?.bytesRead ?? 0,
      cancelled,
    };
  }

  private allFiles(): DiscoveredFile[] {
    return this.projects.flatMap((p) => [...p.siblingAgents, ...p.sessions.flatMap((s) => filesOf(s))]);
  }

  private async readAllFiles(): Promise<void> {
    const { host, projects } = this;
    // Sibling agent files early: which session each belongs to is only known from its lines, so sessions are recorded
    // once every sibling is read. They share the one queue with the sessions' files (after the big sessions, which
    // must start first), so neither thread waits for the other's last sibling before reading on.
    const siblingFiles = projects.flatMap((project) =>
      project.siblingAgents.map((file): QueuedFile => ({ file, isSubagentFile: true, configRoot: project.configRoot, slug: project.slug })),
    );
    const siblingsRead = new Set<string>();
    let siblingsLeft = siblingFiles.length;
    let siblingsOf: Map<DiscoveredSession, DiscoveredSubagentFile[]> | null = null;
    const groupSiblings = (): Map<DiscoveredSession, DiscoveredSubagentFile[]> => {
      const grouped = new Map<DiscoveredSession, DiscoveredSubagentFile[]>();
      for (const project of projects) {
        const siblings = host.siblingsBySession(project);
        for (const session of project.sessions) grouped.set(session, siblings.get(session.sessionId) ?? []);
      }
      return grouped;
    };
    // Then the files of every session of every project, so both threads stay busy to the end, and a session is
    // recorded once its last file is read (and every sibling).
    // Asked several times per session while ordering them (and for the biggest, in every comparison of the sort).
    const bytesOfSession = new Map<DiscoveredSession, number>();
    const sessionBytes = (session: DiscoveredSession): number => {
      let bytes = bytesOfSession.get(session);
      if (bytes === undefined) {
        bytes = filesOf(session).reduce((sum, file) => sum + host.pendingBytes(file), 0);
        bytesOfSession.set(session, bytes);
      }
      return bytes;
    };
    const sessions = buildOrder(
      projects.flatMap((project) => project.sessions),
      sessionBytes,
      (a, b) => newestMtimeMs(b) - newestMtimeMs(a),
    );
    const unread = new Map<DiscoveredSession, { files: number; changed: boolean; mainGone?: boolean }>();
    const bigSessions = sessions.filter((session) => isBigSession(sessionBytes(session))).length;
    /** The sessions' files for the queue, each session's count of files left to read noted in `unread`. */
    const queuedFilesOf = (list: readonly DiscoveredSession[]): QueuedFile[] =>
      list.flatMap((session) => {
        const files = filesOf(session);
        unread.set(session, { files: files.length, changed: false });
        const { configRoot, slug } = session;
        return files.map((file): QueuedFile => ({ file, isSubagentFile: file !== session.main, configRoot, slug, session }));
      });
    const waitingForSiblings: DiscoveredSession[] = [];
    const record = (session: DiscoveredSession, grouped: Map<DiscoveredSession, DiscoveredSubagentFile[]>): void => {
      const left = unread.get(session)!;
      const siblings = grouped.get(session) ?? [];
      const previous = host.cachedSession(sessionKeyOf(session.configRoot, session.slug, session.sessionId));
      const key = host.recordSession(session, siblings);
      this.seen.add(key);
      // A sub-agent file that went away changes the session as much as one that grew.
      const now = host.cachedSession(key);
      const changed = left.changed || siblings.some((agent) => siblingsRead.has(agent.path));
      if (changed || !sameAgentFiles(previous, now) || !sameArchivedFiles(previous, now) || !host.hasEntry(key)) {
        this.batch.push(key);
        this.flushBatch(false);
      }
    };
    if (siblingsLeft === 0) siblingsOf = groupSiblings();
    await this.readAll(
      [...queuedFilesOf(sessions.slice(0, bigSessions)), ...siblingFiles, ...queuedFilesOf(sessions.slice(bigSessions))],
      ({ file, session }, changed, gone) => {
        if (!session) {
          if (changed) siblingsRead.add(file.path);
          if (--siblingsLeft > 0) return;
          const grouped = (siblingsOf = groupSiblings());
          for (const waiting of waitingForSiblings.splice(0)) record(waiting, grouped);
          return;
        }
        const left = unread.get(session)!;
        left.files--;
        left.changed ||= changed;
        // A session whose own file is gone is not recorded, so it is dropped from the catalog at the end.
        if (file === session.main && gone) left.mainGone = true;
        if (left.files > 0 || left.mainGone) return;
        if (siblingsOf) record(session, siblingsOf);
        else waitingForSiblings.push(session);
      },
      // The engine's thread has read its last file and waits for the worker's: what is batched is published while it
      // would be idle, not after the last file (when all that is left of the build runs on one thread).
      () => this.flushBatch(true),
    );
  }

  /**
   * Reads the items on both threads; `onRead` hears whether the file was read (not cached) and whether it was gone,
   * `onThreadDone` when the engine's thread has read its last one.
   */
  private readAll<T extends BuildFile>(
    items: readonly T[],
    onRead: (item: T, changed: boolean, gone: boolean) => void,
    onThreadDone?: () => void,
  ): Promise<void> {
    const read = async (item: T, readContext: ReadContext): Promise<void> => {
      const before = this.host.cachedFile(item.file.path);
      let after: CachedFile | undefined;
      try {
        after = await this.host.readFile(item.file, item.isSubagentFile, item.configRoot, item.slug, readContext);
      } catch (error) {
        // Deleted since discovery (Claude Code removes old transcripts at its start): as if never found.
        if (errorCode(error) !== 'ENOENT') throw error;
        this.host.dropFile(item.file.path);
      }
      this.done++;
      if (after && after !== before) this.filesRead++;
      onRead(item, after !== before, after === undefined);
      this.report(true, false, false);
    };
    const offload = this.offload;
    return drainQueue(items, {
      parallelism: READ_PARALLELISM,
      readInThread: (item) => read(item, this.context),
      worker: offload && {
        load: offload,
        bytesOf: (item) => item.file.size,
        // Files read whole from their start; the rest (continued from a saved state, or cached) stay here.
        accepts: (item) => item.file.size > 0 && !item.file.fromArchive && this.host.pendingBytes(item.file) === item.file.size,
        read: (item) => read(item, this.workerContext),
        handedOver: (item) => (item.isSubagentFile ? null : this.host.handedToWorker(item.file.path)),
      },
      stopped: () => this.signal?.aborted ?? false,
      onThreadDone,
    });
  }

  /** Publishes progress at most every PROGRESS_INTERVAL_MS unless forced. */
  private report(running: boolean, cancelled: boolean, force: boolean): void {
    const now = Date.now();
    if (!force && now - this.lastProgressAt < PROGRESS_INTERVAL_MS) return;
    this.lastProgressAt = now;
    const progress: CatalogProgress = {
      done: this.done,
      total: this.total,
      bytesDone: this.bytesDone,
      bytesTotal: this.bytesTotal,
      running,
      cancelled,
    };
    this.host.progressed(progress);
  }

  /** Publishes the sessions recorded so far, at most every UPDATE_BATCH_INTERVAL_MS unless forced. */
  private flushBatch(force: boolean): void {
    if (this.batch.length === 0 || (!force && Date.now() - this.batchAt < UPDATE_BATCH_INTERVAL_MS)) return;
    this.host.publishSessions(this.batch);
    this.batch = [];
    this.batchAt = Date.now();
  }
}
