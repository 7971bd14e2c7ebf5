import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { backgroundHeapGrowth } from '../../async/backgroundHeapGrowth';
import type {
  ArchiveProgress,
  ArchiveRemovalResult,
  ArchiveSettings,
  ArchiveStatus,
  ArchivedProjectSummary,
} from '../../../../shared/model/archive';
import type { SessionCatalogEntry, SessionKey } from '../../../../shared/model/catalog';
import { CodedError } from '../../../../shared/result';
import type { CatalogService } from '../../catalog/CatalogService';
import type { HomeService } from '../../home/HomeService';
import { readArchiveSettings, writeArchiveSettings } from './archiveSettingsFile';
import { candidatesFromCatalog } from './catalogCandidates';
import { cleanupWarnings, readCleanupSettings } from './claudeCleanupSettings';
import type { ArchiveRemoval, ArchiveRunResult, TranscriptArchive } from './TranscriptArchive';
import { DisposableStore, Emitter } from '../../events';
import { sessionKeyOf } from '../../../../shared/claude/sessionIds';

/** When the archive runs in the app shells; tests shorten these. */
export interface ArchiveTiming {
  /** A changed session is archived once it has been quiet this long (a live session is archived in pieces)… */
  readonly liveDelayMs: number;
  /** …or at the latest this long after its first change. */
  readonly liveMaxDelayMs: number;
  /** How long after the engine is ready the archive asks for a catalog build, if nothing asked for one yet. */
  readonly startDelayMs: number;
}

/**
 * Nothing is at risk while a session is live (Claude Code deletes only transcripts untouched for `cleanupPeriodDays`),
 * so growth is archived in few, large pieces rather than line by line.
 */
const DEFAULT_TIMING: ArchiveTiming = { liveDelayMs: 60_000, liveMaxDelayMs: 10 * 60_000, startDelayMs: 5_000 };
const PROGRESS_EVERY_MS = 250;
/** When another process (`ccmem archive`, a second app) was writing the archive, the app shells try again this much later. */
const BUSY_RETRY_MS = 60_000;

export interface ArchiveServiceOptions {
  readonly archive: TranscriptArchive;
  readonly catalog: CatalogService;
  readonly home: HomeService;
  /**
   * The app shells: archive after every catalog build and as sessions change, and ask for a first build if the UI does
   * not. One-shot commands archive only when asked (`bringUpToDate`).
   */
  readonly follow: boolean;
  /**
   * What a background run waits for before it starts: the line index keeper's run, which follows the same builds. The
   * keeper first, while the engine's heap is still about as small as the build left it, then the archive: the other
   * way round the keeper's tree and views were built on top of the archive run's uncollected garbage, the highest point
   * of the first start's memory (docs/performance.md, "Memory after the first start, round five").
   */
  readonly waitBeforeRun?: () => Promise<void>;
  readonly timing?: ArchiveTiming;
}

type RunScope = { readonly kind: 'full' } | { readonly kind: 'sessions'; readonly keys: readonly SessionKey[] };

function keyOf(key: SessionKey): string {
  return sessionKeyOf(key.configRoot, key.slug, key.sessionId);
}

/**
 * Whether a project's folder still holds a transcript: a `*.jsonl` directly in it (sessions, and 2.0 sub-agents beside
 * them), or a sub-agent's in a session's folder, which Claude Code can leave behind when the session's own file is gone.
 * Either means the project was not deleted on purpose.
 */
async function hasTranscriptsOnDisk(configRoot: string, slug: string): Promise<boolean> {
  const dir = join(configRoot, 'projects', slug);
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  if (entries.some((entry) => entry.name.endsWith('.jsonl'))) return true;
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const agentFiles = await fs.readdir(join(dir, entry.name, 'subagents')).catch(() => []);
    if (agentFiles.some((name) => name.endsWith('.jsonl'))) return true;
  }
  return false;
}

/**
 * The transcript archive inside the engine: runs it in the background after the catalog's builds and as sessions
 * change (never before the first page: it waits for the catalog's first build), with progress and cancel; reports what
 * it holds beside Claude Code's `cleanupPeriodDays`; applies the user's settings (off, size cap), prunes, and deletes a
 * project's archive. Only it and the archive write under `<dataDir>/archive`.
 */
