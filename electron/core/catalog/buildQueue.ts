/** Sessions with at least this much to read go first, biggest first (see `buildOrder`). */
const BIG_SESSION_BYTES = 8 * 1024 * 1024;
/**
 * Bytes kept queued in the worker: more than it reads while the engine's thread is inside one of its 10 ms
 * slices, since replies are taken and new files sent only between slices.
 */
const WORKER_QUEUE_BYTES = 16 * 1024 * 1024;
/**
 * Near the end of the shared queue the worker is kept to a quarter of what is left, down to this: all it still holds
 * when the queue runs dry is read by it alone while the engine's thread waits (a full budget is ~50 ms of the worker's
 * reading). Less starved it: with 4 MB (~13 ms of its reading) it idled 13–30 ms near the end of a medium build, while
 * the engine's thread was inside a stretch of small files and a publication.
 */
const WORKER_QUEUE_MIN_BYTES = 8 * 1024 * 1024;
const WORKER_SHARE_OF_WHAT_IS_LEFT = 4;
/**
 * And a bound on the items sent to it at once, for homes of many tiny files. The sibling agent files (~50 KB each) came
 * to the bound before the bytes did: 256 of them are only ~30 ms of the worker's reading.
 */
const WORKER_QUEUE_ITEMS = 1024;

/** How much the worker has on its plate. */
export interface WorkerLoad {
  /** False once the worker cannot take more (it could not start, or died). */
  readonly usable: boolean;
  readonly queuedBytes: number;
}

export interface BuildWorker<T> {
  readonly load: WorkerLoad;
  /** The bytes reading an item costs, as the worker's load counts them. */
  bytesOf(item: T): number;
  /**
   * Whether an item is for the worker at all. Its byte count must grow the moment `read` is called, so only
   * items it reads without waiting first (whole files, not ones that continue from a saved state) qualify.
   */
  accepts(item: T): boolean;
  /** Reads one item through the worker; resolves once it is recorded. */
  read(item: T): Promise<void>;
  /**
   * For an item the worker already reads, handed to it before the build (see `WorkerHeadStart`), the bytes of it still
   * queued in the worker (0 once read); null for the rest. Such items are the worker's alone and taken first; their
   * bytes, already in its load, do not count against what it is sent, so it still gets the biggest sessions first.
   */
  handedOver?(item: T): number | null;
}

export interface DrainOptions<T> {
  /** How many items the engine's thread reads at once (overlapping small files' open and stat). */
  readonly parallelism: number;
  readonly readInThread: (item: T) => Promise<void>;
  readonly worker?: BuildWorker<T>;
  /** Checked before each item is taken (a cancelled build takes no more). */
  readonly stopped: () => boolean;
  /** Called once the engine's thread has nothing left to read (the worker may still be reading). */
  readonly onThreadDone?: () => void;
}

/**
 * The order a build reads sessions in: the few big ones first, biggest first, so that neither thread is left
 * with a 200 MB transcript at the end while the other waits; then the rest newest first, so a first build
 * shows recent work early.
 */
export function buildOrder<T>(items: readonly T[], bytesOf: (item: T) => number, newestFirst: (a: T, b: T) => number): T[] {
  const big = items.filter((item) => isBigSession(bytesOf(item))).sort((a, b) => bytesOf(b) - bytesOf(a));
  const rest = items.filter((item) => !isBigSession(bytesOf(item))).sort(newestFirst);
  return [...big, ...rest];
}

/** Whether a session goes first in `buildOrder`. */
export function isBigSession(bytes: number): boolean {
  return bytes >= BIG_SESSION_BYTES;
}

/** Items taken in order; the worker's kind from the front of its own list, the engine's thread the rest first. */
class SharedQueue<T> {
  private readonly shared: T[] = [];
  private readonly inThreadOnly: T[] = [];
  private readonly handedOver: T[] = [];
  private nextShared = 0;
  private nextInThread = 0;
  /** The bytes of the shared items not taken yet (counted only with a worker). */
  private sharedBytes = 0;
  failed: { readonly error: unknown } | null = null;

