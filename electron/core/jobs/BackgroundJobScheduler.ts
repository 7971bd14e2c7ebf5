import { join } from 'node:path';
import {
  reviewedDreamsOn,
  type BackgroundSettings,
  type BackgroundSettingsPatch,
  type BackgroundStatus,
  type ClaudeCodeAutoDreamState,
  type WaitingBackgroundJob,
} from '../../../shared/jobs/backgroundJobs';
import type { JobKind, JobRecord, JobSummary, JobTrigger } from '../../../shared/jobs/jobTypes';
import type { SessionCatalogEntry, SessionUpdate } from '../../../shared/model/catalog';
import type { HomeSnapshot, ProjectRef, ProjectSummary } from '../../../shared/model/home';
import { CodedError } from '../../../shared/result';
import type { CatalogService } from '../catalog/CatalogService';
import type { ChangeSetWriter, WrittenChangeSet } from '../changes/changeSetWriter';
import type { HomeService } from '../home/HomeService';
import { readSettingsFile } from '../layout/settingsFiles';
import type { LiveHome } from '../watch/liveHome';
import { readConsolidationLockStatus } from '../lock/consolidationLockStatus';
import { readBackgroundSettings, writeBackgroundSettings } from '../settings/backgroundSettingsFile';
import { turnOffClaudeCodeAutoDream } from '../settings/claudeCodeAutoDream';
import type { WatchedChange } from '../watch/watchedChange';
import { DreamGateCache, projectKey, sessionKey, type RootGateSettings } from './DreamGateCache';
import type { JobService } from './JobService';
import { sessionReportedMemorySaved } from './memorySavedScan';
import { ExtractionLedger } from './ExtractionLedger';
import type { ReviewInbox } from './ReviewInbox';
import { reviewedDreamDue } from './reviewedDreamDue';
import { readSessionFileMtimes } from './sessionFileMtimes';
import { nextLocalMidnight, TokenBudget } from './TokenBudget';
import { DisposableStore, Emitter } from '../events';
import { listSessions } from '../transcripts/sessionListing';

/** A session counts as ended once it has not changed for this long (Claude Code writes on every turn). */
export const SESSION_END_IDLE_MS = 30 * 60 * 1000;
/** After a scheduled dream of a project failed, its gate is not tried again for this long (Claude Code's scan throttle). */
const RETRY_AFTER_FAILURE_MS = 10 * 60 * 1000;
const MAX_PROBLEMS = 5;
/** setTimeout cannot wait longer than about 24.8 days; a timer is simply set again when it fires early. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface BackgroundJobSchedulerOptions {
  readonly home: HomeService;
  readonly jobs: JobService;
  readonly inbox: ReviewInbox;
  readonly catalog: CatalogService;
  readonly live: LiveHome | null;
  /** The one change-set writer: it turns Claude Code's auto-dream off, and tells when a settings file was written. */
  readonly writer: ChangeSetWriter;
  readonly dataDir: string;
  /** A read-only web shell runs no background jobs: a dream takes `.consolidate-lock`. */
  readonly readOnly: boolean;
  readonly now?: () => Date;
  readonly sessionEndIdleMs?: number;
}

interface DreamItem {
  readonly kind: 'dream';
  /** One dream per memory folder (`dreamKey`), whichever of the projects sharing it asked. */
  readonly key: string;
  readonly ref: ProjectRef;
  readonly memoryDir: string;
  readonly label: string;
  readonly since: string;
}

interface ExtractionItem {
  readonly kind: 'extraction';
  readonly key: string;
  readonly ref: ProjectRef;
  readonly sessionId: string;
  readonly label: string;
  readonly since: string;
}

type QueueItem = DreamItem | ExtractionItem;

/** A session that may need an automatic extraction replay once it has ended. */
interface WatchedSession {
  readonly ref: ProjectRef;
  readonly sessionId: string;
  readonly path: string;
  readonly mtimeMs: number;
}

function dreamKey(memoryDir: string): string {
  return `dream\0${memoryDir}`;
}

