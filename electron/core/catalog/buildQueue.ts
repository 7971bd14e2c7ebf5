/** Sessions with at least this much to read go first, biggest first (see `buildOrder`). */
const BIG_SESSION_BYTES = 8 * 1024 * 1024;
/**
 * Bytes kept queued in the worker: more than it reads while the engine's thread is inside one of its 10 ms
 * slices, since replies are taken and new files sent only between slices.
 */
const WORKER_QUEUE_BYTES = 16 * 1024 * 1024;
/** And a bound on the sessions sent to it at once, for homes of many tiny sessions. */
const WORKER_QUEUE_SESSIONS = 256;

export interface BuildWorker<T> {
  /** False once the worker cannot take more (it could not start, or died). */
  readonly usable: boolean;
  readonly queuedBytes: number;
  /** Reads one item through the worker; resolves once it is recorded. */
  read(item: T): Promise<void>;
}

export interface DrainOptions<T> {
  /** How many items the engine's thread reads at once (overlapping small files' open and stat). */
  readonly parallelism: number;
  readonly readInThread: (item: T) => Promise<void>;
  readonly worker?: BuildWorker<T>;
  /** Checked before each item is taken (a cancelled build takes no more). */
  readonly stopped: () => boolean;
}

/**
 * The order a build reads sessions in: the few big ones first, biggest first, so that neither thread is left
 * with a 200 MB transcript at the end while the other waits; then the rest newest first, so a first build
 * shows recent work early.
 */
export function buildOrder<T>(items: readonly T[], bytesOf: (item: T) => number, newestFirst: (a: T, b: T) => number): T[] {
  const big = items.filter((item) => bytesOf(item) >= BIG_SESSION_BYTES).sort((a, b) => bytesOf(b) - bytesOf(a));
  const rest = items.filter((item) => bytesOf(item) < BIG_SESSION_BYTES).sort(newestFirst);
  return [...big, ...rest];
}

/**
 * Reads every item once, taking them in order from one queue shared by the engine's thread and, when there
 * is one, the worker: each takes the next item when it has room, so both stay busy to the end whatever the
 * sizes. The first failure is thrown once every read in flight has settled.
 */
export async function drainQueue<T>(items: readonly T[], options: DrainOptions<T>): Promise<void> {
  let next = 0;
  const take = (): T | null => (options.stopped() || next >= items.length ? null : items[next++]);
  const inThread = async (): Promise<void> => {
    for (let item = take(); item !== null; item = take()) await options.readInThread(item);
  };
  // The worker takes first: otherwise the engine's thread, taking an item per runner, would start with all of
  // the biggest sessions.
  const runners = options.worker ? [feedWorker(options.worker, take)] : [];
  for (let i = 0; i < options.parallelism; i++) runners.push(inThread());
  const results = await Promise.allSettled(runners);
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
}

/** Keeps the worker's queue full until the shared queue runs dry or the worker is lost. */
async function feedWorker<T>(worker: BuildWorker<T>, take: () => T | null): Promise<void> {
  const inFlight = new Set<Promise<void>>();
  let failure: { error: unknown } | null = null;
  for (;;) {
    while (failure === null && worker.usable && worker.queuedBytes < WORKER_QUEUE_BYTES && inFlight.size < WORKER_QUEUE_SESSIONS) {
      const item = take();
      if (item === null) break;
      const read: Promise<void> = worker
        .read(item)
        .catch((error: unknown) => {
          failure ??= { error };
        })
        .finally(() => inFlight.delete(read));
      inFlight.add(read);
    }
    if (inFlight.size === 0) break;
    await Promise.race(inFlight);
  }
  if (failure) throw (failure as { error: unknown }).error;
}
