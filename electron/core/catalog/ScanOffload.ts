import { Worker } from 'node:worker_threads';
import type { ScanDone, ScanJob, ScanWorkerReply } from './scanWorkerProtocol';

/** A bound on the worker's heap: a worker that reaches it dies, and the build goes on in the engine's thread. */
const WORKER_HEAP_MB = 256;

interface PendingScan {
  readonly bytes: number;
  readonly onBytes: (bytes: number) => void;
  readonly resolve: (done: ScanDone | null) => void;
}

/**
 * A second thread for one catalog build, which reads whole transcripts from their start. Nothing depends on
 * it: a file it cannot read, and every file once it cannot start or has died, comes back as null and is
 * read in the engine's thread.
 */
export class ScanOffload {
  private readonly worker: Worker | null;
  private readonly pending = new Map<number, PendingScan>();
  private queued = 0;
  private read = 0;
  private nextId = 1;
  private lost = false;

  /** A cancelled build gets null for every file still queued (and stops the worker when it disposes it). */
  constructor(
    script: string,
    private readonly signal?: AbortSignal,
  ) {
    let worker: Worker | null = null;
    try {
      // Not the engine's own flags: under a TypeScript loader (a checkout, the tests) they would load it again here.
      worker = new Worker(script, {
        execArgv: [],
        resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB, maxYoungGenerationSizeMb: 4 },
      });
    } catch {
      this.lost = true;
    }
    this.worker = worker;
    worker?.on('message', (reply: ScanWorkerReply) => this.receive(reply));
    worker?.on('error', this.lose);
    worker?.on('exit', this.lose);
    // A reply that cannot be read would leave its file waiting forever.
    worker?.on('messageerror', this.lose);
    signal?.addEventListener('abort', this.lose, { once: true });
  }

  /** False once the worker could not start or has died. */
  get usable(): boolean {
    return !this.lost;
  }

  /** The bytes of the files it has read. */
  get bytesRead(): number {
    return this.read;
  }

  /** The bytes of the files sent and not yet answered. */
  get queuedBytes(): number {
    return this.queued;
  }

  /** Reads one file in the worker; null when the worker could not (then the caller reads it). */
  scan(job: Omit<ScanJob, 'id'>, onBytes: (bytes: number) => void): Promise<ScanDone | null> {
    if (this.lost || !this.worker) return Promise.resolve(null);
    const id = this.nextId++;
    const worker = this.worker;
    return new Promise<ScanDone | null>((resolve) => {
      this.pending.set(id, { bytes: job.sizeHint, onBytes, resolve });
      this.queued += job.sizeHint;
      worker.postMessage({ ...job, id } satisfies ScanJob);
    });
  }

  async dispose(): Promise<void> {
    this.signal?.removeEventListener('abort', this.lose);
    this.lose();
    await this.worker?.terminate();
  }

  private receive(reply: ScanWorkerReply): void {
    const scan = this.pending.get(reply.id);
    if (!scan) return;
    if (reply.type === 'bytes') return scan.onBytes(reply.bytes);
    if (reply.type === 'done') this.read += reply.size;
    this.settle(reply.id, scan, reply.type === 'done' ? reply : null);
  }

  private settle(id: number, scan: PendingScan, done: ScanDone | null): void {
    this.pending.delete(id);
    this.queued -= scan.bytes;
    scan.resolve(done);
  }

  /** The worker is gone, going, or no longer wanted: what it still had comes back as null. */
  private readonly lose = (): void => {
    this.lost = true;
    for (const [id, scan] of [...this.pending]) this.settle(id, scan, null);
  };
}
