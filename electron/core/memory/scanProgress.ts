import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';

/** How far a scan of a memory folder got; the review service adds which folder. */
export interface ScanProgressReport {
  readonly step: 'reading' | 'checking';
  readonly done: number;
  readonly total: number;
}

/** What a folder scan tells about its progress. */
export interface ScanProgressSink {
  /** The folder holds `total` topic files to read. */
  begin(total: number): void;
  /** One more file was read (or found in the cache); may pause so what was reported goes out. */
  fileRead(): Promise<void>;
  /** Every file is read; the findings over the whole folder come next. */
  checking(): void;
}

/** At most this often: enough to move a bar, few enough to cost nothing next to the reads. */
const REPORT_INTERVAL_MS = 100;

/** The test seam that slows every file read of a memory scan, so a test can watch the progress (0: off). */
export const SLOW_MEMORY_READ_ENV = 'CCMEM_TEST_MEMORY_READ_DELAY_MS';
const MAX_TEST_DELAY_MS = 2000;

/** The per-file delay the environment asks for; only tests set it. */
export function testReadDelayFrom(env: NodeJS.ProcessEnv): number {
  const value = Number(env[SLOW_MEMORY_READ_ENV] ?? '0');
  return Number.isFinite(value) && value > 0 ? Math.min(value, MAX_TEST_DELAY_MS) : 0;
}

export interface ScanProgressOptions {
  readonly now?: () => number;
  /** Test seam (see `testReadDelayFrom`): every file read waits this long. */
  readonly readDelayMs?: number;
}

/**
 * Counts the files a scan reads and reports the count at the start, every 100 ms and at the end. A scan reads with
 * synchronous calls, so after each report it yields one turn of the event loop: the report, a heartbeat's answer
 * and other clients' requests go out then instead of after the whole folder.
 */
export class ScanProgress implements ScanProgressSink {
  private total = 0;
  private done = 0;
  private lastReport = 0;
  private readonly now: () => number;

  constructor(
    private readonly report: (progress: ScanProgressReport) => void,
    private readonly options: ScanProgressOptions = {},
  ) {
    this.now = options.now ?? Date.now;
  }

  begin(total: number): void {
    this.total = total;
    this.done = 0;
    this.lastReport = this.now();
    this.report({ step: 'reading', done: 0, total });
  }

  async fileRead(): Promise<void> {
    this.done = Math.min(this.total, this.done + 1);
    if (this.options.readDelayMs) await sleep(this.options.readDelayMs);
    if (this.done < this.total && this.now() - this.lastReport < REPORT_INTERVAL_MS) return;
    this.lastReport = this.now();
    this.report({ step: 'reading', done: this.done, total: this.total });
    await nextTurn();
  }

  checking(): void {
    this.report({ step: 'checking', done: this.total, total: this.total });
  }
}
