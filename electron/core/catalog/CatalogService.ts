import { basename, sep } from 'node:path';
import type { CatalogListing, CatalogProgress, SessionCatalogEntry, SessionKey, SessionUpdate } from '../../../shared/model/catalog';
import type { HomeSnapshot, ProjectSummary } from '../../../shared/model/home';
import { backgroundHeapGrowth } from '../async/backgroundHeapGrowth';
import type { HomeService } from '../home/HomeService';
import type { LiveHome } from '../watch/liveHome';
import type { WatchedChange } from '../watch/watchedChange';
import type { CatalogArchive } from './archivedSessionFiles';
import { newestFirst, SessionCatalog, type CatalogBuildOptions, type CatalogBuildResult, type CatalogFilter } from './SessionCatalog';
import { provisionalEntry } from './provisionalEntry';
import { ListingSnapshots } from './listingSnapshots';
import { isUuid, sessionKeyOf } from '../../../shared/claude/sessionIds';
import { DisposableStore, Emitter } from '../events';
import { CodedError } from '../../../shared/result';

/** Changes to one session within this window are read together (a streamed answer writes many lines quickly). */
const LIVE_BATCH_MS = 25;

/** What the listing asks for: one config root or project, and optionally a page of it. */
export interface CatalogListingRequest extends CatalogFilter {
  /** At most this many sessions. */
  readonly limit?: number;
  /** A later page of the listing a first page named, from `offset`. */
  readonly snapshot?: string;
  readonly offset?: number;
}

export interface CatalogServiceOptions {
  readonly home: HomeService;
  readonly live: LiveHome | null;
  readonly dataDir: string;
  /** The config roots the engine starts with (the home may switch to the demo later). */
  readonly roots: readonly string[];
  /** The built scan worker, which gives big builds a second thread; null to read in the engine's thread only. */
  readonly scanWorker: string | null;
  /** Keeps sessions Claude Code deleted in the catalog, read from their archived copies. */
  readonly archive?: CatalogArchive;
}

function sessionKeyString(key: SessionKey): string {
  return sessionKeyOf(key.configRoot, key.slug, key.sessionId);
}

/** Whether a session or project is one a listing of `filter` (one config root, one project or all) takes. */
function inFilter(filter: CatalogFilter, item: { readonly configRoot: string; readonly slug: string }): boolean {
  return (filter.configRoot ?? item.configRoot) === item.configRoot && (filter.slug ?? item.slug) === item.slug;
}

/** The session a path under `<root>/projects/<slug>/<sessionId>/…` belongs to (sub-agents, meta.json, session memory). */
function sessionOfNestedPath(path: string, configRoot: string): SessionKey | null {
  const prefix = `${configRoot}${sep}projects${sep}`;
  if (!path.startsWith(prefix)) return null;
  const [slug, sessionId] = path.slice(prefix.length).split(sep);
  return slug && sessionId && isUuid(sessionId) ? { configRoot, slug, sessionId } : null;
}

/**
 * The catalog inside the engine: serves the cached catalog at once and refreshes it in the background,
 * follows the home's config roots and memory folders, and turns watcher events into incremental reads
 * of the sessions that changed (from their saved offsets), so an open timeline updates in place.
 */
export class CatalogService {
  readonly catalog: SessionCatalog;
  private memoryDirs = new Map<string, string>();
  private roots: readonly string[];
  private refreshing: Promise<void> | null = null;
  private controller: AbortController | null = null;
  private refreshedOnce = false;
  private pending = new Map<string, SessionKey>();
  private pendingSiblings = new Map<string, { configRoot: string; slug: string; path: string }>();
  private liveTimer: NodeJS.Timeout | null = null;
  private readonly subscriptions = new DisposableStore();
  /** Rows from discovery's reads for sessions a running build has not listed yet, until it lists each (see `provisionalEntry`). */
  private readonly provisional = new Map<string, SessionCatalogEntry>();
  private readonly timelineEmitter = new Emitter<SessionUpdate>();
  private readonly snapshots = new ListingSnapshots();

  constructor(private readonly options: CatalogServiceOptions) {
    this.roots = options.roots;
    this.catalog = new SessionCatalog({
      dataDir: options.dataDir,
      roots: options.roots,
      scanWorker: options.scanWorker ? { script: options.scanWorker } : undefined,
      archive: options.archive,
      memoryDirFor: (configRoot, slug) =>
        this.memoryDirs.get(`${configRoot}\0${slug}`) ?? `${configRoot}${sep}projects${sep}${slug}${sep}memory`,
    });
    this.subscriptions.add(options.home.onDidChangeHome((snapshot) => this.followHome(snapshot)));
    this.subscriptions.add(this.catalog.onDidUpdateSessions((update) => this.updateTimeline(update)));
    if (options.live) this.subscriptions.add(options.live.onDidChange((changes) => this.onChanges(changes)));
  }

