import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { CatalogProgress, SessionCatalogEntry, SessionKey, SessionUpdate } from '../../../shared/model/catalog';
import { withArchivedFiles, type CatalogArchive } from './archivedSessionFiles';
import { CATALOG_CACHE_FORMAT, type CachedFile, type CachedMeta, type CachedSession } from './catalogCacheSchema';
import {
  discoverSession,
  discoverSessionFiles,
  identify,
  sessionFilePath,
  type DiscoveredFile,
  type DiscoveredProject,
  type DiscoveredSession,
  type DiscoveredSubagentFile,
} from './catalogDiscovery';
import { CatalogBuild, type CatalogBuildHost, type CatalogBuildOptions, type CatalogBuildResult } from './CatalogBuild';
import type { ReadContext } from './catalogReadContext';
import { CatalogStore } from './catalogStore';
import { summarizeAggregate, withSharedEmptyLists, type FileSummary } from './fileSummary';
import { memoryPathMatcher } from './memoryPathMatcher';
import type { ScanDone, ScanJob } from './scanWorkerProtocol';
import { ScanOffload } from './ScanOffload';
import { WorkerHeadStart } from './workerHeadStart';
import { buildSessionEntry, type AgentMeta, type SubagentFileFacts } from './sessionEntry';
import { TranscriptAggregate, type MemoryPathTest, type TranscriptAggregateState } from './transcriptAggregate';
import { feedTranscriptLine, scanTranscriptInto } from './transcriptFileScan';
import { readLines } from '../jsonl/sourceLineReader';
import { customTitlePath, readCustomTitleFile } from '../layout/customTitleFile';
import { Emitter } from '../events';
import { sessionKeyOf } from '../../../shared/claude/sessionIds';

export type { CatalogBuildOptions, CatalogBuildResult } from './CatalogBuild';

/** What a session whose own file is gone contributes of its own: nothing. */
const NO_FILE_SUMMARY: FileSummary = summarizeAggregate(new TranscriptAggregate(() => false, false));

/** What one read of a file found, and its aggregate's state as JSON text when it is to be saved (null: not, or saved already). */
type FileRead = Pick<ScanDone, 'offset' | 'tailHex' | 'summary'> & { readonly stateText: string | null };

/** Smaller files are simply read again when they grow; saving their state would cost more than it saves. */
const STATE_MIN_BYTES = 256 * 1024;
/** Aggregates of files that live updates read stay in memory, so a live session continues without loading its state. */
const LIVE_AGGREGATES = 64;
const TAIL_CHECK_BYTES = 64;
const MAX_META_BYTES = 64 * 1024;
const LIVE_SAVE_DELAY_MS = 10_000;

export interface SessionCatalogOptions {
  /** The app data folder; the cache lives in `<dataDir>/catalog`. */
  readonly dataDir: string;
  /** Config roots to catalog (each holds a `projects/` folder). */
  readonly roots: readonly string[];
  /** A project's auto-memory folder (settings may move it); default `<root>/projects/<slug>/memory`. */
  readonly memoryDirFor?: (configRoot: string, slug: string) => string;
  /**
   * The bundled scan worker (out/worker/catalogScanWorker.mjs): builds with enough to read share the files
   * between it and the engine's thread. Without it (a checkout run from source) everything is read in-thread.
   */
  readonly scanWorker?: {
    readonly script: string;
    /** Builds with fewer bytes to read stay in the engine's thread. */
    readonly minBuildBytes?: number;
  };
  /**
   * The transcript archive: sessions whose files Claude Code deleted stay in the catalog (marked `archived`), read from
   * the archived copies. Without it a deleted session leaves the catalog.
   */
  readonly archive?: CatalogArchive;
}

/** A transcript on disk as the catalog last read it, with what archiving it needs to know. */
export interface CatalogTranscriptFile {
  readonly path: string;
  readonly configRoot: string;
  readonly slug: string;
  readonly sessionId: string;
  /** Null for the session's own transcript. */
  readonly agentId: string | null;
  readonly layout: 'session' | 'subagents-folder' | 'sibling';
  readonly identity: { readonly fileId: string; readonly size: number; readonly mtimeNs: string; readonly mtimeMs: number };
  /** The session's first folder, as its lines record it. */
  readonly cwd: string | null;
  readonly memoryDir: string;
}

export interface CatalogFilter {
  readonly configRoot?: string;
  readonly slug?: string;
}

type UpdateListener = (update: SessionUpdate) => void;
type ProgressListener = (progress: CatalogProgress) => void;

/** What a live update reads: no progress, no cancelling. */
const LIVE_READ: ReadContext = { onBytes: () => undefined, live: true };

interface LiveAggregate {
  readonly fileId: string;
  readonly offset: number;
  readonly aggregate: TranscriptAggregate;
}

/** The catalog's listing order: by last activity, newest first. */
export function newestFirst(a: SessionCatalogEntry, b: SessionCatalogEntry): number {
  return (b.lastTimestamp ?? b.mtime).localeCompare(a.lastTimestamp ?? a.mtime) || a.sessionId.localeCompare(b.sessionId);
}

/**
 * The bytes just before a saved offset, as hex. Blocking, like the catalog's other small reads: a cached read of
 * 64 bytes takes microseconds, a thread-pool round trip far longer.
 */
