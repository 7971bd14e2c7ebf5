import { inSearchScope, type SearchHit, type SearchScope } from '../../../shared/model/search';
import { previewSecretSpans } from '../../../shared/memory/secretMask';
import { SecretMasker } from '../secrets/secretMasker';
import { listSearchTargets, type ArchivedSearchTarget, type MemoryFolderTarget, type SearchTarget } from './searchCorpus';
import { KeptSearchListing, type ListingChange } from './keptSearchListing';
import { searchPatternsFor } from './searchPattern';
import type { ListingJob } from './searchListing';
import type { SearchPart, UnitResult } from './searchWorker';
import { SearchWorkerPool } from './SearchWorkerPool';

/** Big files are cut into ranges so both cores can scan one multi-gigabyte transcript. */
const DEFAULT_UNIT_BYTES = 16 * 1024 * 1024;
/** Units dispatched beyond the oldest one not yet reported, per worker: bounds buffered results. */
const LOOKAHEAD_PER_WORKER = 4;
export const DEFAULT_SEARCH_LIMIT = 500;

export interface HomeSearchOptions {
  /** Config roots whose `projects/` hold the transcripts. */
  readonly roots: readonly string[];
  /** The memory folders to search; default: every `<root>/projects/<slug>/memory`. */
  readonly memoryFolders?: () => Promise<readonly MemoryFolderTarget[]>;
  /** Scanner threads; default: the cores available, at most 4. */
  readonly workers?: number;
  /** Files larger than this are cut into ranges of this size, scanned in parallel; default 16 MiB. */
  readonly unitBytes?: number;
  /** Transcripts the archive holds: those Claude Code deleted are searched in their archived copies. */
  readonly archived?: () => Promise<readonly ArchivedSearchTarget[]>;
  /**
   * Keep the listing between searches, kept current by `filesChanged` (the app, whose watchers report every change);
   * otherwise every search lists afresh (a one-shot command, or no watcher).
   */
  readonly keepListing?: boolean;
}

export interface SearchOptions {
  /** Each hit, in order; `fileMtimeMs` is its file's modification time as the newest-first order used it. */
  readonly onHit?: (hit: SearchHit, fileMtimeMs: number) => void;
  readonly signal?: AbortSignal;
  readonly limit?: number;
  /** Only the files in this scope are read; default: every file. */
  readonly scope?: SearchScope;
  /** Also find lines that record what Claude Code sent to the API (2.1.3xx); left out by default. */
  readonly includeRequestRecords?: boolean;
  /**
   * Which folders to read: all (default); only the project folders (transcripts, their spilled outputs and session
   * memory, and the archived copies); or only the memory folders. Two searches, one of each, give the hits of one over
   * all, merged by file as `onHit` orders them.
   */
  readonly folders?: 'all' | 'projects' | 'memory';
}

export interface SearchSummary {
  readonly hitCount: number;
  readonly filesScanned: number;
  readonly bytesScanned: number;
  /** True when the search stopped at its limit. */
  readonly truncated: boolean;
  readonly cancelled: boolean;
}

/** Small files are batched into one worker message; this many bytes or files per message at most. */
const BATCH_BYTES = 4 * 1024 * 1024;
const BATCH_FILES = 64;

interface PlannedPart {
  readonly target: SearchTarget;
  readonly part: SearchPart;
  readonly lastOfFile: boolean;
}

/** Transcripts are matched inside their JSON strings; every other file is plain text. */
function partKind(target: SearchTarget): SearchPart['kind'] {
  return target.kind === 'transcript' ? 'transcript' : 'memory';
}

/**
 * The first message's bytes; each next one may hold twice as many, up to the batch and range sizes. Small first
 * messages put both threads on the newest bytes at once and send their hits back sooner; later ones are big, so the
 * messages of a full scan stay few.
 */
const FIRST_UNIT_BYTES = 256 * 1024;