const TRIGGER_OF: Readonly<Record<JobKind, JobTrigger>> = { dream: 'schedule', extraction: 'auto-extraction' };

/**
 * Runs the jobs nobody starts by hand, one at a time, within a daily token budget:
 * - reviewed dreams: when Claude Code's own gate would fire for a project the user chose, a staged dream that
 *   holds `.consolidate-lock` as Claude Code's dream does, so Claude Code does not dream over the same memory;
 *   its proposals wait in the review inbox;
 * - automatic extraction replays of sessions that ended with enough prompts and no extraction.
 * The gate is checked from memory on every session change (see DreamGateCache) and confirmed on disk.
 */
export class BackgroundJobScheduler {
  private settings: BackgroundSettings | null = null;
  private readonly gates = new DreamGateCache();
  private readonly budget: TokenBudget;
  private readonly extractions: ExtractionLedger;
  private readonly now: () => Date;
  private readonly idleMs: number;
  private active = false;
  private disposed = false;
  private readonly subscriptions = new DisposableStore();
  /** Projects with reviewed dreams on, by key. */
  private followed = new Map<string, ProjectSummary>();
  /** Every project's memory folder, by project key: a session change counts toward the gate of its project's memory. */
  private memoryDirs = new Map<string, string>();
  private readonly watched = new Map<string, WatchedSession>();
  private readonly queue: QueueItem[] = [];
  private running: { readonly item: QueueItem; readonly jobId: string; tokens: number } | null = null;
  private pumping = false;
  /** The item being started: no longer queued, not yet running. */
  private starting: string | null = null;
  private budgetWait = false;
  private readonly confirming = new Set<string>();
  private readonly retryAfter = new Map<string, number>();
  private problems: { at: string; message: string }[] = [];
  private timer: NodeJS.Timeout | null = null;
  /** When the timer fires (ms), or Infinity when none is set. */
  private timerDue = Number.POSITIVE_INFINITY;
  private syncing: Promise<void> = Promise.resolve();
  /** The memory folders whose gates the cache follows: those of the projects with reviewed dreams on. */
  private gatesFollowed = new Set<string>();
  private readonly statusEmitter = new Emitter<BackgroundStatus>();

  constructor(private readonly options: BackgroundJobSchedulerOptions) {
    this.now = options.now ?? (() => new Date());
    this.idleMs = options.sessionEndIdleMs ?? SESSION_END_IDLE_MS;
    this.budget = new TokenBudget(join(options.dataDir, 'background', 'budget.json'), this.now);
    this.extractions = new ExtractionLedger(join(options.dataDir, 'background', 'extractions.json'));
  }

  onDidChangeStatus(listener: (status: BackgroundStatus) => void): () => void {
    return this.statusEmitter.event(listener);
  }

  /**
   * Starts following the home (the app shells, once the watcher runs): reads the settings, checks every chosen
   * project's gate once, and from then on checks again whenever sessions, locks or Claude Code's settings change.
   */
  async start(): Promise<void> {
    if (this.options.readOnly || this.active || this.disposed) return;
    this.active = true;
    const { catalog, live, home, jobs, writer } = this.options;
    this.subscriptions.add(catalog.onDidUpdateSessions((update) => this.sessionsChanged(update)));
    this.subscriptions.add(writer.onDidWrite((written) => this.settingsWritten(written)));
    this.subscriptions.add(home.onDidChangeHome(() => this.resync()));
    this.subscriptions.add(
      jobs.onDidProgress((progress) => {
        if (this.running?.jobId !== progress.jobId) return;
        this.running.tokens = progress.usage.input + progress.usage.output;
      }),
    );
    if (live) this.subscriptions.add(live.onDidChange((changes) => this.filesChanged(changes)));
    this.resync();
    await this.syncing;
  }