export class ArchiveService {
  private readonly progressEmitter = new Emitter<ArchiveProgress>();
  private readonly changeEmitter = new Emitter<ArchiveStatus>();
  private readonly timing: ArchiveTiming;
  private readonly subscriptions = new DisposableStore();
  private pendingFull = false;
  private readonly pendingSessions = new Map<string, SessionKey>();
  /** Sessions whose transcript just left the disk: marked deleted at once (cheap), not after the live delay. */
  private readonly deletedSessions = new Map<string, SessionKey>();
  private loop: Promise<void> | null = null;
  private controller: AbortController | null = null;
  private progress: ArchiveProgress | null = null;
  private lastRunAt: string | null = null;
  private liveTimer: NodeJS.Timeout | null = null;
  private liveDeadline: number | null = null;
  private startTimer: NodeJS.Timeout | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  /** Set by the catalog's first finished build: session changes before it are covered by the run that follows it. */
  private catalogBuilt = false;
  private disposed = false;

  constructor(private readonly options: ArchiveServiceOptions) {
    this.timing = options.timing ?? DEFAULT_TIMING;
    if (!options.follow) return;
    this.subscriptions.add(
      options.catalog.onDidProgress((progress) => {
        if (progress.running || progress.cancelled) return;
        this.catalogBuilt = true;
        this.request({ kind: 'full' });
      }),
    );
    this.subscriptions.add(options.catalog.onDidUpdateSessions((update) => this.sessionsChanged(update.updated)));
  }

  get archive(): TranscriptArchive {
    return this.options.archive;
  }

  onDidProgress(listener: (progress: ArchiveProgress) => void): () => void {
    return this.progressEmitter.event(listener);
  }

  onDidChange(listener: (status: ArchiveStatus) => void): () => void {
    return this.changeEmitter.event(listener);
  }

  /**
   * The app shells: once the engine is ready, and a moment later, asks the catalog for its first build unless the UI
   * did; the archive's first run follows that build.
   */
  start(ready: Promise<void>): void {
    void ready.then(() => {
      if (this.disposed) return;
      this.startTimer = setTimeout(() => {
        this.startTimer = null;
        if (!this.options.catalog.hasRefreshed) void this.options.catalog.refresh();
      }, this.timing.startDelayMs);
    });
  }

  async status(): Promise<ArchiveStatus> {
    await this.archive.load();
    const settings = await this.settings();
    const snapshot = await this.options.home.getHome();
    const roots = snapshot.roots.filter((root) => root.exists && root.source !== 'demo').map((root) => root.path);
    const cleanup = await readCleanupSettings(roots);
    const totals = this.archive.totals();
    const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
    const projects: ArchivedProjectSummary[] = [];
    for (const project of totals.projects) {
      projects.push({
        configRoot: project.configRoot,
        slug: project.slug,
        sessions: project.sessions,
        deletedSessions: project.deletedSessions,
        bytes: project.bytes,
        compressedBytes: project.compressedBytes,
        oldest: iso(project.oldestMs),
        newest: iso(project.newestMs),
        transcriptsOnDisk: await hasTranscriptsOnDisk(project.configRoot, project.slug),
      });
    }
    return {
      ...settings,
      dir: this.archive.dir,
      sessions: totals.sessions,
      deletedSessions: totals.deletedSessions,
      files: totals.files,
      fileHistoryBackups: totals.backups,
      bytes: totals.bytes,
      compressedBytes: totals.compressedBytes,
      oldest: iso(totals.oldestMs),
      cleanupPeriodDays: cleanup.length > 0 ? Math.min(...cleanup.map((setting) => setting.effectiveDays)) : 30,
      cleanup,
      warnings: cleanupWarnings(cleanup, settings),
      projects,
      progress: this.progress,
      lastRunAt: this.lastRunAt,
    };
  }

  /** Starts bringing the archive up to date in the background; resolves with the progress at its start. */
  update(): Promise<ArchiveProgress | null> {
    this.request({ kind: 'full' });
    return Promise.resolve(this.progress);
  }

  /**
   * Brings the archive up to date now and waits (the CLI, after a catalog build): every transcript the catalog knows.
   * Null when the archive is off.
   */
  async bringUpToDate(
    options: {
      readonly signal?: AbortSignal;
      readonly onProgress?: (progress: ArchiveProgress) => void;
      /** Told once when another process is writing the archive and this run waits for it. */
      readonly onWaitForLock?: (holderPid: number | null) => void;
    } = {},
  ) {
    await this.loop;
    if (!(await this.settings()).enabled) return null;
    const stop = options.onProgress ? this.onDidProgress(options.onProgress) : null;
    const abort = () => this.cancel();
    options.signal?.addEventListener('abort', abort);
    try {
      return await this.runOnce({ kind: 'full' }, options.onWaitForLock ?? (() => undefined));
    } finally {
      stop?.();
      options.signal?.removeEventListener('abort', abort);
    }
  }