  /** Whether a build was asked for since the engine started (the UI's first listing asks for one). */
  get hasRefreshed(): boolean {
    return this.refreshedOnce;
  }

  onDidUpdateSessions(listener: (update: SessionUpdate) => void): () => void {
    return this.catalog.onDidUpdateSessions(listener);
  }

  /**
   * What the timeline shows changed: the catalog's updates, and on a first start the provisional rows that come
   * before them (the other services follow `onDidUpdateSessions`, which has only what the catalog read).
   */
  onDidUpdateTimeline(listener: (update: SessionUpdate) => void): () => void {
    return this.timelineEmitter.event(listener);
  }

  onDidProgress(listener: (progress: CatalogProgress) => void): () => void {
    return this.catalog.onDidProgress(listener);
  }

  /**
   * Starts reading the saved catalog now: the app shells list it first thing, and file reads wait in line on
   * the thread pool, so a read queued behind the watcher's first scan of a big home would take a second.
   */
  async preloadCache(): Promise<void> {
    await this.catalog.loadFirstListing().catch(() => undefined);
  }

  /**
   * The catalog as cached, at once, whole or a page at a time; the first call also starts a background refresh whose
   * results arrive as events. A first page with more to follow names the listing it was taken from, and the later
   * pages come from that same listing (see `ListingSnapshots`).
   */
  async listing(request: CatalogListingRequest = {}): Promise<CatalogListing> {
    if (request.snapshot !== undefined) {
      const kept = this.snapshots.get(request.snapshot);
      if (!kept) throw new CodedError('NOT_FOUND', 'This listing of sessions is no longer kept: list them again.');
      return this.page(kept, request.offset ?? 0, request.limit, request.snapshot);
    }
    await this.catalog.loadFirstListing();
    if (!this.refreshedOnce) void this.refresh();
    if (this.refreshing !== null) this.addDiscoveredSessions(request);
    const provisional = [...this.provisional.values()].filter((entry) => inFilter(request, entry));
    const sessions = [...this.catalog.list(request), ...provisional].sort(newestFirst);
    const morePages = request.limit !== undefined && sessions.length > request.limit;
    return this.page(sessions, 0, request.limit, morePages ? this.snapshots.keep(sessions) : null);
  }

  private page(
    sessions: readonly SessionCatalogEntry[],
    offset: number,
    limit: number | undefined,
    snapshot: string | null,
  ): CatalogListing {
    const end = limit === undefined ? sessions.length : Math.min(sessions.length, offset + limit);
    return {
      sessions: offset === 0 && end === sessions.length ? sessions : sessions.slice(offset, end),
      total: sessions.length,
      snapshot: end < sessions.length ? snapshot : null,
      building: this.catalog.building || this.refreshing !== null,
      progress: this.catalog.progress,
    };
  }

  /** Starts a refresh unless one is running; resolves with the progress at its start. */
  refresh(): Promise<CatalogProgress | null> {
    this.refreshedOnce = true;
    if (!this.refreshing) {
      const controller = new AbortController();
      this.controller = controller;
      this.refreshing = (async () => {
        // A change after the build read a file but before the watcher follows it would be lost until the next one.
        // Closing the app meanwhile must not wait for the watcher's scan.
        const cancelled = new Promise<void>((resolve) => controller.signal.addEventListener('abort', () => resolve(), { once: true }));
        // Only a head start: the build lists the same sessions when this fails.
        await this.showNewestProjectEarly(controller.signal).catch(() => undefined);
        await Promise.race([this.options.live?.ready.catch(() => undefined), cancelled]);
        if (controller.signal.aborted) return;
        // Memory folders come from the home (settings may move them); the catalog needs them to spot memory writes.
        this.learnMemoryDirs(await this.options.home.getHome());
        // Under the held growth like the passes it overlaps: left to V8, the build's last seconds on the engine's
        // thread took the large home's heap from 55 to 225 MB before a full collection (docs/performance.md, round nine).
        await backgroundHeapGrowth.during(() => this.catalog.build({ signal: controller.signal }));
      })()
        .catch(() => undefined)
        .finally(() => {
          this.refreshing = null;
          this.controller = null;
          this.dropProvisional();
        });
    }
    return Promise.resolve(this.catalog.progress);
  }

  /** Brings the catalog up to date and waits for it (the CLI): memory folders first, then a full build. */
  async buildNow(options: CatalogBuildOptions = {}): Promise<CatalogBuildResult> {
    await this.refreshing;
    this.refreshedOnce = true;
    this.learnMemoryDirs(await this.options.home.getHome());
    return this.catalog.build(options);
  }

  cancel(): void {
    this.controller?.abort();
  }

  async dispose(): Promise<void> {
    this.subscriptions.dispose();
    this.timelineEmitter.dispose();
    if (this.liveTimer) clearTimeout(this.liveTimer);
    this.controller?.abort();
    await this.refreshing;
    await this.catalog.dispose();
  }

