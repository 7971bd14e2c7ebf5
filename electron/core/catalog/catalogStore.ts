import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { CATALOG_CACHE_FORMAT, cachedStateSchema, type CachedState, type CatalogIndex } from './catalogCacheSchema';
import { saveStateFileSync, stateFilePath, stateFileText } from './catalogStateFile';
import type { SessionCatalogEntry } from '../../../shared/model/catalog';
import { checksummedJsonHash, readChecksummedJson, writeChecksummedJsonText } from '../fs/checksummedJsonFile';
import { replaceFileAtomically } from '../fs/replaceFileAtomically';
import type { TranscriptAggregateState } from './transcriptAggregate';

/** Larger index files are not a catalog we wrote; they are discarded rather than parsed. */
const MAX_INDEX_BYTES = 512 * 1024 * 1024;

async function readJson(path: string): Promise<unknown> {
  const stats = await fs.stat(path);
  if (stats.size > MAX_INDEX_BYTES) throw new Error('catalog cache file is too large');
  return JSON.parse(await fs.readFile(path, 'utf8')) as unknown;
}

function* jsonArray(name: string, items: readonly unknown[]): Generator<string> {
  yield `${JSON.stringify(name)}:[`;
  for (let i = 0; i < items.length; i++) yield i === 0 ? JSON.stringify(items[i]) : `,${JSON.stringify(items[i])}`;
  yield ']';
}

/**
 * The saved listing's format: the catalog's entries as the listing answers them, and the hash of the index they were
 * made from (see `CatalogStore.saveIndex`).
 */
const LISTING_FORMAT = 'catalog-listing/1';

interface SavedListing {
  readonly indexSha1: string;
  readonly sessions: readonly SessionCatalogEntry[];
}

function* listingJson(indexSha1: string, sessions: readonly SessionCatalogEntry[]): Generator<string> {
  yield `{"indexSha1":${JSON.stringify(indexSha1)},`;
  yield* jsonArray('sessions', sessions);
  yield '}';
}

/** The index as JSON text, in pieces; parsed back, it is the same object `JSON.stringify` would have written. */
function* indexJson(index: CatalogIndex): Generator<string> {
  yield `{"format":${JSON.stringify(index.format)},`;
  yield* jsonArray('files', index.files);
  yield ',';
  yield* jsonArray('metas', index.metas);
  yield ',';
  yield* jsonArray('sessions', index.sessions);
  yield '}';
}

/**
 * The catalog's cache in the app data folder: one index (every file's identity, saved offset and summary)
 * and one state file per transcript (what reading on from the saved offset needs). Only this class writes
 * under `<dataDir>/catalog`; nothing is ever written under a config root.
 */
export class CatalogStore {
  readonly dir: string;
  /** Where the per-transcript states are (the scan worker writes the states of the files it reads there too). */
  readonly stateDir: string;
  /** State writes still on their way, by transcript path. */
  private readonly stateWrites = new Map<string, Promise<void>>();
  /** The state folder, made once for all the state writes of this store (null until the first write). */
  private stateDirMade: Promise<unknown> | null = null;

  constructor(dataDir: string) {
    this.dir = join(dataDir, 'catalog');
    this.stateDir = join(this.dir, 'state');
  }

  private get indexPath(): string {
    return join(this.dir, 'index.json');
  }

  /**
   * The saved index, or null when there is none or it is corrupt (then it is ignored and later overwritten).
   * The file is a header line with the body's SHA-1, then the body: a body that is not byte for byte what
   * this class wrote (cut short, edited, another format) is refused at the cost of one hash instead of a
   * schema check of thousands of entries, which keeps a warm start fast.
   */
  async loadIndex(): Promise<CatalogIndex | null> {
    const index = (await readChecksummedJson(this.indexPath, CATALOG_CACHE_FORMAT, MAX_INDEX_BYTES)) as CatalogIndex | null;
    return index && Array.isArray(index.files) && Array.isArray(index.metas) && Array.isArray(index.sessions) ? index : null;
  }

