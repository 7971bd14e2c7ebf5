import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { ANY_SCOPE, type SearchDoneEvent, type SearchHit, type SearchHitsEvent, type SearchScope } from '../../../shared/model/search';
import { HomeSearch, DEFAULT_SEARCH_LIMIT } from './HomeSearch';
import type { HomeService } from '../home/HomeService';
import type { ArchivedSearchTarget } from './searchCorpus';
import { searchableMemoryFolders } from './searchMemoryFolders';
import { Emitter } from '../events';
import type { LiveHome } from '../watch/liveHome';
import type { AgentMemoryWatch } from '../agents/AgentMemoryWatch';
import type { ChangeSetWriter } from '../changes/changeSetWriter';
import type { ListingChange } from './keptSearchListing';

/** Hits are sent to the UI in small batches: often enough to stream, rarely enough not to flood the socket. */
const HIT_BATCH_MS = 50;
const HIT_BATCH_SIZE = 200;

export interface SearchServiceOptions {
  readonly home: HomeService;
  /** The config roots the engine starts with (the home may switch to the demo later). */
  readonly roots: readonly string[];
  /** The transcripts the archive holds: those Claude Code deleted are searched in their archived copies. */
  readonly archived?: () => Promise<readonly ArchivedSearchTarget[]>;
  /**
   * What reports changes on disk: with them the listing is kept between searches (see KeptSearchListing), so a
   * search starts reading at once; without them (no watching) every search lists afresh.
   */
  readonly follow?: {
    readonly live: LiveHome;
    /** Agent memory inside projects has a watcher of its own. */
    readonly agentWatch: AgentMemoryWatch | null;
    /** The app's own writes, which the watchers pass over. */
    readonly writer: ChangeSetWriter;
  };
}

/**
 * The engine's search: one search at a time (a new one cancels the one before), its hits pushed as
 * `searchHits` events keyed by the search id, then one `searchDone`.
 */
export class SearchService {
  private readonly search: HomeSearch;
  private current: { id: string; controller: AbortController } | null = null;
  private readonly hitEmitter = new Emitter<SearchHitsEvent>();
  private readonly doneEmitter = new Emitter<SearchDoneEvent>();

  private readonly unsubscribe: (() => void)[] = [];

  constructor(options: SearchServiceOptions) {
    const follow = options.follow;
    this.search = new HomeSearch({
      roots: options.roots,
      memoryFolders: () => searchableMemoryFolders(options.home),
      archived: options.archived,
      keepListing: follow !== undefined,
    });
    this.unsubscribe.push(
      options.home.onDidChangeHome((snapshot) =>
        this.search.setRoots(snapshot.roots.filter((root) => root.exists).map((root) => root.path)),
      ),
    );
    if (follow) {
      const changed = (changes: readonly ListingChange[]): void => this.search.filesChanged(changes);
      this.unsubscribe.push(
        follow.live.onDidChange((changes) => changed(changes.map(({ event, path }) => ({ event, path })))),
        // Written paths are relative to the change set's root.
        follow.writer.onDidWrite((set) => changed(set.written.map(({ event, path }) => ({ event, path: join(set.root.dir, path) })))),
      );
      // The agent watch names the memory folders that changed: each is listed again.
      if (follow.agentWatch)
        this.unsubscribe.push(follow.agentWatch.onDidChange((folders) => changed(folders.map((path) => ({ event: 'addDir', path })))));
      // A listing made before the watchers followed the home may have missed a change: the first search after lists afresh.
      void follow.live.ready.then(
        () => this.search.forgetListing(),
        () => undefined,
      );
    }
  }

  onDidFindHits(listener: (event: SearchHitsEvent) => void): () => void {
    return this.hitEmitter.event(listener);
  }

  onDidFinish(listener: (event: SearchDoneEvent) => void): () => void {
    return this.doneEmitter.event(listener);
  }

  /** Starts a search (of the files in `scope`) and returns its id at once; results follow as events. */
  start(query: string, limit = DEFAULT_SEARCH_LIMIT, scope: SearchScope = ANY_SCOPE, includeRequestRecords = false): { searchId: string } {
    this.current?.controller.abort();
    const searchId = randomUUID();
    const controller = new AbortController();
    this.current = { id: searchId, controller };
    let batch: SearchHit[] = [];
    let delivered = 0;
    let timer: NodeJS.Timeout | null = null;
    const flush = (): void => {
      if (timer) clearTimeout(timer);
      timer = null;
      if (batch.length === 0) return;
      const hits = batch;
      batch = [];
      this.hitEmitter.fire({ searchId, hits });
    };
    const finish = (done: Omit<SearchDoneEvent, 'searchId'>): void => {
      flush();
      if (this.current?.id === searchId) this.current = null;
      this.doneEmitter.fire({ searchId, ...done });
    };
    this.search
      .search(query, {
        limit,
        scope,
        includeRequestRecords,
        signal: controller.signal,
        onHit: (hit) => {
          delivered++;
          batch.push(hit);
          if (batch.length >= HIT_BATCH_SIZE) flush();
          else timer ??= setTimeout(flush, HIT_BATCH_MS);
        },
      })
      .then(
        (summary) => finish({ ...summary, error: null }),
        (error: unknown) =>
          finish({
            hitCount: delivered,
            filesScanned: 0,
            bytesScanned: 0,
            truncated: false,
            cancelled: false,
            error: error instanceof Error ? error.message : String(error),
          }),
      );
    return { searchId };
  }

  /** Cancels a running search; an unknown or finished id is ignored. */
  cancel(searchId: string): void {
    if (this.current?.id === searchId) this.current.controller.abort();
  }

  async dispose(): Promise<void> {
    for (const unsubscribe of this.unsubscribe) unsubscribe();
    this.current?.controller.abort();
    this.hitEmitter.dispose();
    this.doneEmitter.dispose();
    await this.search.dispose();
  }
}