  /**
   * On a first start, while the home is still being found, lists the sessions of the project found first (the newest)
   * as discovery read them, so the timeline shows them at once; the build that follows replaces each row.
   */
  private async showNewestProjectEarly(signal: AbortSignal): Promise<void> {
    const first = await this.options.home.firstSnapshot();
    const newest = first.projects[0];
    if (first.discovering === null || !newest || signal.aborted) return;
    this.showProvisional(newest);
  }

  /**
   * While a build runs, a listing holds every session discovery has read that the catalog has not, as discovery read
   * it: on a first start whose discovery was done before the window asked (the browser opened after `ccmem serve`
   * started), the timeline stayed empty until the build reached the project's files, ~2 s on 1 GB. The answer
   * carries them, a page at a time; the build's updates replace each, and the end of the build drops what is left.
   */
  private addDiscoveredSessions(request: CatalogFilter): void {
    for (const project of this.options.home.projectsReadSoFar()) if (inFilter(request, project)) this.provisionalRowsOf(project);
  }

  /** Lists a project's sessions as discovery read them, for the time the catalog takes to read them in full. */
  private showProvisional(project: ProjectSummary): void {
    const rows = this.provisionalRowsOf(project);
    if (rows.length > 0) this.timelineEmitter.fire({ updated: rows, removed: [] });
  }

  /** A provisional row for each session of a project that discovery read and the catalog has not (kept until it has). */
  private provisionalRowsOf(project: ProjectSummary): SessionCatalogEntry[] {
    const rows: SessionCatalogEntry[] = [];
    for (const info of this.options.home.sessionsReadSoFar(project) ?? []) {
      if (this.catalog.get(project.configRoot, project.slug, info.sessionId)) continue;
      const key = sessionKeyOf(project.configRoot, project.slug, info.sessionId);
      let row = this.provisional.get(key);
      if (!row) {
        row = provisionalEntry(project.configRoot, project.slug, info);
        this.provisional.set(key, row);
      }
      rows.push(row);
    }
    return rows;
  }

  /** Once a build ends (whole, cancelled or failed), rows the catalog did not list go: the catalog's listing is the truth. */
  private dropProvisional(): void {
    if (this.provisional.size === 0) return;
    const removed = [...this.provisional.values()].map(({ configRoot, slug, sessionId }) => ({ configRoot, slug, sessionId }));
    this.provisional.clear();
    this.timelineEmitter.fire({ updated: [], removed });
  }

  private updateTimeline(update: SessionUpdate): void {
    for (const entry of update.updated) this.provisional.delete(sessionKeyString(entry));
    for (const key of update.removed) this.provisional.delete(sessionKeyString(key));
    this.timelineEmitter.fire(update);
  }

  private learnMemoryDirs(snapshot: HomeSnapshot): void {
    this.memoryDirs = new Map(snapshot.projects.map((project) => [`${project.configRoot}\0${project.slug}`, project.memoryDir]));
  }

  private followHome(snapshot: HomeSnapshot): void {
    this.learnMemoryDirs(snapshot);
    const roots = snapshot.roots.filter((root) => root.exists).map((root) => root.path);
    if (roots.join('\0') === this.roots.join('\0')) return;
    // Another home (the demo): catalog it instead, once the running build has stopped.
    this.roots = roots;
    this.catalog.setRoots(roots);
    this.controller?.abort();
    void (this.refreshing ?? Promise.resolve()).then(() => this.refresh());
  }

  private onChanges(changes: readonly WatchedChange[]): void {
    for (const change of changes) {
      if (change.kind === 'transcript') {
        const key = { configRoot: change.configRoot, slug: change.slug, sessionId: change.sessionId };
        this.pending.set(sessionKeyString(key), key);
      } else if (change.kind === 'subagent-transcript' || change.kind === 'other') {
        const root = this.roots.find((r) => change.path.startsWith(`${r}${sep}`));
        if (!root) continue;
        const nested = sessionOfNestedPath(change.path, root);
        if (nested) this.pending.set(sessionKeyString(nested), nested);
        else if (change.kind === 'subagent-transcript' && basename(change.path).startsWith('agent-'))
          this.pendingSiblings.set(change.path, { configRoot: change.configRoot, slug: change.slug, path: change.path });
      }
    }
    if (this.pending.size === 0 && this.pendingSiblings.size === 0) return;
    this.liveTimer ??= setTimeout(() => this.flushLive(), LIVE_BATCH_MS);
  }

  private flushLive(): void {
    this.liveTimer = null;
    const keys = [...this.pending.values()];
    const siblings = [...this.pendingSiblings.values()];
    this.pending.clear();
    this.pendingSiblings.clear();
    if (keys.length > 0) void this.catalog.refreshSessions(keys).catch(() => undefined);
    for (const sibling of siblings)
      void this.catalog.refreshSiblingAgent(sibling.configRoot, sibling.slug, sibling.path).catch(() => undefined);
  }
}
