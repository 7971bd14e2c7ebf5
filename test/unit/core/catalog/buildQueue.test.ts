import { describe, expect, it } from 'vitest';
import { buildOrder, drainQueue, type BuildWorker, type WorkerLoad } from '../../../../electron/core/catalog/buildQueue';

const MB = 1024 * 1024;
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A worker stand-in that queues what it is given and finishes it when told: its queue is what the test looks at. */
class ScriptedWorker implements BuildWorker<number>, WorkerLoad {
  readonly load: WorkerLoad = this;
  usable = true;
  readonly taken: number[] = [];
  private readonly queue: { item: number; done: () => void }[] = [];

  constructor(
    readonly bytesOf: (item: number) => number,
    readonly accepts: (item: number) => boolean = () => true,
  ) {}

  get queuedBytes(): number {
    return this.queue.reduce((sum, entry) => sum + this.bytesOf(entry.item), 0);
  }

  /** The bytes it held, the new item's included, each time it took one. */
  readonly heldWhenTaking: number[] = [];

  read(item: number): Promise<void> {
    this.taken.push(item);
    const read = new Promise<void>((resolve) => this.queue.push({ item, done: resolve }));
    this.heldWhenTaking.push(this.queuedBytes);
    return read;
  }

  finishAll(): void {
    for (const entry of this.queue.splice(0)) entry.done();
  }
}

/** A worker handed some items before the build: they are queued in it already, and reading one takes what it holds. */
class HeadStartedWorker extends ScriptedWorker {
  private readonly heldBack = new Map<number, Promise<void>>();

  constructor(
    private readonly bytesOfItem: (item: number) => number,
    handed: readonly number[],
  ) {
    super(bytesOfItem);
    for (const item of handed) this.heldBack.set(item, super.read(item));
    this.taken.length = 0;
  }

  handedOver(item: number): number | null {
    return this.heldBack.has(item) ? this.bytesOfItem(item) : null;
  }

  override read(item: number): Promise<void> {
    const held = this.heldBack.get(item);
    if (!held) return super.read(item);
    this.taken.push(item);
    return held;
  }
}

/** The engine thread's side: notes each item it reads, and lets the worker finish what it holds meanwhile. */
function inThreadReader(worker: ScriptedWorker, read: number[]): (item: number) => Promise<void> {
  return async (item) => {
    read.push(item);
    await tick();
    worker.finishAll();
  };
}

describe('buildOrder', () => {
  it('puts big sessions first, biggest first, then the rest newest first', () => {
    const sizes: Record<string, number> = { a: 1, b: 50 * MB, c: 2, d: 9 * MB, e: 3 };
    const age: Record<string, number> = { a: 5, b: 1, c: 3, d: 2, e: 4 };
    expect(
      buildOrder(
        Object.keys(sizes),
        (k) => sizes[k],
        (x, y) => age[y] - age[x],
      ),
    ).toEqual(['b', 'd', 'a', 'e', 'c']);
  });
});

