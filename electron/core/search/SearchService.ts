import { randomUUID } from 'node:crypto';
import { ANY_SCOPE, type SearchDoneEvent, type SearchHit, type SearchHitsEvent, type SearchScope } from '../../../shared/model/search';
import { HomeSearch, DEFAULT_SEARCH_LIMIT } from './HomeSearch';
import type { HomeService } from '../home/HomeService';
import type { ArchivedSearchTarget } from './searchCorpus';
import { searchableMemoryFolders } from './searchMemoryFolders';

/** Hits are sent to the UI in small batches: often enough to stream, rarely enough not to flood the socket. */
const HIT_BATCH_MS = 50;
const HIT_BATCH_SIZE = 200;

export interface SearchServiceOptions {
  readonly home: HomeService;
  /** The config roots the engine starts with (the home may switch to the demo later). */
  readonly roots: readonly string[];
  /** The transcripts the archive holds: those Claude Code deleted are searched in their archived copies. */
  readonly archived?: () => Promise<readonly ArchivedSearchTarget[]>;
}

/**
 * The engine's search: one search at a time (a new one cancels the one before), its hits pushed as
 * `searchHits` events keyed by the search id, then one `searchDone`.
 */
export class SearchService {
  private readonly search: HomeSearch;
  private current: { id: string; controller: AbortController } | null = null;
  private readonly hitListeners = new Set<(event: SearchHitsEvent) => void>();
  private readonly doneListeners = new Set<(event: SearchDoneEvent) => void>();

  private readonly unsubscribe: () => void;

  constructor(options: SearchServiceOptions) {
    this.search = new HomeSearch({
      roots: options.roots,
      memoryFolders: () => searchableMemoryFolders(options.home),
      archived: options.archived,
    });
    this.unsubscribe = options.home.onDidChangeHome((snapshot) =>
      this.search.setRoots(snapshot.roots.filter((root) => root.exists).map((root) => root.path)),
    );
  }

  onDidFindHits(listener: (event: SearchHitsEvent) => void): () => void {
    this.hitListeners.add(listener);
    return () => this.hitListeners.delete(listener);
  }

  onDidFinish(listener: (event: SearchDoneEvent) => void): () => void {
    this.doneListeners.add(listener);
    return () => this.doneListeners.delete(listener);
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
      for (const listener of this.hitListeners) listener({ searchId, hits });
    };
    const finish = (done: Omit<SearchDoneEvent, 'searchId'>): void => {
      flush();
      if (this.current?.id === searchId) this.current = null;
      for (const listener of this.doneListeners) listener({ searchId, ...done });
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
    this.unsubscribe();
    this.current?.controller.abort();
    this.hitListeners.clear();
    this.doneListeners.clear();
    await this.search.dispose();
  }
}
