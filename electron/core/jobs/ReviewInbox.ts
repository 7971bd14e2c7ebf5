import { promises as fs } from 'node:fs';
import type { InboxEntry, InboxFile, ReviewInboxChange } from '../../../shared/jobs/backgroundJobs';
import type { JobRecord, JobSummary, JobTarget } from '../../../shared/jobs/jobTypes';
import { contentHash } from '../fs/contentHash';
import { resolveInside } from '../fs/pathContainment';
import type { JobService } from './JobService';
import { DisposableStore, Emitter } from '../events';

/** A job whose proposals wait for the user: finished, neither applied nor discarded, with something to decide. */
export function isPendingReview(job: JobSummary): boolean {
  return job.outcome === null && job.proposalCount > 0 && (job.status === 'ready' || job.status === 'failed' || job.status === 'cancelled');
}

function sameTarget(a: JobTarget, b: JobTarget): boolean {
  if (a.kind === 'project' && b.kind === 'project') return a.configRoot === b.configRoot && a.slug === b.slug;
  return a.kind === 'agent' && b.kind === 'agent' && a.dir === b.dir;
}

/** What a proposal was made against: enough to tell later whether the file still is that. */
interface ProposedFile {
  readonly path: string;
  readonly kind: InboxFile['kind'];
  readonly baseHash: string | null;
}

/** The sha256 of a memory file now, null when it is absent; a symlink or anything but a file never matches a base. */
async function currentHash(memoryDir: string, relativePath: string): Promise<string | null | 'unusable'> {
  const path = resolveInside(memoryDir, relativePath);
  if (!path) return 'unusable';
  const stats = await fs.lstat(path).catch(() => null);
  if (!stats) return null;
  if (!stats.isFile()) return 'unusable';
  try {
    return contentHash(await fs.readFile(path));
  } catch {
    return 'unusable';
  }
}

/**
 * The review inbox: every proposal set across projects and agent memories that waits for the user, with
 * each file marked stale when it changed on disk since the job read it (applying it would be a conflict).
 * It follows the job records and tells listeners when a set arrives or leaves, or a file of one changes.
 */
export class ReviewInbox {
  private pending: Map<string, JobSummary> | null = null;
  private loading: Promise<Map<string, JobSummary>> | null = null;
  /** The proposed files of pending jobs: their records never change until the user decides. */
  private readonly files = new Map<string, readonly ProposedFile[]>();
  private readonly changeEmitter = new Emitter<ReviewInboxChange>();
  private readonly subscriptions = new DisposableStore();

  constructor(private readonly jobs: JobService) {
    this.subscriptions.add(jobs.onDidFinish((summary) => void this.jobChanged(summary)));
  }

  onDidChange(listener: (change: ReviewInboxChange) => void): () => void {
    return this.changeEmitter.event(listener);
  }

  async count(): Promise<number> {
    return (await this.load()).size;
  }

  /** Whether proposals for this memory folder wait for review. */
  async hasPendingFor(memoryDir: string): Promise<boolean> {
    return [...(await this.load()).values()].some((job) => job.target.memoryDir === memoryDir);
  }

  /** Every pending proposal set, newest first, with the staleness of each file as it is now. */
  async list(): Promise<InboxEntry[]> {
    const jobs = [...(await this.load()).values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    const entries: InboxEntry[] = [];
    for (const job of jobs) {
      const entry = await this.entryOf(job).catch(() => null);
      if (entry) entries.push(entry);
    }
    return entries;
  }

  /** Reads the job records again (records that appeared without a job finishing here, such as the demo's). */
  async reload(): Promise<void> {
    this.pending = null;
    this.loading = null;
    this.files.clear();
    this.emit({ count: (await this.load()).size, arrived: null });
  }

  dispose(): void {
    this.subscriptions.dispose();
    this.changeEmitter.dispose();
  }

  private load(): Promise<Map<string, JobSummary>> {
    if (this.pending) return Promise.resolve(this.pending);
    this.loading ??= this.jobs.listJobs().then((all) => {
      this.pending = new Map(all.filter(isPendingReview).map((job) => [job.id, job]));
      return this.pending;
    });
    return this.loading;
  }

  /**
   * A job finished, or was applied or discarded. A job finishes once, so a pending summary here is always an
   * arrival, even when the first load of the records (which may run just now) already saw it.
   */
  private async jobChanged(job: JobSummary): Promise<void> {
    const pending = await this.load();
    if (isPendingReview(job)) {
      pending.set(job.id, job);
      this.emit({ count: pending.size, arrived: await this.entryOf(job).catch(() => null) });
      return;
    }
    this.files.delete(job.id);
    if (pending.delete(job.id)) this.emit({ count: pending.size, arrived: null });
  }

  /**
   * A file of a memory folder changed (Claude Code, an editor, or this app): listeners learn of it when proposals
   * for that folder wait, since a file of theirs may have gone stale.
   */
  async folderChanged(folder: JobTarget): Promise<void> {
    const pending = await this.load();
    if ([...pending.values()].some((job) => sameTarget(job.target.target, folder))) this.emit({ count: pending.size, arrived: null });
  }

  private async entryOf(job: JobSummary): Promise<InboxEntry> {
    let proposed = this.files.get(job.id);
    if (!proposed) {
      const record: JobRecord = await this.jobs.getJob(job.id);
      proposed = record.proposals.map((p) => ({ path: p.path, kind: p.kind, baseHash: p.baseHash }));
      this.files.set(job.id, proposed);
    }
    const files: InboxFile[] = [];
    for (const file of proposed) {
      const now = await currentHash(job.target.memoryDir, file.path);
      files.push({ path: file.path, kind: file.kind, stale: now !== file.baseHash });
    }
    return {
      jobId: job.id,
      kind: job.kind,
      trigger: job.trigger,
      status: job.status,
      target: job.target.target,
      label: job.target.label,
      memoryDir: job.target.memoryDir,
      createdAt: job.createdAt,
      finishedAt: job.finishedAt,
      summary: job.summary,
      files,
    };
  }

  private emit(change: ReviewInboxChange): void {
    this.changeEmitter.fire(change);
  }
}