  /** The settings, the day's budget, what runs and what waits. */
  async status(): Promise<BackgroundStatus> {
    const settings = await this.currentSettings();
    const budget = await this.budget.status(settings.dailyTokenBudget, this.running?.tokens ?? 0);
    return {
      settings,
      active: this.active,
      budget,
      runningJobId: this.running?.jobId ?? null,
      waiting: this.queue.map((item): WaitingBackgroundJob => ({
        kind: item.kind,
        trigger: TRIGGER_OF[item.kind],
        label: item.label,
        reason: budget.exhausted ? 'budget' : 'queued',
        since: item.since,
      })),
      problems: this.problems,
      claudeCodeAutoDream: await this.autoDreamStates(),
    };
  }

  async updateSettings(patch: BackgroundSettingsPatch): Promise<BackgroundStatus> {
    const current = await this.currentSettings();
    let { mode, projects } = current.reviewedDreams;
    if (patch.reviewedDreams) mode = patch.reviewedDreams.mode;
    if (patch.project) {
      const { configRoot, slug } = patch.project;
      projects = projects.filter((p) => p.configRoot !== configRoot || p.slug !== slug);
      if (patch.project.reviewedDreams) projects = [...projects, { configRoot, slug }];
      if (mode !== 'all') mode = 'chosen';
    }
    const enabled = patch.autoExtraction?.enabled ?? current.autoExtraction.enabled;
    const next: BackgroundSettings = {
      reviewedDreams: { mode, projects },
      autoExtraction: {
        enabled,
        minPrompts: patch.autoExtraction?.minPrompts ?? current.autoExtraction.minPrompts,
        // Turning it on starts from now: sessions that ended before are not replayed.
        since: enabled ? (current.autoExtraction.since ?? this.now().toISOString()) : null,
      },
      dailyTokenBudget: patch.dailyTokenBudget ?? current.dailyTokenBudget,
      autoDreamTurnedOff: current.autoDreamTurnedOff,
    };
    await writeBackgroundSettings(this.options.dataDir, next);
    this.settings = next;
    if (!next.autoExtraction.enabled) {
      this.watched.clear();
      this.dropQueued((item) => item.kind === 'extraction');
    }
    this.dropQueued((item) => item.kind === 'dream' && !reviewedDreamsOn(next, item.ref));
    this.resync();
    await this.syncing;
    // A larger budget may let waiting jobs start.
    void this.pump();
    return this.status();
  }

  /**
   * Turns Claude Code's own auto-dream off in one config root, the offer made beside reviewed dreams (two consolidators
   * on one memory is what users complain about). The write is history-recorded (revert its change set to undo);
   * from then on `autoDreamEnabled: false` there does not stop reviewed dreams.
   */
  async turnOffClaudeCodeAutoDream(configRoot: string): Promise<BackgroundStatus> {
    if (this.options.readOnly) throw new CodedError('READ_ONLY', 'This window is read-only');
    const home = await this.options.home.getHome();
    if (!home.roots.some((root) => root.exists && root.path === configRoot))
      throw new CodedError('NOT_FOUND', `${configRoot} is not a Claude Code folder this app reads`);
    const changeSetId = await turnOffClaudeCodeAutoDream(this.options.writer, configRoot);
    if (changeSetId !== null) {
      const current = await this.currentSettings();
      const next: BackgroundSettings = {
        ...current,
        autoDreamTurnedOff: [
          ...current.autoDreamTurnedOff.filter((record) => record.configRoot !== configRoot),
          { configRoot, changeSetId, at: this.now().toISOString() },
        ],
      };
      await writeBackgroundSettings(this.options.dataDir, next);
      this.settings = next;
    }
    await this.rereadRootSettings(configRoot);
    return this.status();
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    this.active = false;
    this.subscriptions.dispose();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.statusEmitter.dispose();
    await this.syncing;
  }