/** Cuts the targets into worker messages: ranges of big files, batches of small ones; order is kept. */
function planUnits(targets: readonly SearchTarget[], unitBytes: number): PlannedPart[][] {
  const units: PlannedPart[][] = [];
  let batch: PlannedPart[] = [];
  let batchBytes = 0;
  const cap = (limit: number): number => Math.min(limit, FIRST_UNIT_BYTES * 2 ** Math.min(units.length, 30));
  const flush = (): void => {
    if (batch.length > 0) units.push(batch);
    batch = [];
    batchBytes = 0;
  };
  for (const target of targets) {
    if (target.size > Math.min(cap(BATCH_BYTES), unitBytes)) {
      flush();
      for (let start = 0; start < target.size;) {
        const end = Math.min(target.size, start + Math.max(1, cap(unitBytes)));
        units.push([
          {
            target,
            part: { path: target.path, kind: partKind(target), start, end, archive: target.archive },
            lastOfFile: end >= target.size,
          },
        ]);
        start = end;
      }
      continue;
    }
    batch.push({
      target,
      part: { path: target.path, kind: partKind(target), start: 0, end: target.size, archive: target.archive },
      lastOfFile: true,
    });
    batchBytes += target.size;
    if (batchBytes >= cap(BATCH_BYTES) || batch.length >= BATCH_FILES) flush();
  }
  flush();
  return units;
}

/**
 * Text search over every transcript and memory file, newest file first, in worker threads (no native
 * dependency). Hits stream out through `onHit` in a stable order: by file (newest first), then by line.
 * One search runs at a time; a second call waits for the first to finish or be cancelled.
 */
export class HomeSearch {
  private readonly pool: SearchWorkerPool;
  private readonly masker = new SecretMasker();
  private generation = 0;
  private running: Promise<unknown> = Promise.resolve();
  private roots: readonly string[];
  private readonly kept: KeptSearchListing | null;

  constructor(private readonly options: HomeSearchOptions) {
    this.roots = options.roots;
    this.pool = new SearchWorkerPool(options.workers);
    this.kept = options.keepListing ? new KeptSearchListing() : null;
  }

  setRoots(roots: readonly string[]): void {
    this.roots = roots;
  }

  /** Files and folders that changed on disk, for the kept listing (see `keepListing`). */
  filesChanged(changes: readonly ListingChange[]): void {
    this.kept?.changed(changes);
  }

  /** Something the listing cannot follow by paths changed (the memory folders moved): the next search lists everything. */
  forgetListing(): void {
    this.kept?.reset();
  }

  search(query: string, options: SearchOptions = {}): Promise<SearchSummary> {
    const run = this.running.then(
      () => this.runSearch(query, options),
      () => this.runSearch(query, options),
    );
    this.running = run.catch(() => undefined);
    return run;
  }

  async dispose(): Promise<void> {
    this.pool.cancel(this.generation);
    await this.running;
    await this.pool.dispose();
  }

