import { HomeSearch } from '../../electron/core/search/HomeSearch';
import { HomeWatcher } from '../../electron/core/watch/HomeWatcher';
import { serveProbe } from './probeProtocol';

export interface SearchInput {
  readonly root: string;
  /** A word that occurs in some prompts (first hit). */
  readonly needle: string;
  /** A text of the newest session (its id, on every line of it): the first hit when the match is in the newest file. */
  readonly newestText: string;
  /** A text that occurs nowhere, so the search reads every file (full scan). */
  readonly absent: string;
}

export interface SearchOutput {
  readonly firstHitMs: number;
  readonly firstHitNewestMs: number;
  readonly firstHitListingMs: number;
  readonly fullScanMs: number;
  readonly needleHits: number;
  readonly bytesScanned: number;
}

/** Milliseconds from the call to the first hit of `query`; throws when there is none. */
async function timeToFirstHit(search: HomeSearch, query: string): Promise<{ ms: number; hits: number }> {
  let firstHitMs = Number.NaN;
  const started = performance.now();
  const found = await search.search(query, {
    limit: Number.MAX_SAFE_INTEGER,
    onHit: () => {
      if (Number.isNaN(firstHitMs)) firstHitMs = performance.now() - started;
    },
  });
  if (found.hitCount === 0) throw new Error(`no hit for ${query}`);
  return { ms: firstHitMs, hits: found.hitCount };
}

/**
 * Search as a user of the running app meets it: the worker threads are up and the listing is kept (a warm-up search
 * made it; a watcher over the home keeps it current, as the engine's does), then one search until its first hit of
 * the planted word, one of a text in the newest session, and one that must read every transcript and memory file.
 * Before that, the same first hit with a search that lists every folder afresh (what the app's first search after
 * start and every one-shot search pay).
 */
serveProbe<SearchInput, SearchOutput>(async ({ root, needle, newestText, absent }) => {
  const afresh = new HomeSearch({ roots: [root] });
  await afresh.search(needle, { limit: 1 });
  const listing = await timeToFirstHit(afresh, needle);
  await afresh.dispose();

  const watcher = new HomeWatcher({ configRoots: [root], memoryDirs: [] });
  await watcher.start();
  const search = new HomeSearch({ roots: [root], keepListing: true });
  watcher.onDidChange((changes) => search.filesChanged(changes.map(({ event, path }) => ({ event, path }))));
  await search.search(needle, { limit: 1 });
  const planted = await timeToFirstHit(search, needle);
  const newest = await timeToFirstHit(search, newestText);
  const scanStarted = performance.now();
  const scan = await search.search(absent, { limit: Number.MAX_SAFE_INTEGER });
  const fullScanMs = performance.now() - scanStarted;
  await search.dispose();
  await watcher.dispose();
  if (scan.hitCount !== 0) throw new Error(`${absent} was expected nowhere`);
  return {
    firstHitMs: planted.ms,
    firstHitNewestMs: newest.ms,
    firstHitListingMs: listing.ms,
    fullScanMs,
    needleHits: planted.hits,
    bytesScanned: scan.bytesScanned,
  };
});