  /**
   * A batch of session changes from the catalog. Runs on every change Claude Code makes, so it only updates
   * in-memory state and compares numbers; the disk is read only when a gate looks open (bench: dreamGateCheckMeanMs, dreamGateCheckP99Ms).
   */
  sessionsChanged(update: SessionUpdate): void {
    if (!this.active || !this.settings) return;
    const touched = new Set<string>();
    const note = (ref: ProjectRef, sessionId: string, mtimeMs: number | null): void => {
      const memoryDir = this.memoryDirs.get(projectKey(ref));
      if (memoryDir === undefined || !this.gates.has(memoryDir)) return;
      this.gates.noteSession(memoryDir, sessionKey(ref, sessionId), mtimeMs);
      touched.add(memoryDir);
    };
    for (const entry of update.updated) {
      // A session whose file is gone (only its sub-agents are left) is no session file for Claude Code's count.
      note(entry, entry.sessionId, entry.mainTranscript ? Date.parse(entry.mtime) : null);
      if (this.settings.autoExtraction.enabled) this.noteExtractionCandidate(entry);
    }
    for (const key of update.removed) note(key, key.sessionId, null);
    for (const memoryDir of touched) this.checkGate(memoryDir);
    // Jobs waiting for a new day look again: a timer is late after the computer slept.
    if (this.budgetWait && this.queue.length > 0) void this.pump();
  }

  /** Where the user had this app turn Claude Code's auto-dream off, its `false` does not stop reviewed dreams. */
  private replacesAutoDream(configRoot: string): boolean {
    return this.settings?.autoDreamTurnedOff.some((record) => record.configRoot === configRoot) ?? false;
  }

  /** The in-memory check of a memory folder's gate, for each project with reviewed dreams on that uses it. */
  private checkGate(memoryDir: string): void {
    const now = this.now().getTime();
    for (const project of this.followed.values()) {
      if (project.memoryDir !== memoryDir) continue;
      if (this.gates.mayBeOpen(memoryDir, project.configRoot, now, this.replacesAutoDream(project.configRoot))) {
        void this.confirmDream(project);
        return;
      }
    }
  }

  /** A settings file this app wrote (turning auto-dream off, or a revert of that): the gates of its root read it again. */
  private settingsWritten(written: WrittenChangeSet): void {
    if (!this.active || written.root.writable.kind !== 'listed') return;
    void this.rereadRootSettings(written.root.dir);
  }

  private async currentSettings(): Promise<BackgroundSettings> {
    this.settings ??= await readBackgroundSettings(this.options.dataDir);
    return this.settings;
  }

  private filesChanged(changes: readonly WatchedChange[]): void {
    if (!this.active) return;
    for (const change of changes) {
      if (change.kind === 'consolidation-lock') {
        if (this.gates.has(change.memoryDir)) void this.relock(change.memoryDir);
      } else if (change.kind === 'settings') {
        const configRoot = [...this.followed.values()].find((p) => join(p.configRoot, 'settings.json') === change.path)?.configRoot;
        if (configRoot) void this.rereadRootSettings(configRoot);
      }
    }
  }

  /** Follows exactly the projects that have reviewed dreams on, and checks each newly followed one's gate on disk. */
  private resync(): void {
    this.syncing = this.syncing
      .then(async () => {
        if (!this.active) return;
        const settings = await this.currentSettings();
        const home = await this.options.home.getHome();
        this.memoryDirs = new Map(home.projects.map((p) => [projectKey(p), p.memoryDir]));
        const next = new Map(home.projects.filter((p) => reviewedDreamsOn(settings, p)).map((p) => [projectKey(p), p]));
        const changed = next.size !== this.followed.size || [...next.keys()].some((key) => !this.followed.has(key));
        this.followed = next;
        const needed = new Set([...next.values()].map((p) => p.memoryDir));
        // Gates are read again on every resync: projects that share a memory folder may have come or gone.
        for (const memoryDir of needed) await this.seedGate(memoryDir);
        for (const memoryDir of this.gatesFollowed) if (!needed.has(memoryDir)) this.gates.dropGate(memoryDir);
        this.gatesFollowed = needed;
        for (const memoryDir of needed) this.checkGate(memoryDir);
        if (settings.autoExtraction.enabled) await this.seedExtractionCandidates();
        if (changed) this.emitStatus();
      })
      .catch((error: unknown) => this.problem(`Background jobs could not read the home: ${messageOf(error)}`));
  }

