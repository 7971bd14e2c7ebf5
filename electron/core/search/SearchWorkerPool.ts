import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { REQUEST_RECORD_ATTACHMENTS, REQUEST_RECORD_TYPES } from '../../../shared/transcript/transcriptEntry';
import { quoteIsEscaped } from '../jsonl/jsonFieldScanner';
import { listFolderSync, type ListingJob } from './searchListing';
import { createByteMatcher } from '../jsonl/byteMatcher';
import {
  searchWorkerMain,
  type RequestRecordKinds,
  type ListingResult,
  type SearchUnit,
  type SearchWorkerData,
  type SearchWorkerRequest,
  type UnitResult,
} from './searchWorker';

/**
 * The worker program as source text: started with `eval`, so no separate worker file has to be bundled. What it
 * shares with the engine (the listing, the JSON quote rule, the byte matcher, the kinds of request records) is written in
 * from the source.
 * Some transpilers (tsx, vitest) wrap named functions in a `__name` helper to keep their names; the
 * worker has no such helper, so it gets a do-nothing one.
 */
const WORKER_SOURCE = `var __name = (target) => target;\n(${searchWorkerMain.toString()})(${listFolderSync.toString()}, ${quoteIsEscaped.toString()}, ${createByteMatcher.toString()}, ${JSON.stringify(
  { types: [...REQUEST_RECORD_TYPES], attachments: [...REQUEST_RECORD_ATTACHMENTS] } satisfies RequestRecordKinds,
)});`;

/** Folders per listing message: few enough that threads share uneven projects, enough to keep messages rare. */
const LISTING_JOBS_PER_MESSAGE = 4;

interface Slot {
  readonly worker: Worker;
  pending: { resolve: (reply: unknown) => void; reject: (error: Error) => void } | null;
}

/**
 * A few scanner threads kept warm between searches (starting one costs tens of milliseconds, which a
 * first hit cannot afford). They list the folders a search reads, then scan its files. Each runs one
 * request at a time; a shared flag cancels a whole search's scans at once.
 */
export class SearchWorkerPool {
  readonly size: number;
  private readonly flags: Int32Array;
  private readonly slots: Slot[] = [];
  private readonly data: SearchWorkerData;

  constructor(size = Math.max(1, Math.min(4, availableParallelism()))) {
    this.size = size;
    const cancel = new SharedArrayBuffer(4);
    this.flags = new Int32Array(cancel);
    this.data = { cancel };
  }

  /** Asks every unit of `generation` (and older) to stop at its next chunk. */
  cancel(generation: number): void {
    if (Atomics.load(this.flags, 0) < generation) Atomics.store(this.flags, 0, generation);
  }

  /** Starts every scanner thread now, so they are ready when the first unit comes. */
  warm(): void {
    for (let index = 0; index < this.size; index++) this.slot(index);
  }

  /** Runs a unit on slot `index` (0 ≤ index < size); one request per slot at a time. */
  scan(index: number, unit: SearchUnit): Promise<UnitResult> {
    return this.send(index, { type: 'scan', unit }) as Promise<UnitResult>;
  }

  /** Lists folders on every thread at once; the answer keeps the order of `jobs`. Not to be mixed with scans. */
  async list(jobs: readonly ListingJob[]): Promise<ListingResult> {
    const results: ListingResult = new Array(jobs.length);
    let next = 0;
    let failed = false;
    const drain = async (index: number): Promise<void> => {
      while (!failed && next < jobs.length) {
        const from = next;
        next = Math.min(jobs.length, from + LISTING_JOBS_PER_MESSAGE);
        try {
          const listed = (await this.send(index, { type: 'list', jobs: jobs.slice(from, next) })) as ListingResult;
          for (const [offset, files] of listed.entries()) results[from + offset] = files;
        } catch (error) {
          failed = true;
          throw error;
        }
      }
    };
    // Every thread's request is answered before this returns, even when one fails: the next request a
    // slot receives must not find an earlier one still waiting for its reply.
    const drained = await Promise.allSettled(Array.from({ length: this.size }, (_, index) => drain(index)));
    for (const outcome of drained) if (outcome.status === 'rejected') throw outcome.reason;
    return results;
  }

  async dispose(): Promise<void> {
    const slots = this.slots.splice(0);
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  private send(index: number, request: SearchWorkerRequest): Promise<unknown> {
    const slot = this.slot(index);
    return new Promise((resolve, reject) => {
      slot.pending = { resolve, reject };
      slot.worker.postMessage(request);
    });
  }

  private slot(index: number): Slot {
    let slot = this.slots[index];
    if (slot) return slot;
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: this.data });
    // Idle scanners must not keep a one-shot CLI process alive.
    worker.unref();
    slot = { worker, pending: null };
    const current = slot;
    worker.on('message', (reply: unknown) => {
      const pending = current.pending;
      current.pending = null;
      pending?.resolve(reply);
    });
    const fail = (error: Error): void => {
      const pending = current.pending;
      current.pending = null;
      pending?.reject(error);
      // A dead worker is replaced on next use.
      if (this.slots[index] === current) delete this.slots[index];
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`search worker exited with code ${code}`)));
    this.slots[index] = slot;
    return slot;
  }
}