  private async runSearch(query: string, options: SearchOptions): Promise<SearchSummary> {
    const generation = ++this.generation;
    this.pool.warm();
    const limit = options.limit ?? DEFAULT_SEARCH_LIMIT;
    const patterns = searchPatternsFor(query);
    const folders = options.folders ?? 'all';
    // Found while the project folders are listed.
    const memoryFolders = folders === 'projects' ? Promise.resolve([]) : (this.options.memoryFolders?.() ?? Promise.resolve(null));
    memoryFolders.catch(() => undefined);
    const archived = folders === 'memory' ? [] : ((await this.options.archived?.()) ?? []);
    const lister = (jobs: readonly ListingJob[]) => this.pool.list(jobs);
    // Without a kept listing, every search lists afresh (on the threads, see searchListing.ts), so files created or
    // grown since the last search are read in their newest-first place.
    const listed =
      this.kept && folders === 'all'
        ? await this.kept.current(this.roots, memoryFolders, lister, archived)
        : await listSearchTargets(this.roots, memoryFolders, lister, archived, folders !== 'memory');
    if (options.signal?.aborted) return { hitCount: 0, filesScanned: 0, bytesScanned: 0, truncated: false, cancelled: true };
    const scope = options.scope;
    const targets = scope ? listed.filter((target) => inSearchScope(target, scope)) : listed;
    const planned = planUnits(targets, this.options.unitBytes ?? DEFAULT_UNIT_BYTES);

    let hitCount = 0;
    let filesScanned = 0;
    let bytesScanned = 0;
    let truncated = false;
    let failure: Error | null = null;
    const results = new Map<number, UnitResult>();
    const linesBefore = new Map<string, number>();
    const lastLine = new Map<string, number>();
    let nextToReport = 0;
    let nextToDispatch = 0;
    const stopped = (): boolean => truncated || failure !== null || (options.signal?.aborted ?? false);
    const onAbort = (): void => this.pool.cancel(generation);
    options.signal?.addEventListener('abort', onAbort);

    const report = (): void => {
      while (!stopped() && results.has(nextToReport)) {
        const result = results.get(nextToReport)!;
        results.delete(nextToReport);
        const parts = planned[nextToReport];
        nextToReport++;
        for (const [index, partResult] of result.parts.entries()) {
          if (truncated) break;
          const { target, lastOfFile } = parts[index];
          const base = linesBefore.get(target.path) ?? 0;
          for (const hit of partResult.hits) {
            const line = base + hit.newlinesBefore + 1;
            if (lastLine.get(target.path) === line) continue;
            lastLine.set(target.path, line);
            options.onHit?.(
              {
                kind: target.kind,
                configRoot: target.configRoot,
                slug: target.slug,
                sessionId: target.sessionId,
                agentId: target.agentId,
                path: target.path,
                line,
                preview: hit.preview,
                matchStart: hit.matchStart,
                matchLength: hit.matchLength,
                fileTime: new Date(target.mtimeMs).toISOString(),
                agentType: target.agentType,
                requestRecord: hit.requestRecord,
                archived: target.archive !== null,
              },
              target.mtimeMs,
            );
            hitCount++;
            if (hitCount >= limit) {
              truncated = true;
              this.pool.cancel(generation);
              break;
            }
          }
          linesBefore.set(target.path, base + partResult.newlines);
          bytesScanned += partResult.bytes;
          if (lastOfFile) filesScanned++;
        }
      }
    };

    const worker = async (slot: number): Promise<void> => {
      while (!stopped() && nextToDispatch < planned.length && nextToDispatch < nextToReport + this.pool.size * LOOKAHEAD_PER_WORKER) {
        const index = nextToDispatch++;
        try {
          const result = await this.pool.scan(slot, {
            id: index,
            generation,
            parts: planned[index].map((p) => p.part),
            patterns: { transcript: patterns.transcript, memory: patterns.memory },
            foldCase: patterns.foldCase,
            query,
            maxHits: Math.max(1, limit - hitCount),
            includeRequestRecords: options.includeRequestRecords ?? false,
          });
          if (result.cancelled) return;
          results.set(index, await this.maskPreviews(result));
          report();
        } catch (error) {
          failure = error instanceof Error ? error : new Error(String(error));
          this.pool.cancel(generation);
        }
      }
    };

    try {
      // Workers that ran out of lookahead wait for the reports to catch up, then go on.
      while (!stopped() && nextToReport < planned.length) {
        await Promise.all(Array.from({ length: this.pool.size }, (_, slot) => worker(slot)));
        if (results.size === 0 && nextToDispatch >= planned.length) break;
      }
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
    }
    if (failure) throw failure;
    return { hitCount, filesScanned, bytesScanned, truncated, cancelled: (options.signal?.aborted ?? false) && !truncated };
  }

  /**
   * Masks secrets in a unit's previews (never in the scanned text, which the threads read as bytes): one scan of the
   * few previews a unit found, and nothing at all for the many units that found none. Masking keeps lengths, so
   * the match offsets still fit.
   */
  private async maskPreviews(result: UnitResult): Promise<UnitResult> {
    const previews = result.parts.flatMap((part) => part.hits.map((hit) => hit.preview));
    if (previews.length === 0) return result;
    const { texts } = await this.masker.maskAll(previews, previewSecretSpans);
    let next = 0;
    return {
      ...result,
      parts: result.parts.map((part) => ({ ...part, hits: part.hits.map((hit) => ({ ...hit, preview: texts[next++] })) })),
    };
  }
}