  /** A memory folder's gate as on disk: its lock, the sessions of every project using it, the settings of their roots. */
  private async seedGate(memoryDir: string): Promise<void> {
    const users = await this.options.home.projectsUsingMemoryDir(memoryDir);
    const lock = await readConsolidationLockStatus(memoryDir);
    const sessions: [string, number][] = [];
    for (const user of users) {
      for (const [sessionId, mtimeMs] of await readSessionFileMtimes(user)) sessions.push([sessionKey(user, sessionId), mtimeMs]);
    }
    for (const configRoot of new Set(users.map((user) => user.configRoot)))
      this.gates.setRootSettings(configRoot, await readRootGateSettings(configRoot));
    this.gates.setGate(memoryDir, lock.lastConsolidatedAt === null ? 0 : Date.parse(lock.lastConsolidatedAt), sessions);
  }

  private async relock(memoryDir: string): Promise<void> {
    const lock = await readConsolidationLockStatus(memoryDir);
    this.gates.setLastConsolidated(memoryDir, lock.lastConsolidatedAt === null ? 0 : Date.parse(lock.lastConsolidatedAt));
    this.checkGate(memoryDir);
  }

  private async rereadRootSettings(configRoot: string): Promise<void> {
    this.gates.setRootSettings(configRoot, await readRootGateSettings(configRoot));
    for (const memoryDir of this.gatesFollowed) this.checkGate(memoryDir);
    this.emitStatus();
  }

  /** The in-memory gate looks open: read it on disk, and queue a dream when it really is. */
  private async confirmDream(project: ProjectSummary): Promise<void> {
    const key = dreamKey(project.memoryDir);
    if (this.confirming.has(key) || this.isQueuedOrRunning(key)) return;
    if ((this.retryAfter.get(key) ?? 0) > this.now().getTime()) return;
    this.confirming.add(key);
    try {
      const check = await reviewedDreamDue(project, this.options, { ignoreAutoDreamOff: this.replacesAutoDream(project.configRoot) });
      this.gates.setLastConsolidated(project.memoryDir, check.lastConsolidatedMs);
      if (!check.due) return;
      this.enqueue({
        kind: 'dream',
        key,
        ref: { configRoot: project.configRoot, slug: project.slug },
        memoryDir: project.memoryDir,
        label: project.path ?? project.displayName,
        since: this.now().toISOString(),
      });
    } catch (error) {
      this.problem(`Could not read the dream gate of ${project.displayName}: ${messageOf(error)}`);
    } finally {
      this.confirming.delete(key);
    }
  }

  private noteExtractionCandidate(entry: SessionCatalogEntry): void {
    const settings = this.settings;
    if (!settings?.autoExtraction.since) return;
    const ref = { configRoot: entry.configRoot, slug: entry.slug };
    const key = sessionKey(ref, entry.sessionId);
    const mtimeMs = Date.parse(entry.mtime);
    const qualifies =
      entry.mainTranscript &&
      mtimeMs >= Date.parse(settings.autoExtraction.since) &&
      entry.userPrompts >= settings.autoExtraction.minPrompts &&
      entry.memoryWrites.length === 0 &&
      !this.extractions.has(key) &&
      !this.isQueuedOrRunning(key);
    if (!qualifies) {
      this.watched.delete(key);
      return;
    }
    this.watched.set(key, { ref, sessionId: entry.sessionId, path: entry.path, mtimeMs });
    // A session that grew ends later: the timer set for an earlier end stays, and re-arms when it fires.
    if (mtimeMs + this.idleMs < this.timerDue) this.armTimer();
  }

  private async seedExtractionCandidates(): Promise<void> {
    await this.extractions.load();
    await this.options.catalog.catalog.loadCache();
    for (const entry of this.options.catalog.catalog.list()) this.noteExtractionCandidate(entry);
  }