  cancel(): void {
    this.pendingFull = false;
    this.pendingSessions.clear();
    this.deletedSessions.clear();
    this.controller?.abort();
  }

  async setSettings(patch: Partial<ArchiveSettings>): Promise<ArchiveStatus> {
    const current = await this.settings();
    const next: ArchiveSettings = {
      enabled: patch.enabled ?? current.enabled,
      maxBytes: patch.maxBytes === undefined ? current.maxBytes : patch.maxBytes,
    };
    await writeArchiveSettings(this.archive.dir, next);
    if (!next.enabled) this.cancel();
    if (next.maxBytes !== null) await this.applyRemoval(await this.archive.pruneToSize(next.maxBytes));
    // The app shells catch up at once; a one-shot command brings the archive up to date itself.
    if (next.enabled && !current.enabled && this.options.follow) this.request({ kind: 'full' });
    return this.changed();
  }

  async prune(before: Date): Promise<ArchiveRemovalResult> {
    const removal = await this.archive.prune(before);
    await this.applyRemoval(removal);
    return { sessions: removal.sessions, files: removal.files, compressedBytes: removal.compressedBytes, status: await this.changed() };
  }

  /**
   * Deletes a project's archive, for a project the user deleted on purpose. Refused while its folder still holds
   * transcripts: Claude Code still uses it, and the archive would only copy them again.
   */
  async deleteProject(configRoot: string | null, slug: string): Promise<ArchiveRemovalResult> {
    await this.archive.load();
    const roots =
      configRoot === null
        ? [
            ...new Set(
              this.archive
                .totals()
                .projects.filter((p) => p.slug === slug)
                .map((p) => p.configRoot),
            ),
          ]
        : [configRoot];
    if (roots.length === 0) throw new CodedError('NOT_FOUND', `The archive holds nothing of a project ${slug}`);
    for (const root of roots) {
      if (await hasTranscriptsOnDisk(root, slug))
        throw new CodedError(
          'CONFLICT',
          `${join(root, 'projects', slug)} still holds transcripts: delete the project there first (or prune the archive by date).`,
        );
    }
    const removal = await this.archive.deleteProject(configRoot, slug);
    await this.applyRemoval(removal);
    return { sessions: removal.sessions, files: removal.files, compressedBytes: removal.compressedBytes, status: await this.changed() };
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    this.subscriptions.dispose();
    if (this.liveTimer) clearTimeout(this.liveTimer);
    if (this.startTimer) clearTimeout(this.startTimer);
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.cancel();
    await this.loop;
    await this.archive.dispose();
    this.progressEmitter.dispose();
    this.changeEmitter.dispose();
  }

  // --- running ----------------------------------------------------------------------------------------------

  private settings(): Promise<ArchiveSettings> {
    return readArchiveSettings(this.archive.dir);
  }

  /**
   * Sessions the catalog saw change: archived once they are quiet (or after the longest wait); a session now read from
   * the archive (Claude Code deleted its transcript) is recorded as deleted at once.
   */
  private sessionsChanged(updated: readonly SessionCatalogEntry[]): void {
    if (updated.length === 0 || !this.catalogBuilt) return;
    const key = ({ configRoot, slug, sessionId }: SessionKey): [string, SessionKey] => [
      keyOf({ configRoot, slug, sessionId }),
      { configRoot, slug, sessionId },
    ];
    for (const entry of updated) {
      const [id, session] = key(entry);
      if (entry.archived) this.deletedSessions.set(id, session);
      else this.pendingSessions.set(id, session);
    }
    if (this.deletedSessions.size > 0) this.kick();
    if (updated.every((entry) => entry.archived)) return;
    const now = Date.now();
    this.liveDeadline ??= now + this.timing.liveMaxDelayMs;
    if (this.liveTimer) clearTimeout(this.liveTimer);
    this.liveTimer = setTimeout(
      () => {
        this.liveTimer = null;
        this.liveDeadline = null;
        this.kick();
      },
      Math.max(0, Math.min(this.timing.liveDelayMs, this.liveDeadline - now)),
    );
  }

