import { HomeSearch } from '../../electron/core/search/HomeSearch';
import { serveProbe } from './probeProtocol';

export interface SearchInput {
  readonly root: string;
  /** A word that occurs in some prompts (first hit). */
  readonly needle: string;
  /** A text that occurs nowhere, so the search reads every file (full scan). */
  readonly absent: string;
}

export interface SearchOutput {
  readonly firstHitMs: number;
  readonly fullScanMs: number;
  readonly needleHits: number;
  readonly bytesScanned: number;
}

/**
 * Search as a user of the running app meets it: the worker threads are up (a warm-up search started them),
 * then one search until its first hit, and one that must read every transcript and memory file.
 */
serveProbe<SearchInput, SearchOutput>(async ({ root, needle, absent }) => {
  const search = new HomeSearch({ roots: [root] });
  await search.search(needle, { limit: 1 });
  let firstHitMs = Number.NaN;
  const started = performance.now();
  const found = await search.search(needle, {
    limit: Number.MAX_SAFE_INTEGER,
    onHit: () => {
      if (Number.isNaN(firstHitMs)) firstHitMs = performance.now() - started;
    },
  });
  if (found.hitCount === 0) throw new Error(`no hit for ${needle}`);
  const scanStarted = performance.now();
  const scan = await search.search(absent, { limit: Number.MAX_SAFE_INTEGER });
  const fullScanMs = performance.now() - scanStarted;
  await search.dispose();
  if (scan.hitCount !== 0) throw new Error(`${absent} was expected nowhere`);
  return { firstHitMs, fullScanMs, needleHits: found.hitCount, bytesScanned: scan.bytesScanned };
});
