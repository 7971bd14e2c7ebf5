import { open } from 'node:fs/promises';
import { HomeSearch } from '../../electron/core/search/HomeSearch';
import { listFolderTargets, memorySearchFolders, newestFirst, projectFolders } from '../../electron/core/search/searchCorpus';
import { listFolderSync } from '../../electron/core/search/searchListing';
import { HomeWatcher } from '../../electron/core/watch/HomeWatcher';
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

/** Plain text (letters, digits, spaces, a few marks: the same bytes in JSON) is this long at least. */
const PLAIN_TEXT = /[A-Za-z0-9 .:,-]{12,40}/;

/**
 * A text from the start of the file a search reads first (the newest, in the search's own order): its first hit is in
 * the first message to the threads, so the time to it is how soon a search starts reading.
 */
async function textOfFirstFileRead(root: string): Promise<string> {
  const { projects, defaultMemory } = await projectFolders([root]);
  const folders = [...projects, ...memorySearchFolders(defaultMemory)];
  const listed = await listFolderTargets(folders, async (jobs) => jobs.map(listFolderSync));
  const [first] = newestFirst(listed.flat(), [root], []);
  if (!first) throw new Error('the home has no file to search');
  const handle = await open(first.path, 'r');
  try {
    const head = Buffer.alloc(4096);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const text = PLAIN_TEXT.exec(head.toString('latin1', 0, bytesRead))?.[0].trim();
    if (!text) throw new Error(`no plain text at the start of ${first.path}`);
    return text;
  } finally {
    await handle.close();
  }
}

/**
 * Search as a user of the running app meets it: the worker threads are up and the listing is kept (a warm-up search
 * made it; a watcher over the home keeps it current, as the engine's does), then one search until its first hit of
 * the planted word, one of a text at the start of the first file read, and one that must read every transcript and memory file.
 * Before that, the same first hit with a search that lists every folder afresh (what the app's first search after
 * start and every one-shot search pay).
 */
serveProbe<SearchInput, SearchOutput>(async ({ root, needle, absent }) => {
  const newestText = await textOfFirstFileRead(root);
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
