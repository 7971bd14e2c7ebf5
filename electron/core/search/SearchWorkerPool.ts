import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { searchWorkerMain, type SearchUnit, type SearchWorkerData, type UnitResult } from './searchWorker';

/**
 * The worker program as source text: started with `eval`, so no separate worker file has to be bundled.
 * Some transpilers (tsx, vitest) wrap named functions in a `__name` helper to keep their names; the
 * worker has no such helper, so it gets a do-nothing one.
 */
const WORKER_SOURCE = `var __name = (target) => target;\n(${searchWorkerMain.toString()})();`;

interface Slot {
  readonly worker: Worker;
  pending: { resolve: (result: UnitResult) => void; reject: (error: Error) => void } | null;
}

/**
 * A few scanner threads kept warm between searches (starting one costs tens of milliseconds, which a
 * first hit cannot afford). Each runs one unit at a time; a shared flag cancels a whole search at once.
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

  /** Runs a unit on slot `index` (0 ≤ index < size); one unit per slot at a time. */
  run(index: number, unit: SearchUnit): Promise<UnitResult> {
    const slot = this.slot(index);
    return new Promise<UnitResult>((resolve, reject) => {
      slot.pending = { resolve, reject };
      slot.worker.postMessage(unit);
    });
  }

  async dispose(): Promise<void> {
    const slots = this.slots.splice(0);
    await Promise.all(slots.map((slot) => slot.worker.terminate()));
  }

  private slot(index: number): Slot {
    let slot = this.slots[index];
    if (slot) return slot;
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: this.data });
    // Idle scanners must not keep a one-shot CLI process alive.
    worker.unref();
    slot = { worker, pending: null };
    const current = slot;
    worker.on('message', (result: UnitResult) => {
      const pending = current.pending;
      current.pending = null;
      pending?.resolve(result);
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