  private get listingPath(): string {
    return join(this.dir, 'listing.json');
  }

  /**
   * Written entry by entry: a catalog of thousands of sessions is tens of megabytes as one JSON string. Then the
   * listing made from it (`listing`, the catalog's entries), which names the index's hash: a warm start answers its
   * first listing from that alone, without the index's per-file summaries (on the 10 GB home, 34 of its 79 MB).
   */
  async saveIndex(index: CatalogIndex, listing: readonly SessionCatalogEntry[]): Promise<void> {
    const indexSha1 = await writeChecksummedJsonText(this.indexPath, CATALOG_CACHE_FORMAT, indexJson(index));
    await writeChecksummedJsonText(this.listingPath, LISTING_FORMAT, listingJson(indexSha1, listing));
  }

  /**
   * The listing saved with the index on disk, or null when there is none, it is corrupt, or it was made from another
   * index (a save cut short between the two files).
   */
  async loadListing(): Promise<readonly SessionCatalogEntry[] | null> {
    const listing = (await readChecksummedJson(this.listingPath, LISTING_FORMAT, MAX_INDEX_BYTES)) as SavedListing | null;
    if (!listing || !Array.isArray(listing.sessions)) return null;
    return listing.indexSha1 === (await checksummedJsonHash(this.indexPath)) ? listing.sessions : null;
  }

  private statePath(path: string): string {
    return stateFilePath(this.stateDir, path);
  }

  /** The saved aggregate of one file at `offset`, or null when missing, corrupt or for another file version. */
  async loadState(path: string, fileId: string, offset: number): Promise<TranscriptAggregateState | null> {
    await this.stateWrites.get(path);
    try {
      const parsed = cachedStateSchema.safeParse(await readJson(this.statePath(path)));
      if (!parsed.success) return null;
      const saved: CachedState = parsed.data;
      if (saved.path !== path || saved.fileId !== fileId || saved.offset !== offset) return null;
      return saved.state;
    } catch {
      return null;
    }
  }

  /**
   * Saves a file's aggregate, serialised by the caller (so it may go on adding lines to it, or serialise it in
   * another thread), without making the caller wait for the disk: written behind, and writes of one file land
   * in order. A write that fails costs nothing but speed: without its state, the file is read again from the
   * start when it grows.
   */
  saveStateInBackground(path: string, fileId: string, offset: number, stateText: string): void {
    const text = stateFileText(path, fileId, offset, stateText);
    const previous = this.stateWrites.get(path) ?? Promise.resolve();
    const write = previous
      .then(() => (this.stateDirMade ??= fs.mkdir(this.stateDir, { recursive: true })))
      .then(() => replaceFileAtomically(this.statePath(path), text, { folderExists: true }))
      .catch((error: unknown) => {
        // A folder removed meanwhile is made again by the next write.
        if ((error as { code?: string }).code === 'ENOENT') this.stateDirMade = null;
      })
      .finally(() => {
        if (this.stateWrites.get(path) === write) this.stateWrites.delete(path);
      });
    this.stateWrites.set(path, write);
  }

  /**
   * Saves a file's state at once, in blocking calls: a build's reads, for which a promise chain per file costs more
   * than the write itself. Queued behind an earlier write of the same file still on its way, so writes land in order.
   */
  saveStateNow(path: string, fileId: string, offset: number, stateText: string): void {
    if (this.stateWrites.has(path)) this.saveStateInBackground(path, fileId, offset, stateText);
    else saveStateFileSync(this.stateDir, path, fileId, offset, stateText);
  }

  /** The write of a file's state still on its way, if any: another writer of that state waits for it first. */
  stateWriteOf(path: string): Promise<void> | undefined {
    return this.stateWrites.get(path);
  }

  /** Resolves once every state write started so far has landed (or failed). */
  async statesWritten(): Promise<void> {
    while (this.stateWrites.size > 0) await Promise.all(this.stateWrites.values());
  }

  async deleteState(path: string): Promise<void> {
    await this.stateWrites.get(path);
    await fs.rm(this.statePath(path), { force: true });
  }
}