  private request(scope: RunScope): void {
    if (scope.kind === 'full') this.pendingFull = true;
    else for (const key of scope.keys) this.pendingSessions.set(keyOf(key), key);
    this.kick();
  }

  /** What to run next: a full run (which covers every waiting session too), or the sessions whose wait is over. */
  private nextScope(): RunScope | null {
    if (this.pendingFull) return { kind: 'full' };
    const due = this.liveTimer === null ? [...this.pendingSessions.values()] : [];
    const keys = [...this.deletedSessions.values(), ...due];
    return keys.length > 0 ? { kind: 'sessions', keys } : null;
  }

  /** Runs what is pending, one run at a time. */
  private kick(): void {
    if (this.loop || this.disposed || this.nextScope() === null) return;
    this.loop = (async () => {
      for (let scope = this.nextScope(); scope !== null && !this.disposed; scope = this.nextScope()) {
        if (scope.kind === 'full' || this.liveTimer === null) this.pendingSessions.clear();
        this.pendingFull = false;
        this.deletedSessions.clear();
        await this.options.waitBeforeRun?.().catch(() => undefined);
        if (this.disposed) break;
        await this.runOnce(scope).catch(() => undefined);
      }
    })().finally(() => {
      this.loop = null;
      this.kick();
    });
  }

  /** One run; with `onWaitForLock` it waits while another process writes the archive, else it is skipped and retried. */
  private async runOnce(scope: RunScope, onWaitForLock?: (holderPid: number | null) => void): Promise<ArchiveRunResult | null> {
    if (!(await this.settings()).enabled || (await this.options.home.getHome()).demo) return null;
    const controller = new AbortController();
    this.controller = controller;
    const catalog = this.options.catalog.catalog;
    // A warm start lists sessions from the saved listing before the catalog's files are loaded; the archive needs them.
    await catalog.loadCache();
    const files = scope.kind === 'full' ? catalog.transcriptFiles() : catalog.transcriptFiles(scope.keys);
    const sessions = scope.kind === 'full' ? undefined : new Set(scope.keys.map(keyOf));
    let reportedAt = 0;
    const report = (progress: ArchiveProgress, force: boolean): void => {
      this.progress = progress;
      if (!force && Date.now() - reportedAt < PROGRESS_EVERY_MS) return;
      reportedAt = Date.now();
      this.progressEmitter.fire(progress);
    };
    report({ running: true, filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0, cancelled: false }, true);
    let result: ArchiveRunResult | null = null;
    try {
      result = await backgroundHeapGrowth.during(() =>
        this.archive.update(candidatesFromCatalog(files), {
          signal: controller.signal,
          sessions,
          waitForLock: onWaitForLock !== undefined,
          onWaitForLock,
          onProgress: (progress) => report({ ...progress, running: true, cancelled: false }, false),
        }),
      );
      if (result.busyWithPid !== null) {
        this.retryLater();
        return result;
      }
      const { maxBytes } = await this.settings();
      // Another process may have taken the lock meanwhile: the cap is applied after the next run then.
      if (maxBytes !== null && !result.cancelled) await this.applyRemoval(await this.archive.pruneToSize(maxBytes)).catch(() => undefined);
      return result;
    } finally {
      if (this.controller === controller) this.controller = null;
      this.lastRunAt = new Date().toISOString();
      const last = this.progress;
      report(
        {
          ...(last ?? { filesDone: 0, filesTotal: 0, bytesDone: 0, bytesTotal: 0 }),
          running: false,
          cancelled: result?.cancelled ?? controller.signal.aborted,
        },
        true,
      );
      if (result && (result.filesArchived > 0 || result.filesGone > 0 || result.backupsArchived > 0)) await this.changed();
    }
  }

  /** Another process was writing the archive: a full run later covers what this one would have done. */
  private retryLater(): void {
    if (!this.options.follow || this.retryTimer || this.disposed) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.request({ kind: 'full' });
    }, BUSY_RETRY_MS);
  }

  /** Sessions the archive gave up leave the catalog when they are no longer on disk either. */
  private async applyRemoval(removal: ArchiveRemoval): Promise<void> {
    if (removal.removed.length > 0) await this.options.catalog.catalog.refreshSessions(removal.removed);
  }

  private async changed(): Promise<ArchiveStatus> {
    const status = await this.status();
    this.changeEmitter.fire(status);
    return status;
  }
}