  /** Sessions idle long enough have ended: replay those that never reported an extraction. */
  private async takeEndedSessions(): Promise<void> {
    const settings = await this.currentSettings();
    const now = this.now().getTime();
    for (const [key, session] of [...this.watched]) {
      if (session.mtimeMs + this.idleMs > now) continue;
      this.watched.delete(key);
      if (!settings.autoExtraction.enabled || this.extractions.has(key) || this.isQueuedOrRunning(key)) continue;
      try {
        if (await sessionReportedMemorySaved(session.path)) {
          await this.extractions.remember(key);
          continue;
        }
        const project = await this.projectKnowing(session.ref, session.sessionId);
        if (!project) continue;
        this.enqueue({
          kind: 'extraction',
          key,
          ref: session.ref,
          sessionId: session.sessionId,
          label: project.path ?? project.displayName,
          since: this.now().toISOString(),
        });
      } catch (error) {
        this.problem(`Could not check session ${session.sessionId} for an extraction: ${messageOf(error)}`);
      }
    }
  }

  /** The project, once the home lists the session (it learns of new sessions a moment after the catalog does). */
  private async projectKnowing(ref: ProjectRef, sessionId: string): Promise<ProjectSummary | null> {
    const { home } = this.options;
    const find = (snapshot: HomeSnapshot) => snapshot.projects.find((p) => projectKey(p) === projectKey(ref)) ?? null;
    const project = find(await home.getHome());
    if (project && (await listSessions(home, ref)).some((s) => s.sessionId === sessionId)) return project;
    return find(await home.refresh());
  }

  private isQueuedOrRunning(key: string): boolean {
    return this.starting === key || this.running?.item.key === key || this.queue.some((item) => item.key === key);
  }

  private enqueue(item: QueueItem): void {
    if (this.isQueuedOrRunning(item.key)) return;
    this.queue.push(item);
    this.emitStatus();
    void this.pump();
  }

  private dropQueued(test: (item: QueueItem) => boolean): void {
    for (let i = this.queue.length - 1; i >= 0; i--) if (test(this.queue[i])) this.queue.splice(i, 1);
  }

  /** Runs the queue one job at a time while the day's budget lasts. */
  private async pump(): Promise<void> {
    if (this.pumping || !this.active) return;
    this.pumping = true;
    try {
      while (this.queue.length > 0 && this.active) {
        const settings = await this.currentSettings();
        const budget = await this.budget.status(settings.dailyTokenBudget, 0);
        this.budgetWait = budget.exhausted;
        if (budget.exhausted) break;
        const item = this.queue.shift() as QueueItem;
        this.starting = item.key;
        try {
          await this.run(item, settings.dailyTokenBudget - budget.spent);
        } catch (error) {
          // Bookkeeping failed (the data folder is unwritable): the job itself has its record.
          this.problem(`Background job bookkeeping failed: ${messageOf(error)}`);
        } finally {
          this.starting = null;
          this.running = null;
        }
      }
    } finally {
      this.pumping = false;
      this.armTimer();
      this.emitStatus();
    }
  }

  private async run(item: QueueItem, tokensLeft: number): Promise<void> {
    let started: JobSummary;
    try {
      started = await this.startJob(item, tokensLeft);
    } catch (error) {
      // The gate closed meanwhile (Claude Code took the lock) or another job works on this memory: not a problem.
      if (error instanceof CodedError && (error.code === 'LOCK_HELD' || error.code === 'CONFLICT')) return;
      this.problem(
        `${item.kind === 'dream' ? 'A reviewed dream' : 'An automatic extraction'} of ${item.label} could not start: ${messageOf(error)}`,
      );
      if (item.kind === 'dream') this.retryAfter.set(item.key, this.now().getTime() + RETRY_AFTER_FAILURE_MS);
      return;
    }
    this.running = { item, jobId: started.id, tokens: 0 };
    if (item.kind === 'extraction') await this.extractions.remember(item.key);
    this.emitStatus();
    // Never rejects: it settles with the final record.
    const record: JobRecord = await this.options.jobs.waitForJob(started.id);
    // Its tokens move from "running" to today's spending.
    this.running = null;
    await this.budget.spend(record.usage.input + record.usage.output);
    if (record.status === 'failed') {
      this.problem(
        `${record.kind === 'dream' ? 'A reviewed dream' : 'An automatic extraction'} of ${item.label} failed: ${record.error ?? 'unknown error'}`,
      );
      if (item.kind === 'dream') this.retryAfter.set(item.key, this.now().getTime() + RETRY_AFTER_FAILURE_MS);
    }
    if (item.kind === 'dream' && this.gates.has(item.memoryDir)) await this.relock(item.memoryDir);
  }