function readTailHex(path: string, offset: number): string {
  const length = Math.min(TAIL_CHECK_BYTES, offset);
  if (length === 0) return '';
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(length);
    const bytesRead = readSync(fd, buffer, 0, length, offset - length);
    return buffer.subarray(0, bytesRead).toString('hex');
  } finally {
    closeSync(fd);
  }
}

function str(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** A sub-agent's `meta.json`; blocking for the same reason as `readTailHex` (a build reads a thousand of them). */
function readAgentMeta(path: string, size: number): AgentMeta | null {
  try {
    const fd = openSync(path, 'r');
    let text: string;
    try {
      // Sized to the file: most of them are a few hundred bytes.
      const buffer = Buffer.alloc(Math.min(size, MAX_META_BYTES));
      const bytesRead = readSync(fd, buffer, 0, buffer.length, 0);
      text = buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      closeSync(fd);
    }
    const parsed = JSON.parse(text) as Record<string, unknown>;
    const depth = parsed.spawnDepth;
    return {
      agentType: str(parsed.agentType),
      description: str(parsed.description),
      parentAgentId: str(parsed.parentAgentId),
      spawnDepth: typeof depth === 'number' && Number.isInteger(depth) && depth > 0 ? depth : null,
    };
  } catch {
    return null;
  }
}

/** A cached file as loaded, its summary's empty lists shared (see `withSharedEmptyLists`). */
function withSummaryListsShared(file: CachedFile): CachedFile {
  const summary = withSharedEmptyLists(file.summary);
  return summary === file.summary ? file : { ...file, summary };
}

function sameVersion(a: { fileId: string; size: number; mtimeNs: string }, b: { fileId: string; size: number; mtimeNs: string }): boolean {
  return a.fileId === b.fileId && a.size === b.size && a.mtimeNs === b.mtimeNs;
}

/**
 * The catalog of every session in the config roots: what each one did and cost, read once, cached in the
 * app data folder by file identity, size and mtime, and continued from the saved offset when a file grows.
 * A shrunk or replaced file is read again; a corrupt cache is ignored. Usable in-process (CLI, benchmarks)
 * as well as by the engine, which feeds it file changes for live updates.
 */
export class SessionCatalog {
  private roots: readonly string[];
  private readonly memoryDirFor: (configRoot: string, slug: string) => string;
  private readonly scanWorker: SessionCatalogOptions['scanWorker'];
  private readonly archive: CatalogArchive | null;
  private readonly store: CatalogStore;
  private files = new Map<string, CachedFile>();
  private metas = new Map<string, CachedMeta>();
  private sessions = new Map<string, CachedSession>();
  private entries = new Map<string, SessionCatalogEntry>();
  private readonly liveAggregates = new Map<string, LiveAggregate>();
  private readonly memoryTests = new Map<string, { key: string; test: MemoryPathTest }>();
  /** Per project: legacy summaries that name another file's leaf, by leaf uuid (rebuilt when a transcript changes). */
  private otherSummaries: Map<string, Map<string, string>> | null = null;
  private readonly projectsToRepublish = new Set<string>();
  /** The other file's summary each entry was built with (see `summaryNamingLeafOf`): what a republish may change. */
  private readonly otherSummaryOfEntry = new WeakMap<SessionCatalogEntry, string | null>();
  private readonly updateEmitter = new Emitter<SessionUpdate>();
  private readonly progressEmitter = new Emitter<CatalogProgress>();
  private queue: Promise<unknown> = Promise.resolve();
  /** The last build's save of the index, which the catalog's next turn waits for (see `CatalogBuildHost.saveBehind`). */
  private buildSaved: Promise<unknown> = Promise.resolve();
  private cacheLoaded: Promise<boolean> | null = null;
  private listingLoaded: Promise<boolean> | null = null;
  /**
   * The entries are the saved listing's (see `loadFirstListing`); loading the index fills in the maps under them and
   * keeps them. Having no other file's summary recorded (`otherSummaryOfEntry`), they are made again whenever their
   * project's legacy summaries change.
   */
  private entriesFromListing = false;
  private currentProgress: CatalogProgress | null = null;
  /** A first build's files handed to its worker during discovery (see `WorkerHeadStart`). */
  private headStart: WorkerHeadStart | null = null;
  private disposed = false;
  private saveTimer: NodeJS.Timeout | null = null;
  /** Live updates changed the catalog since the index was last saved. */
  private saveDirty = false;

  constructor(options: SessionCatalogOptions) {
    this.roots = options.roots;
    this.memoryDirFor = options.memoryDirFor ?? ((configRoot, slug) => join(configRoot, 'projects', slug, 'memory'));
    this.scanWorker = options.scanWorker;
    this.archive = options.archive ?? null;
    this.store = new CatalogStore(options.dataDir);
  }

  onDidUpdateSessions(listener: UpdateListener): () => void {
    return this.updateEmitter.event(listener);
  }

  onDidProgress(listener: ProgressListener): () => void {
    return this.progressEmitter.event(listener);
  }

  /** The latest build's progress; `running` while a build is under way. */
  get progress(): CatalogProgress | null {
    return this.currentProgress;
  }

  get building(): boolean {
    return this.currentProgress?.running ?? false;
  }

  /** Follows other config roots (the demo home replaced the real one); the next build drops the old sessions. */
  setRoots(roots: readonly string[]): void {
    this.roots = roots;
  }

  /**
   * Reads the saved catalog once (cheap: no transcript is opened), so `list()` answers at once on a warm start. Entries
   * taken from the saved listing stand (they were made from this very index); only the maps under them are filled in.
   */
  loadCache(): Promise<boolean> {
    this.cacheLoaded ??= this.store.loadIndex().then((index) => {
      if (!index) {
        this.dropListedEntries();
        return false;
      }
      if (this.entries.size > 0 && !this.entriesFromListing) return false;
      this.files = new Map(index.files.map((file) => [file.path, withSummaryListsShared(file)]));
      this.metas = new Map(index.metas.map((meta) => [meta.path, meta]));
      this.sessions = new Map(index.sessions.map((s) => [sessionKeyOf(s.configRoot, s.slug, s.sessionId), s]));
      this.otherSummaries = null;
      if (this.entriesFromListing) return true;
      for (const [key, session] of this.sessions) {
        if (!this.roots.includes(session.configRoot)) continue;
        const entry = this.entryFor(session);
        if (entry) this.entries.set(key, entry);
      }
      return true;
    });
    return this.cacheLoaded;
  }

  /**
   * What a warm start's first listing needs, as soon as possible: the listing saved with the index (its entries as they
   * were, without the per-file summaries they were made from, which the index holds and the catalog's next turn loads),
   * else the whole saved catalog. On the 10 GB home the listing is 34 MB, against 79 for the index.
   */
  async loadFirstListing(): Promise<void> {
    if (!(await this.loadListing())) await this.loadCache();
  }

  private loadListing(): Promise<boolean> {
    this.listingLoaded ??= (async () => {
      if (this.cacheLoaded) return false;
      const listing = await this.store.loadListing();
      // The whole catalog may have been asked for meanwhile: then its entries are made from the index.
      if (!listing || this.cacheLoaded || this.entries.size > 0) return false;
      for (const entry of listing) {
        if (this.roots.includes(entry.configRoot)) this.entries.set(sessionKeyOf(entry.configRoot, entry.slug, entry.sessionId), entry);
      }
      this.entriesFromListing = true;
      return true;
    })();
    return this.listingLoaded;
  }

  /**
   * The index under a listing already shown could not be read (damaged since): its entries go, and the listeners hear
   * so, since no build would ever remove what it never knew of; the next build lists every session again.
   */
  private dropListedEntries(): void {
    if (!this.entriesFromListing) return;
    const removed = [...this.entries.values()].map(({ configRoot, slug, sessionId }) => ({ configRoot, slug, sessionId }));
    this.entries.clear();
    this.entriesFromListing = false;
    this.emit({ updated: [], removed });
  }

  /** Sessions newest first (by last activity), optionally of one config root or one project. */
  list(filter: CatalogFilter = {}): SessionCatalogEntry[] {
    const out: SessionCatalogEntry[] = [];
    for (const entry of this.entries.values()) {
      if (filter.configRoot !== undefined && entry.configRoot !== filter.configRoot) continue;
      if (filter.slug !== undefined && entry.slug !== filter.slug) continue;
      out.push(entry);
    }
    return out.sort(newestFirst);
  }

  get(configRoot: string, slug: string, sessionId: string): SessionCatalogEntry | null {
    return this.entries.get(sessionKeyOf(configRoot, slug, sessionId)) ?? null;
  }

  /**
   * Brings the whole catalog up to date: finds every session, reads what is new (whole files or from their
   * saved offsets), drops what disappeared, saves the cache. Cancelling keeps what was read so far. Resolves once every
   * session is published; the cache is saved behind it, before the catalog does anything else (`dispose` waits for it).
   */
  build(options: CatalogBuildOptions = {}): Promise<CatalogBuildResult> {
    return this.serialize(() => this.runBuild(options));
  }

  /** Re-reads the given sessions (a watcher saw their files change); quick, from the saved offsets. */
  refreshSessions(keys: readonly SessionKey[]): Promise<void> {
    return this.serialize(() => this.runRefresh(keys));
  }

  /** A sibling (2.0-era) sub-agent file changed: which session it belongs to is in its lines. */
  refreshSiblingAgent(configRoot: string, slug: string, path: string): Promise<void> {
    return this.serialize(async () => {
      const file = identify(path);
      const agentId = /agent-(.+)\.jsonl$/.exec(path)?.[1];
      if (!file || !agentId) return;
      const cached = await this.readFile(file, true, configRoot, slug, LIVE_READ);
      const metaPath = join(configRoot, 'projects', slug, `agent-${agentId}.meta.json`);
      const hasMeta = this.readMeta(metaPath) !== null;
      const sessionId = cached.summary.firstSessionId;
      if (!sessionId) return;
      const key = sessionKeyOf(configRoot, slug, sessionId);
      const session = this.sessions.get(key);
      if (!session) return;
      const others = session.subagents.filter((agent) => agent.path !== path);
      this.sessions.set(key, {
        ...session,
        subagents: [...others, { agentId, layout: 'sibling', path, metaPath: hasMeta ? metaPath : null }],
      });
      this.publishSessions([key], []);
      this.scheduleSave();
    });
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    this.updateEmitter.dispose();
    this.progressEmitter.dispose();
    if (this.saveTimer) clearTimeout(this.saveTimer);
    this.saveTimer = null;
    await this.queue.catch(() => undefined);
    await this.buildSaved;
    if (this.saveDirty) await this.saveIndex();
    await this.store.statesWritten();
  }

  private serialize<T>(task: () => Promise<T>): Promise<T> {
    // Read once the turn before has ended: a build that ended then has started its save, and this turn comes after it.
    // And once the saved catalog is loaded whole: a first listing may have come from the saved listing alone, and every
    // turn reads and saves the maps under it (a live update saving half-loaded maps would lose the rest of the index).
    const run = this.queue
      .then(() => this.buildSaved)
      .then(() => this.loadCache())
      .then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** One per project, not per file: every cached file keeps its memory folder's path. */
  private memoryTestFor(configRoot: string, slug: string): { key: string; test: MemoryPathTest } {
    const dir = this.memoryDirFor(configRoot, slug);
    const project = sessionKeyOf(configRoot, slug, '');
    const known = this.memoryTests.get(project);
    if (known?.key === dir) return known;
    const made = { key: dir, test: memoryPathMatcher(configRoot, dir) };
    this.memoryTests.set(project, made);
    return made;
  }

  /**
   * Reads one transcript as far as needed: nothing when its identity, size and mtime match the cache; from the
   * saved offset when it only grew and the bytes before the offset are unchanged; otherwise from the start.
   */
  private async readFile(
    file: DiscoveredFile,
    isSubagentFile: boolean,
    configRoot: string,
    slug: string,
    context: ReadContext,
  ): Promise<CachedFile> {
    const { key: memoryKey, test } = this.memoryTestFor(configRoot, slug);
    const cached = this.files.get(file.path);
    if (cached && sameVersion(cached, file) && cached.memoryKey === memoryKey && cached.isSubagentFile === isSubagentFile) return cached;
    if (file.fromArchive) {
      const aggregate = new TranscriptAggregate(test, isSubagentFile);
      return this.readArchivedFile(file, isSubagentFile, memoryKey, aggregate, context, sessionKeyOf(configRoot, slug, ''));
    }
    let aggregate: TranscriptAggregate | null = null;
    let from = 0;
    const canContinue =
      cached !== undefined &&
      cached.fileId === file.fileId &&
      cached.memoryKey === memoryKey &&
      cached.isSubagentFile === isSubagentFile &&
      file.size >= cached.offset &&
      cached.offset > 0;
    if (cached && canContinue) {
      const state = await this.savedState(cached);
      if (state && readTailHex(file.path, cached.offset) === cached.tailHex) {
        aggregate = state instanceof TranscriptAggregate ? state : new TranscriptAggregate(test, isSubagentFile, state);
        from = cached.offset;
      }
    }
    this.liveAggregates.delete(file.path);
    let reported = 0;
    const onBytes = (bytes: number): void => {
      context.onBytes(bytes - reported);
      reported = bytes;
    };
    let buffers = context.buffers;
    // Handed to the worker during discovery: its reply is taken on whichever thread's turn the file comes.
    const headStart = !aggregate && !isSubagentFile && !context.live ? this.headStart?.take(file.path) : undefined;
    // The worker saves the file's state itself, so a file whose older state is still being written is read here,
    // where the new write queues behind the old one.
    const offload = context.offload;
    const workerRead =
      headStart ??
      (!aggregate && offload?.usable && !this.store.stateWriteOf(file.path)
        ? offload.scan(this.scanJob(file, isSubagentFile, configRoot, slug), onBytes)
        : undefined);
    if (workerRead) {
      const done = await workerRead;
      context.signal?.throwIfAborted();
      // A file deleted since discovery is left out (ENOENT), as it would be had it been sent to the worker now.
      if (headStart) statSync(file.path);
      if (done) {
        onBytes(done.size);
        return this.record(file, isSubagentFile, memoryKey, { ...done, stateText: null }, sessionKeyOf(configRoot, slug, ''));
      }
      // The worker could not read it: read here, which also reports why if the file itself is the problem.
      // With buffers sized to the file: when the worker dies, all it had queued comes back at once.
      onBytes(0);
      buffers = undefined;
    }
    aggregate ??= new TranscriptAggregate(test, isSubagentFile);
    const result = await scanTranscriptInto(file.path, aggregate, {
      fromOffset: from,
      signal: context.signal,
      tailBytes: TAIL_CHECK_BYTES,
      sizeHint: file.size,
      buffers,
      onBytes,
    });
    if (context.live) {
      this.liveAggregates.set(file.path, { fileId: file.fileId, offset: result.offset, aggregate });
      while (this.liveAggregates.size > LIVE_AGGREGATES) this.liveAggregates.delete(this.liveAggregates.keys().next().value as string);
    }
    return this.record(
      file,
      isSubagentFile,
      memoryKey,
      {
        offset: result.offset,
        tailHex: result.tail.toString('hex'),
        summary: summarizeAggregate(aggregate),
        stateText: result.offset >= STATE_MIN_BYTES ? JSON.stringify(aggregate.stateView()) : null,
      },
      sessionKeyOf(configRoot, slug, ''),
      !context.live,
    );
  }

  /** Reads a transcript Claude Code deleted from its archived copy, whole (it no longer grows). */
  private async readArchivedFile(
    file: DiscoveredFile,
    isSubagentFile: boolean,
    memoryKey: string,
    aggregate: TranscriptAggregate,
    context: ReadContext,
    project: string,
  ): Promise<CachedFile> {
    const source = await this.archive?.openSource(file.path);
    if (!source) throw Object.assign(new Error(`${file.path} is neither on disk nor archived`), { code: 'ENOENT' });
    try {
      const result = await readLines(
        source,
        { start: 0, end: file.size, firstLineNumber: 1, yieldEvery: 16, tailBytes: TAIL_CHECK_BYTES },
        (bytes) => (bytes === null ? aggregate.badLine() : feedTranscriptLine(aggregate, bytes)),
      );
      context.onBytes(file.size);
      return this.record(
        file,
        isSubagentFile,
        memoryKey,
        { offset: result.committedBytes, tailHex: result.tail.toString('hex'), summary: summarizeAggregate(aggregate), stateText: null },
        project,
      );
    } finally {
      await source.close();
    }
  }

  /**
   * Keeps what one read of a file found, and saves its aggregate's state when it is big enough to be worth it: at once
   * for a build's read (`saveStateNow`), behind the caller for a live update's.
   */
  private record(
    file: DiscoveredFile,
    isSubagentFile: boolean,
    memoryKey: string,
    read: FileRead,
    project: string,
    saveStateNow = false,
  ): CachedFile {
    const before = this.files.get(file.path)?.summary.otherSummaries.length ?? 0;
    if (before > 0 || read.summary.otherSummaries.length > 0) this.summariesChanged(project);
    const record: CachedFile = {
      path: file.path,
      fileId: file.fileId,
      size: file.size,
      mtimeNs: file.mtimeNs,
      mtimeMs: file.mtimeMs,
      offset: read.offset,
      tailHex: read.tailHex,
      memoryKey,
      isSubagentFile,
      summary: withSharedEmptyLists(read.summary as CachedFile['summary']),
    };
    this.files.set(file.path, record);
    if (read.stateText === null) return record;
    if (saveStateNow) this.store.saveStateNow(file.path, file.fileId, read.offset, read.stateText);
    else this.store.saveStateInBackground(file.path, file.fileId, read.offset, read.stateText);
    return record;
  }

  private async savedState(cached: CachedFile): Promise<TranscriptAggregate | TranscriptAggregateState | null> {
    const live = this.liveAggregates.get(cached.path);
    if (live && live.fileId === cached.fileId && live.offset === cached.offset) return live.aggregate;
    if (cached.offset < STATE_MIN_BYTES) return null;
    return this.store.loadState(cached.path, cached.fileId, cached.offset);
  }

  private readMeta(path: string | null): AgentMeta | null {
    if (!path) return null;
    const file = identify(path);
    if (!file) return null;
    const cached = this.metas.get(path);
    if (cached && sameVersion(cached, file)) return cached.meta;
    const meta = readAgentMeta(path, file.size);
    this.metas.set(path, { path, fileId: file.fileId, size: file.size, mtimeNs: file.mtimeNs, mtimeMs: file.mtimeMs, meta });
    return meta;
  }

  private entryFor(session: CachedSession): SessionCatalogEntry | null {
    const main = session.mainTranscript ? this.files.get(session.path) : undefined;
    if (session.mainTranscript && !main) return null;
    const subagents: SubagentFileFacts[] = [];
    let newestAgent = 0;
    for (const agent of session.subagents) {
      const file = this.files.get(agent.path);
      if (!file) continue;
      newestAgent = Math.max(newestAgent, file.mtimeMs);
      const meta = agent.metaPath ? (this.metas.get(agent.metaPath)?.meta ?? null) : null;
      subagents.push({ agentId: agent.agentId, layout: agent.layout, path: agent.path, summary: file.summary as FileSummary, meta });
    }
    if (!main && subagents.length === 0) return null;
    const summary = main ? (main.summary as FileSummary) : NO_FILE_SUMMARY;
    const summaryFromOtherFile = this.summaryNamingLeafOf(session, summary);
    const entry = buildSessionEntry({
      configRoot: session.configRoot,
      slug: session.slug,
      sessionId: session.sessionId,
      path: session.path,
      bytes: main?.size ?? 0,
      mtimeMs: main?.mtimeMs ?? newestAgent,
      hasSessionMemory: session.sessionMemoryPath !== null,
      archived: session.archivedPaths?.includes(session.path) ?? false,
      main: summary,
      mainTranscript: main !== undefined,
      customTitle: session.customTitle,
      summaryFromOtherFile,
      subagents,
    });
    this.otherSummaryOfEntry.set(entry, summaryFromOtherFile);
    return entry;
  }

  /**
   * Whether a session's published entry may read differently now that its project's legacy summaries changed: it has
   * none, or the summary naming its last messages is another than the one it was built with (nothing else of an entry
   * depends on other sessions' files).
   */
  private needsRepublish(key: string, session: CachedSession): boolean {
    const entry = this.entries.get(key);
    if (!entry) return true;
    const main = session.mainTranscript ? this.files.get(session.path) : undefined;
    if (session.mainTranscript && !main) return true;
    const summary = main ? (main.summary as FileSummary) : NO_FILE_SUMMARY;
    return this.otherSummaryOfEntry.get(entry) !== this.summaryNamingLeafOf(session, summary);
  }

  /**
   * A file with legacy summaries of other sessions changed: the project's index is rebuilt, and the sessions of the
   * project are published again at the end of the read (a summary may title a session whose own file did not change).
   */
  private summariesChanged(project: string): void {
    // Only this project's index: the others' are built from their own sessions' files.
    this.otherSummaries?.delete(project);
    this.projectsToRepublish.add(project);
  }

  /** A legacy `summary` line of another file of the project whose `leafUuid` is one of this session's last messages. */
  private summaryNamingLeafOf(session: CachedSession, summary: FileSummary): string | null {
    if (summary.leafUuids.length === 0) return null;
    const project = sessionKeyOf(session.configRoot, session.slug, '');
    this.otherSummaries ??= new Map();
    const index = this.otherSummaries.get(project) ?? this.buildSummaryIndexes(this.otherSummaries, project);
    for (let i = summary.leafUuids.length - 1; i >= 0; i--) {
      const text = index.get(summary.leafUuids[i]);
      if (text !== undefined) return text;
    }
    return null;
  }

  /**
   * Builds, in one pass over the sessions, the index of `project` and of every other project that has none (a build
   * drops the indexes of the projects whose files it reads between two of its publications), and returns the first.
   */
  private buildSummaryIndexes(indexes: Map<string, Map<string, string>>, project: string): Map<string, string> {
    const built = new Map<string, Map<string, string>>([[project, new Map()]]);
    for (const other of this.sessions.values()) {
      if (!other.mainTranscript) continue;
      const key = sessionKeyOf(other.configRoot, other.slug, '');
      if (indexes.has(key)) continue;
      let index = built.get(key);
      if (!index) built.set(key, (index = new Map()));
      const file = this.files.get(other.path);
      for (const [leaf, text] of (file?.summary as FileSummary | undefined)?.otherSummaries ?? []) index.set(leaf, text);
    }
    for (const [key, index] of built) indexes.set(key, index);
    return built.get(project)!;
  }

  /** Reads a session's files one after the other (a live update), then records it. */
  private async readSession(session: DiscoveredSession, siblings: readonly DiscoveredSubagentFile[]): Promise<string> {
    const { configRoot, slug } = session;
    if (session.main) await this.readFile(session.main, false, configRoot, slug, LIVE_READ);
    for (const agent of [...session.subagents, ...siblings]) await this.readFile(agent, true, configRoot, slug, LIVE_READ);
    return this.recordSession(session, siblings);
  }

  /** Records which files make up a session (once they are read) and reads its sub-agents' `meta.json`. */
  private recordSession(session: DiscoveredSession, siblings: readonly DiscoveredSubagentFile[]): string {
    const { configRoot, slug } = session;
    const agents: DiscoveredSubagentFile[] = [...session.subagents, ...siblings];
    for (const agent of agents) this.readMeta(agent.metaPath);
    const key = sessionKeyOf(configRoot, slug, session.sessionId);
    const archivedPaths = [...(session.main ? [session.main] : []), ...agents].filter((file) => file.fromArchive).map((file) => file.path);
    this.sessions.set(key, {
      configRoot,
      slug,
      sessionId: session.sessionId,
      path: session.main?.path ?? sessionFilePath(configRoot, slug, session.sessionId),
      mainTranscript: session.main !== null,
      customTitle: session.mayHaveFolder
        ? readCustomTitleFile(customTitlePath(join(configRoot, 'projects', slug), session.sessionId))
        : null,
      subagents: agents.map((agent) => ({
        agentId: agent.agentId,
        layout: agent.layout === 'sibling' ? 'sibling' : 'subagents-folder',
        path: agent.path,
        metaPath: agent.metaPath,
      })),
      sessionMemoryPath: session.sessionMemoryPath,
      ...(archivedPaths.length > 0 ? { archivedPaths } : {}),
    });
    this.noteSummariesOf(session);
    return key;
  }

  /**
   * The project's index of legacy summaries is built from the sessions recorded when it is first asked for: a session
   * recorded after that (the build records each once its last file is read, in whatever order the threads finish)
   * whose own file holds summaries of other sessions makes it stale, and the project is published again at the end.
   */
  private noteSummariesOf(session: DiscoveredSession): void {
    const project = sessionKeyOf(session.configRoot, session.slug, '');
    const index = this.otherSummaries?.get(project);
    if (!index || !session.main) return;
    const summaries = (this.files.get(session.main.path)?.summary as FileSummary | undefined)?.otherSummaries ?? [];
    if (summaries.some(([leaf, text]) => index.get(leaf) !== text)) this.summariesChanged(project);
  }

  /** Sibling agent files name their session in their lines: grouped once they are read. */
  private siblingsBySession(project: DiscoveredProject): Map<string, DiscoveredSubagentFile[]> {
    const bySession = new Map<string, DiscoveredSubagentFile[]>();
    for (const agent of project.siblingAgents) {
      const sessionId = this.files.get(agent.path)?.summary.firstSessionId;
      if (!sessionId) continue;
      bySession.set(sessionId, [...(bySession.get(sessionId) ?? []), agent]);
    }
    return bySession;
  }

  private pendingBytes(file: DiscoveredFile): number {
    const cached = this.files.get(file.path);
    if (cached && sameVersion(cached, file)) return 0;
    if (cached && cached.fileId === file.fileId && file.size >= cached.offset) return file.size - cached.offset;
    return file.size;
  }

  private async runBuild(options: CatalogBuildOptions): Promise<CatalogBuildResult> {
    await this.loadCache();
    // A first build reads every transcript: its scan worker starts (tens of milliseconds) while discovery walks the
    // folders, rather than after it. A later build starts one only if it turns out to have enough to read.
    const startedOffload =
      this.scanWorker && this.files.size === 0 && !options.signal?.aborted
        ? new ScanOffload(this.scanWorker.script, options.signal)
        : undefined;
    const headStart =
      startedOffload && new WorkerHeadStart(startedOffload, (file, configRoot, slug) => this.scanJob(file, false, configRoot, slug));
    let projects: DiscoveredProject[];
    try {
      projects = await this.withArchived(await discoverSessionFiles(this.roots, (project) => headStart?.offer(project)));
    } catch (error) {
      await startedOffload?.dispose();
      throw error;
    }
    this.headStart = headStart ?? null;
    try {
      return await new CatalogBuild(this.buildHost(options), projects, options.signal, startedOffload).run();
    } finally {
      this.headStart = null;
    }
  }

  /** What the scan worker needs to read a file from its start as a build reads it. */
  private scanJob(file: DiscoveredFile, isSubagentFile: boolean, configRoot: string, slug: string): Omit<ScanJob, 'id'> {
    return {
      path: file.path,
      isSubagentFile,
      configRoot,
      memoryDir: this.memoryTestFor(configRoot, slug).key,
      sizeHint: file.size,
      tailBytes: TAIL_CHECK_BYTES,
      stateMinBytes: STATE_MIN_BYTES,
      stateDir: this.store.stateDir,
      fileId: file.fileId,
    };
  }

  /** What a build reaches of the catalog (see `CatalogBuild`). */
  private buildHost(options: CatalogBuildOptions): CatalogBuildHost {
    return {
      scanWorker: this.scanWorker,
      pendingBytes: (file) => this.pendingBytes(file),
      readFile: (file, isSubagentFile, configRoot, slug, context) => this.readFile(file, isSubagentFile, configRoot, slug, context),
      cachedFile: (path) => this.files.get(path),
      cachedSession: (key) => this.sessions.get(key),
      hasEntry: (key) => this.entries.has(key),
      dropFile: (path) => this.dropFile(path),
      handedToWorker: (path) => this.headStart?.queuedBytesOf(path) ?? null,
      siblingsBySession: (project) => this.siblingsBySession(project),
      recordSession: (session, siblings) => this.recordSession(session, siblings),
      publishSessions: (keys) => this.publishSessions(keys, []),
      takeProjectsToRepublish: () => this.takeProjectsToRepublish(),
      forgetAllBut: (seenSessions, presentFiles) => {
        this.forget([...this.sessions.keys()].filter((key) => !seenSessions.has(key)));
        for (const path of this.files.keys()) if (!presentFiles.has(path)) this.files.delete(path);
      },
      saveBehind: () => {
        // A cold build's index is megabytes of JSON, hashed and written: ~65 ms on the medium home, on this thread alone
        // once the worker is done. The catalog is complete and published before it; the save only serves the next start.
        // The catalog's next turn (queued before the build ended or after) and its disposal wait for it. One that fails
        // costs what any lost cache does: a full read next time.
        this.buildSaved = this.saveIndex()
          .then(() => this.store.statesWritten())
          .catch(() => undefined);
      },
      progressed: (progress) => {
        this.currentProgress = progress;
        options.onProgress?.(progress);
        this.progressEmitter.fire(progress);
      },
      sessionCount: () => this.entries.size,
    };
  }

  private async runRefresh(keys: readonly SessionKey[]): Promise<void> {
    const changed: string[] = [];
    const removed: string[] = [];
    for (const { configRoot, slug, sessionId } of keys) {
      const key = sessionKeyOf(configRoot, slug, sessionId);
      // The live path asks the archive only about a session whose own file is gone (a full build merges the rest).
      const found = discoverSession(configRoot, slug, sessionId);
      const discovered = found?.main ? found : await this.withArchivedSession(configRoot, slug, sessionId, found);
      if (!discovered) {
        if (this.sessions.has(key)) removed.push(key);
        continue;
      }
      const siblings: DiscoveredSubagentFile[] = [];
      for (const agent of this.sessions.get(key)?.subagents ?? []) {
        if (agent.layout !== 'sibling') continue;
        const file = identify(agent.path);
        if (file) siblings.push({ ...file, agentId: agent.agentId, layout: 'sibling', metaPath: agent.metaPath });
      }
      await this.readSession(discovered, siblings);
      changed.push(key);
    }
    this.forget(removed);
    this.publishSessions([...new Set([...changed, ...this.takeProjectsToRepublish()])], []);
    this.scheduleSave();
  }

  /** Discovery's findings with what only the archive still holds (see `withArchivedFiles`). */
  private async withArchived(projects: DiscoveredProject[]): Promise<DiscoveredProject[]> {
    if (!this.archive) return projects;
    await this.archive.load();
    return withArchivedFiles(projects, this.archive.files(), this.roots);
  }

  /**
   * A session whose own transcript is gone from disk (with or without its sub-agents left), completed from what the
   * archive holds of it; as discovered when the archive holds nothing.
   */
  private async withArchivedSession(
    configRoot: string,
    slug: string,
    sessionId: string,
    discovered: DiscoveredSession | null,
  ): Promise<DiscoveredSession | null> {
    if (!this.archive) return discovered;
    await this.archive.load();
    const files = this.archive.files().filter((f) => f.configRoot === configRoot && f.slug === slug && f.sessionId === sessionId);
    if (files.length === 0) return discovered;
    const project = {
      configRoot,
      slug,
      dir: join(configRoot, 'projects', slug),
      sessions: discovered ? [discovered] : [],
      siblingAgents: [],
    };
    return withArchivedFiles([project], files, this.roots)[0]?.sessions[0] ?? discovered;
  }

  /**
   * The transcripts on disk as last read (of some sessions, or all), for the archive to keep up with. Files the catalog
   * reads from the archive are left out.
   */
  transcriptFiles(sessions?: readonly SessionKey[]): CatalogTranscriptFile[] {
    const keys = sessions ? sessions.map((s) => sessionKeyOf(s.configRoot, s.slug, s.sessionId)) : [...this.sessions.keys()];
    const out: CatalogTranscriptFile[] = [];
    for (const key of keys) {
      const session = this.sessions.get(key);
      if (!session) continue;
      const archived = new Set(session.archivedPaths ?? []);
      const cwd = this.files.get(session.path)?.summary.cwds[0] ?? null;
      const memoryDir = this.memoryDirFor(session.configRoot, session.slug);
      const files = [
        { path: session.path, agentId: null, layout: 'session' as const },
        ...session.subagents.map((agent) => ({ path: agent.path, agentId: agent.agentId, layout: agent.layout })),
      ];
      for (const { path, agentId, layout } of files) {
        const file = this.files.get(path);
        if (!file || archived.has(path)) continue;
        const { configRoot, slug, sessionId } = session;
        const identity = { fileId: file.fileId, size: file.size, mtimeNs: file.mtimeNs, mtimeMs: file.mtimeMs };
        out.push({ path, configRoot, slug, sessionId, agentId, layout, identity, cwd, memoryDir });
      }
    }
    return out;
  }

  /**
   * The sessions of projects whose legacy summaries changed, once: those whose entry reads differently now (a first
   * build records most sessions before their project's last summaries are read, and rebuilding every entry of those
   * projects at its end, on one thread, had the build's CPU make most sessions' entries twice).
   */
  private takeProjectsToRepublish(): string[] {
    if (this.projectsToRepublish.size === 0) return [];
    const keys = [...this.sessions.entries()]
      .filter(
        ([key, session]) =>
          this.projectsToRepublish.has(sessionKeyOf(session.configRoot, session.slug, '')) && this.needsRepublish(key, session),
      )
      .map(([key]) => key);
    this.projectsToRepublish.clear();
    return keys;
  }

  /** Drops sessions that went away and tells the listeners. */
  private forget(keys: readonly string[]): void {
    if (keys.length === 0) return;
    const gone: SessionKey[] = [];
    for (const key of keys) {
      const session = this.sessions.get(key);
      if (!session) continue;
      this.sessions.delete(key);
      this.entries.delete(key);
      for (const path of [session.path, ...session.subagents.map((agent) => agent.path)]) this.dropFile(path);
      gone.push({ configRoot: session.configRoot, slug: session.slug, sessionId: session.sessionId });
    }
    this.emit({ updated: [], removed: gone });
  }

  /** Forgets one file: its record, its live aggregate and its saved state. */
  private dropFile(path: string): void {
    const file = this.files.get(path);
    if (file && file.summary.otherSummaries.length > 0) this.otherSummaries = null;
    this.files.delete(path);
    this.liveAggregates.delete(path);
    if (file && file.offset >= STATE_MIN_BYTES) void this.store.deleteState(path).catch(() => undefined);
  }

  private publishSessions(keys: readonly string[], removed: readonly SessionKey[]): void {
    const updated: SessionCatalogEntry[] = [];
    for (const key of keys) {
      const session = this.sessions.get(key);
      const entry = session ? this.entryFor(session) : null;
      if (!entry) continue;
      this.entries.set(key, entry);
      updated.push(entry);
    }
    if (updated.length > 0 || removed.length > 0) this.emit({ updated, removed });
  }

  private emit(update: SessionUpdate): void {
    if (this.disposed) return;
    this.updateEmitter.fire(update);
  }

  /**
   * Live updates save the index a while later, once, not on every appended line (a big index takes a moment
   * to write). Losing the last few seconds costs nothing: those bytes are simply read again next time.
   */
  private scheduleSave(): void {
    this.saveDirty = true;
    this.saveTimer ??= setTimeout(() => {
      this.saveTimer = null;
      void this.serialize(() => this.saveIndex()).catch(() => undefined);
    }, LIVE_SAVE_DELAY_MS);
  }

  private async saveIndex(): Promise<void> {
    this.saveDirty = false;
    const metaPaths = new Set<string>();
    for (const session of this.sessions.values()) for (const agent of session.subagents) if (agent.metaPath) metaPaths.add(agent.metaPath);
    await this.store.saveIndex(
      {
        format: CATALOG_CACHE_FORMAT,
        files: [...this.files.values()],
        metas: [...this.metas.values()].filter((meta) => metaPaths.has(meta.path)),
        sessions: [...this.sessions.values()],
      },
      [...this.entries.values()],
    );
  }
}