  constructor(
    items: readonly T[],
    private readonly worker: BuildWorker<T> | undefined,
    private readonly stopped: () => boolean,
  ) {
    for (const item of items) {
      if ((worker?.handedOver?.(item) ?? null) !== null) this.handedOver.push(item);
      else if (!worker) this.shared.push(item);
      else if (!worker.accepts(item)) this.inThreadOnly.push(item);
      else {
        this.shared.push(item);
        this.sharedBytes += worker.bytesOf(item);
      }
    }
  }

  /** What is left to take of the items either thread may read. */
  get sharedBytesLeft(): number {
    return this.sharedBytes;
  }

  /** Every item the worker already reads, for it to take before anything else. */
  takeHandedOver(): T[] {
    return this.handedOver.splice(0);
  }

  takeForWorker(): T | null {
    if (this.closed || this.nextShared >= this.shared.length) return null;
    const item = this.shared[this.nextShared++];
    if (this.worker) this.sharedBytes -= this.worker.bytesOf(item);
    return item;
  }

  takeInThread(): T | null {
    if (this.closed) return null;
    if (this.nextInThread < this.inThreadOnly.length) return this.inThreadOnly[this.nextInThread++];
    return this.takeForWorker();
  }

  /** A cancelled build, or one read failed: the build will throw, so reading more would be wasted. */
  private get closed(): boolean {
    return this.failed !== null || this.stopped();
  }
}

/**
 * Reads every item once, taking them in order from one queue shared by the engine's thread and, when there
 * is one, the worker: each takes the next item when it has room, so both stay busy to the end whatever the
 * sizes. After a failure nothing more is taken, and the first failure is thrown once every read in flight
 * has settled.
 */
export async function drainQueue<T>(items: readonly T[], options: DrainOptions<T>): Promise<void> {
  const queue = new SharedQueue(items, options.worker, options.stopped);
  const settle = (read: Promise<void>): Promise<void> =>
    read.catch((error: unknown) => {
      queue.failed ??= { error };
    });
  const inThread = async (): Promise<void> => {
    for (let item = queue.takeInThread(); item !== null; item = queue.takeInThread()) await settle(options.readInThread(item));
  };
  // The worker takes first: otherwise the engine's thread, taking an item per runner, would start with all of
  // the biggest sessions.
  const workerDone = options.worker ? feedWorker(options.worker, queue, settle) : Promise.resolve();
  const inThreadRunners: Promise<void>[] = [];
  for (let i = 0; i < options.parallelism; i++) inThreadRunners.push(inThread());
  const threadDone = Promise.all(inThreadRunners).then(() => options.onThreadDone?.());
  await Promise.all([workerDone, threadDone]);
  if (queue.failed) throw queue.failed.error;
}

/** The bytes the worker may hold queued now: its full budget, or near the end of the queue a share of what is left. */
function workerBudget<T>(queue: SharedQueue<T>): number {
  return Math.min(WORKER_QUEUE_BYTES, Math.max(WORKER_QUEUE_MIN_BYTES, queue.sharedBytesLeft / WORKER_SHARE_OF_WHAT_IS_LEFT));
}

/**
 * Keeps the worker's queue full until the shared queue runs dry or the worker is lost. Waits for any one read to end
 * through a single wake-up, not `Promise.race` over the reads in flight: with a few hundred small files queued, each race
 * would subscribe to every one of them again, a cost that grows with the square of the queue.
 */
async function feedWorker<T>(worker: BuildWorker<T>, queue: SharedQueue<T>, settle: (read: Promise<void>) => Promise<void>): Promise<void> {
  let inFlight = 0;
  let wake: (() => void) | null = null;
  const ended = (): void => {
    inFlight--;
    wake?.();
  };
  let handedOverBytes = 0;
  for (const item of queue.takeHandedOver()) {
    const bytes = worker.handedOver?.(item) ?? 0;
    handedOverBytes += bytes;
    inFlight++;
    void settle(worker.read(item)).then(() => {
      handedOverBytes -= bytes;
      ended();
    });
  }
  for (;;) {
    while (worker.load.usable && worker.load.queuedBytes - handedOverBytes < workerBudget(queue) && inFlight < WORKER_QUEUE_ITEMS) {
      const item = queue.takeForWorker();
      if (item === null) break;
      inFlight++;
      void settle(worker.read(item)).then(ended);
    }
    if (inFlight === 0) break;
    await new Promise<void>((resolve) => (wake = resolve));
    wake = null;
  }
}
