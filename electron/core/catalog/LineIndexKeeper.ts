import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { backgroundHeapGrowth } from '../async/backgroundHeapGrowth';
import { DisposableStore } from '../events';
import type { SavedLineIndexes } from '../transcripts/savedLineIndexes';
import { LineColumnsBuilder } from '../transcripts/lineColumnsBuilder';
import { TranscriptDocument } from '../transcripts/TranscriptDocument';
import type { CatalogService } from './CatalogService';

/** Transcripts are indexed in slices this long, so the engine's requests and events get their turn between them. */
const SLICE_MS = 25;
/**
 * A saved index this close to its transcript's end is left as it is: opening the transcript reads the rest, about
 * 3 ms a megabyte.
 */
const BEHIND_BYTES_KEPT = 1024 * 1024;
/** The keeper fills at most this share of the saved indexes' room; the rest is for the transcripts the user opens. */
const KEEPER_SHARE = 0.75;

export interface LineIndexKeeperOptions {
  readonly catalog: CatalogService;
  /** The store the transcript viewer opens from (`TranscriptService`'s). */
  readonly savedIndexes: SavedLineIndexes;
  /** Run after each finished catalog build (the app shells); otherwise only when asked. */
  readonly follow: boolean;
}

/** What one run did. */
export interface KeptIndexes {
  /** Transcripts indexed and saved. */
  readonly saved: number;
  /** Big transcripts whose saved index was already current (or close enough). */
  readonly current: number;
  /** The bytes of the transcripts it indexed. */
  readonly bytesIndexed: number;
  /** It stopped because the saved indexes filled the keeper's share of their room. */
  readonly full: boolean;
  readonly cancelled: boolean;
}

/**
 * Keeps a saved line index for every big transcript, so the first time the viewer opens one it reads the index
 * instead of the whole file (a 200 MB transcript's first page: about 45 ms from its index, 600 ms without). After
 * each catalog build it goes through the sessions newest first and indexes, in short slices on the engine's thread,
 * those whose index is missing or far behind the file; it stops when the indexes fill their share of the store.
 * The catalog's own pass does not build them: indexing a transcript costs more than cataloguing it, and only the
 * few big ones are worth a saved index (the store's `minFileBytes`).
 */
export class LineIndexKeeper {
  private run: Promise<KeptIndexes> | null = null;
  private runAgain = false;
  private readonly controller = new AbortController();
  private readonly subscriptions = new DisposableStore();

  constructor(private readonly options: LineIndexKeeperOptions) {
    if (!options.follow) return;
    this.subscriptions.add(
      options.catalog.onDidProgress((progress) => {
        if (!progress.running && !progress.cancelled) this.request();
      }),
    );
  }

  /** Brings every big transcript's saved index up to date (joining a run already going); resolves with what it did. */
  bringUpToDate(): Promise<KeptIndexes> {
    this.run ??= backgroundHeapGrowth
      .during(() => this.keepAll())
      .finally(() => {
        this.run = null;
        if (this.runAgain && !this.controller.signal.aborted) {
          this.runAgain = false;
          void this.bringUpToDate();
        }
      });
    return this.run;
  }

  /** Resolves once no run is going (at once when none is), a run started again after a build included. */
  async whenIdle(): Promise<void> {
    while (this.run) await this.run.catch(() => undefined);
  }

  async dispose(): Promise<void> {
    this.subscriptions.dispose();
    this.controller.abort();
    await this.run;
  }

  /** A build finished: a run starts now, or again after the one going (which may have listed the catalog before it). */
  private request(): void {
    if (this.run) this.runAgain = true;
    else void this.bringUpToDate();
  }

  private async keepAll(): Promise<KeptIndexes> {
    const { savedIndexes } = this.options;
    const { minFileBytes, maxTotalBytes } = savedIndexes.options;
    const signal = this.controller.signal;
    let saved = 0;
    let current = 0;
    let bytesIndexed = 0;
    const result = (full: boolean): KeptIndexes => ({ saved, current, bytesIndexed, full, cancelled: signal.aborted });
    for (const entry of this.options.catalog.catalog.list()) {
      if (signal.aborted) break;
      if (entry.bytes < minFileBytes) continue;
      const path = join(entry.configRoot, 'projects', entry.slug, `${entry.sessionId}.jsonl`);
      const stats = await stat(path).catch(() => null);
      if (!stats?.isFile() || stats.size < minFileBytes) continue;
      const extent = await savedIndexes.extentOf(path);
      if (signal.aborted) break;
      if (extent !== null && stats.size - extent.indexedBytes <= BEHIND_BYTES_KEPT) {
        current++;
        continue;
      }
      const total = await this.keep(path, signal).catch(() => null);
      if (total === null) continue;
      saved++;
      bytesIndexed += stats.size;
      if (total >= maxTotalBytes * KEEPER_SHARE) return result(true);
    }
    return result(false);
  }

  /** Indexes one transcript (on from its saved index, if any) and saves it; the store's total, or null if not saved. */
  private async keep(path: string, signal: AbortSignal): Promise<number | null> {
    // Its lines kept in the saved format's columns, which the save then writes as they are (see `LineColumnsBuilder`).
    const document = await TranscriptDocument.open(path, {
      budgetMs: SLICE_MS,
      savedIndexes: this.options.savedIndexes,
      newLineStore: () => new LineColumnsBuilder(),
    });
    try {
      while (!document.complete) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        if (signal.aborted) return null;
        await document.refresh(SLICE_MS, { publish: false });
      }
      if (signal.aborted) return null;
      // The views saved with the index are worked out from the published lines.
      document.publish();
      return await document.saveNow();
    } finally {
      // The keeper saves when it chooses: a document that completed as it opened scheduled a save of its own.
      document.cancelScheduledSave();
    }
  }
}