describe('drainQueue', () => {
  it('reads every item once; the worker takes first, up to its byte budget, and the engine thread the rest', async () => {
    const items = Array.from({ length: 40 }, (_, i) => i);
    const bytes = (item: number): number => (item === 0 ? 100 * MB : 1 * MB);
    const worker = new ScriptedWorker(bytes);
    const inThread: number[] = [];
    await drainQueue(items, { parallelism: 2, readInThread: inThreadReader(worker, inThread), worker, stopped: () => false });
    expect(worker.taken[0]).toBe(0);
    expect([...worker.taken, ...inThread].sort((a, b) => a - b)).toEqual(items);
    expect(inThread.length).toBeGreaterThan(0);
    expect(worker.taken.length).toBeGreaterThan(1);
  });

  it('stops giving the worker items once it is lost; the engine thread reads the rest', async () => {
    const worker = new ScriptedWorker(() => MB);
    worker.usable = false;
    const inThread: number[] = [];
    await drainQueue([1, 2, 3], { parallelism: 1, readInThread: async (item) => void inThread.push(item), worker, stopped: () => false });
    expect(worker.taken).toEqual([]);
    expect(inThread).toEqual([1, 2, 3]);
  });

  it('leaves the items the worker does not accept to the engine thread, which takes them first', async () => {
    const worker = new ScriptedWorker(
      () => MB,
      (item) => item % 2 === 0,
    );
    const inThread: number[] = [];
    await drainQueue([1, 2, 3, 4, 5, 6], { parallelism: 1, readInThread: inThreadReader(worker, inThread), worker, stopped: () => false });
    expect(worker.taken.every((item) => item % 2 === 0)).toBe(true);
    expect(inThread.slice(0, 3)).toEqual([1, 3, 5]);
    expect([...worker.taken, ...inThread].sort()).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('takes nothing more after a failure, and throws it once every read in flight has settled', async () => {
    const read: number[] = [];
    const settled: number[] = [];
    await expect(
      drainQueue([1, 2, 3, 4, 5, 6], {
        parallelism: 2,
        readInThread: async (item) => {
          read.push(item);
          await tick();
          if (item === 2) throw new Error('file 2 failed');
          await tick();
          settled.push(item);
        },
        stopped: () => false,
      }),
    ).rejects.toThrow('file 2 failed');
    expect(read).toEqual([1, 2]);
    expect(settled).toEqual([1]);
  });

  it('says when the engine thread has read its last item, while the worker still reads its own', async () => {
    const worker = new ScriptedWorker(() => MB);
    const inThread: number[] = [];
    const whenThreadDone: { inThread: number[]; workerStillHolds: number }[] = [];
    const drained = drainQueue([1, 2, 3, 4, 5, 6], {
      parallelism: 2,
      readInThread: async (item) => {
        inThread.push(item);
        await tick();
      },
      worker,
      stopped: () => false,
      onThreadDone: () => whenThreadDone.push({ inThread: [...inThread], workerStillHolds: worker.queuedBytes }),
    });
    for (let i = 0; i < 5 && whenThreadDone.length === 0; i++) await tick();
    expect(whenThreadDone).toHaveLength(1);
    expect(whenThreadDone[0].workerStillHolds).toBeGreaterThan(0);
    expect([...worker.taken, ...whenThreadDone[0].inThread].sort()).toEqual([1, 2, 3, 4, 5, 6]);
    worker.finishAll();
    await drained;
    expect(whenThreadDone).toHaveLength(1);
  });

  it('keeps the worker to a share of what is left near the end, so the engine thread does not wait long for it', async () => {
    const items = Array.from({ length: 100 }, (_, i) => i);
    const worker = new ScriptedWorker(() => MB);
    const inThread: number[] = [];
    await drainQueue(items, { parallelism: 1, readInThread: inThreadReader(worker, inThread), worker, stopped: () => false });
    // Early on it was sent up to its full budget (16 MB, or a quarter of what was left) …
    expect(Math.max(...worker.heldWhenTaking.slice(0, 20))).toBeGreaterThanOrEqual(15 * MB);
    // … and at the end no more than the floor, not a full budget for the engine thread to wait on once the queue is dry.
    expect(worker.heldWhenTaking.at(-1)).toBeLessThanOrEqual(8 * MB);
    expect([...worker.taken, ...inThread].sort((a, b) => a - b)).toEqual(items);
  });

  it('takes nothing more once stopped', async () => {
    let stop = false;
    const read: number[] = [];
    await drainQueue([1, 2, 3, 4, 5, 6], {
      parallelism: 2,
      readInThread: async (item) => {
        read.push(item);
        await tick();
        stop ||= item === 2;
      },
      stopped: () => stop,
    });
    expect(read).toEqual([1, 2, 3]);
  });

  it('gives the worker first the items it was handed before the build, and the first of the rest as if they were not', async () => {
    const items = Array.from({ length: 30 }, (_, i) => i);
    // 20 MB already queued in the worker, over its byte budget: it still gets the queue's first (biggest) item at once.
    const worker = new HeadStartedWorker(() => 10 * MB, [20, 21]);
    const inThread: number[] = [];
    await drainQueue(items, { parallelism: 1, readInThread: inThreadReader(worker, inThread), worker, stopped: () => false });
    expect(worker.taken.slice(0, 3)).toEqual([20, 21, 0]);
    expect(inThread).not.toContain(20);
    expect(inThread).not.toContain(21);
    expect(worker.taken.length).toBeGreaterThan(2);
    expect([...worker.taken, ...inThread].sort((a, b) => a - b)).toEqual(items);
  });
});