  private async startJob(item: QueueItem, tokensLeft: number): Promise<JobSummary> {
    const { jobs } = this.options;
    if (item.kind === 'extraction') {
      // Replayed already (a change of the session queued it a second time while the first replay ran).
      if (this.extractions.has(item.key)) throw new CodedError('CONFLICT', 'The session was replayed already');
      const source = { kind: 'session' as const, ...item.ref, sessionId: item.sessionId };
      return jobs.startExtraction(source, { trigger: 'auto-extraction', maxTokens: tokensLeft });
    }
    // Read again: the gate may have closed while the job waited its turn.
    const project = this.followed.get(projectKey(item.ref));
    const options = { ignoreAutoDreamOff: this.replacesAutoDream(item.ref.configRoot) };
    if (!project || !(await reviewedDreamDue(project, this.options, options)).due)
      throw new CodedError('CONFLICT', 'The gate closed before the dream could start');
    return jobs.startDream({ kind: 'project', ...item.ref }, { trigger: 'schedule', maxTokens: tokensLeft, holdConsolidationLock: true });
  }

  /** One timer for whatever comes next: a watched session reaching its end, or the budget's new day. */
  private armTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.timerDue = Number.POSITIVE_INFINITY;
    if (!this.active) return;
    const now = this.now().getTime();
    let next = Number.POSITIVE_INFINITY;
    for (const session of this.watched.values()) next = Math.min(next, session.mtimeMs + this.idleMs);
    if (this.budgetWait && this.queue.length > 0) next = Math.min(next, nextLocalMidnight(this.now()).getTime());
    if (next === Number.POSITIVE_INFINITY) return;
    this.timerDue = next;
    this.timer = setTimeout(() => void this.wake(), Math.min(MAX_TIMER_MS, Math.max(0, next - now)));
    this.timer.unref();
  }

  private async wake(): Promise<void> {
    this.timer = null;
    this.timerDue = Number.POSITIVE_INFINITY;
    if (!this.active) return;
    await this.takeEndedSessions();
    await this.pump();
  }

  private async autoDreamStates(): Promise<ClaudeCodeAutoDreamState[]> {
    const home = await this.options.home.getHome();
    const settings = await this.currentSettings();
    const states: ClaudeCodeAutoDreamState[] = [];
    for (const root of home.roots.filter((r) => r.exists)) {
      const { autoDreamEnabled } = await readRootGateSettings(root.path);
      const record = settings.autoDreamTurnedOff.find((r) => r.configRoot === root.path) ?? null;
      states.push({
        configRoot: root.path,
        autoDreamEnabled,
        cannotChange: this.options.readOnly ? 'This window is read-only.' : null,
        turnedOffByApp: autoDreamEnabled === false ? record : null,
      });
    }
    return states;
  }

  private problem(message: string): void {
    this.problems = [{ at: this.now().toISOString(), message }, ...this.problems].slice(0, MAX_PROBLEMS);
    this.emitStatus();
  }

  private emitStatus(): void {
    if (!this.statusEmitter.hasListeners || this.disposed) return;
    void this.status().then(
      (status) => {
        this.statusEmitter.fire(status);
      },
      () => undefined,
    );
  }
}

/** Claude Code's user settings of one config root, as far as the dream gate cares. */
async function readRootGateSettings(configRoot: string): Promise<RootGateSettings> {
  const values = (await readSettingsFile(join(configRoot, 'settings.json'))).values ?? {};
  return {
    autoDreamEnabled: typeof values.autoDreamEnabled === 'boolean' ? values.autoDreamEnabled : null,
    autoMemoryEnabled: values.autoMemoryEnabled !== false,
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
