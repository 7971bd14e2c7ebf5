import type { DiscoveredFile, DiscoveredProject } from './catalogDiscovery';
import type { ScanDone, ScanJob } from './scanWorkerProtocol';
import type { ScanOffload } from './ScanOffload';

/** About what the worker reads while discovery walks a medium home's folders (~100 ms), and a margin. */
const HEAD_START_BYTES = 48 * 1024 * 1024;
/** Only files big enough to be read early in the build anyway (the build reads its big sessions first). */
const HEAD_START_MIN_FILE_BYTES = 1024 * 1024;

/** What the worker needs to read one session file as the build would have it read. */
export type ScanJobFor = (file: DiscoveredFile, configRoot: string, slug: string) => Omit<ScanJob, 'id'>;

/**
 * A first build's scan worker starts while discovery walks the folders, and then waited for the walk to end: about
 * 100 ms of a medium home's 1.7 s build in which only the engine's thread worked. Discovery hands it the first big
 * session files it finds instead, and the build takes the worker's reply for each of them rather than sending the
 * file again.
 */
export class WorkerHeadStart {
  private readonly scans = new Map<string, Promise<ScanDone | null>>();
  /** The bytes of the files handed over that the worker has not answered yet. */
  private readonly queued = new Map<string, number>();
  private bytes = 0;

  constructor(
    private readonly offload: ScanOffload,
    private readonly jobFor: ScanJobFor,
  ) {}

  /** Sends a discovered project's big session files to the worker while the head start lasts. */
  offer(project: DiscoveredProject): void {
    for (const session of project.sessions) {
      if (this.bytes >= HEAD_START_BYTES || !this.offload.usable) return;
      const file = session.main;
      if (!file || file.size < HEAD_START_MIN_FILE_BYTES) continue;
      this.bytes += file.size;
      const scan = this.offload.scan(this.jobFor(file, project.configRoot, project.slug), () => undefined);
      this.scans.set(file.path, scan);
      this.queued.set(file.path, file.size);
      void scan.then(() => this.queued.delete(file.path));
    }
  }

  /** For a file the worker was handed (its reply not yet taken), its bytes still queued in the worker; else null. */
  queuedBytesOf(path: string): number | null {
    return this.scans.has(path) ? (this.queued.get(path) ?? 0) : null;
  }

  /**
   * The worker's reply for a session file it was handed, once (null when it could not read it), or undefined when
   * it was not handed that file.
   */
  take(path: string): Promise<ScanDone | null> | undefined {
    const scan = this.scans.get(path);
    this.scans.delete(path);
    return scan;
  }
}
