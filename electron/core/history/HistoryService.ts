import { dirname, join } from 'node:path';
import type { BackupExport, ImportPreview, ImportResult } from '../../../shared/history/backupModel';
import { changeKind, changeSetTotals, netFileChanges } from '../../../shared/history/changeSetFiles';
import type {
  ChangeCause,
  ChangeEvidence,
  ChangeSetPage,
  ChangeSetSummary,
  DreamReviewItem,
  FileBlame,
  FileChangeSummary,
  FileOrigin,
  FileOriginStep,
  FileVersion,
  HistoryStatus,
  ReconstructionStatus,
  RollbackPlan,
  RollbackResult,
  SessionMemoryWrites,
  TranscriptPlace,
  VersionPair,
} from '../../../shared/history/historyModel';
import type { ProjectRef } from '../../../shared/model/home';
import { memoryFolderKey, type MemoryFolderRef } from '../../../shared/memory/memoryFolderRef';
import { CodedError } from '../../../shared/result';
import type { HomeService } from '../home/HomeService';
import type { LiveHome } from '../watch/liveHome';
import { MemoryBackup } from './backup/MemoryBackup';
import { changeSetNotesLog, dreamReviewsLog, madeByThisApp, type ChangeSetNote, type DreamReviewRecord } from '../changes/changeSetNotes';
import type { ChangeSetWriter, WrittenChangeSet } from '../changes/changeSetWriter';
import { HistoryIndex, type IndexedChangeSet } from './HistoryIndex';
import { HistoryRecorder, type RecordReport } from './HistoryRecorder';
import { HistoryRollback } from './HistoryRollback';
import type { HistoryEntry, HistoryStore } from '../changes/HistoryStore';
import type { JsonlLog } from '../changes/jsonlLog';
import { writeRootOf } from './knownWriteRoots';
import { LineStatsCache } from './lineStatsCache';
import { blameChain } from './provenance/blame';
import { ProvenanceReconstructor, type ReconstructionReport } from './provenance/ProvenanceReconstructor';
import { ReconstructedLog } from './provenance/reconstructedLog';
import { DiskTranscriptFeed, type TranscriptFeed } from './provenance/transcriptFeed';
import { trackedFolders, type TrackedFolder } from './trackedFolders';
import { decodeText } from './versionText';
import type { WriteRoot } from '../changes/writeRoot';
import { DisposableStore, Emitter } from '../events';
import { backgroundHeapGrowth } from '../async/backgroundHeapGrowth';
import { listSessions } from '../transcripts/sessionListing';

export interface HistoryServiceOptions {
  readonly home: HomeService;
  readonly store: HistoryStore;
  /** The writer every change goes through (restore, revert, import here); each change set it writes is announced. */
  readonly writer: ChangeSetWriter;
  /** The folder the store keeps its journal in (`<dataDir>/history`); the side notes live beside it. */
  readonly historyDir: string;
  readonly live: LiveHome | null;
  readonly now?: () => number;
  readonly settleMs?: number;
  /** Where reconstruction reads transcripts from (default: the disk; an archive of deleted ones can join it). */
  readonly transcriptFeed?: TranscriptFeed;
}

export interface HistoryQuery {
  /** Only this project's memory folders (its auto memory, and agent memory inside the project). */
  readonly project?: ProjectRef | null;
  readonly folder?: MemoryFolderRef | null;
  readonly causes?: readonly ChangeCause[] | null;
  readonly sessionId?: string | null;
  /** Only change sets that touched this file (relative to its memory folder). */
  readonly path?: string | null;
  /** Include the first records of files that were already there (the start of history). Default false. */
  readonly includeFirstSight?: boolean;
  /** Only change sets that happened at or after this time (ISO). */
  readonly since?: string | null;
  readonly offset?: number;
  readonly limit?: number;
}

const DEFAULT_PAGE = 200;
const FOLDERS_TTL_MS = 2000;
/** Evidence is copied out of new transcript bytes this often while the app runs (Claude Code deletes old transcripts). */
const RECONSTRUCT_EVERY_MS = 30 * 60_000;
/** A new transcript (a new session, a restored one) is read this long after the last one appeared. */
const NEW_TRANSCRIPT_SETTLE_MS = 30_000;

function sameProject(a: ProjectRef | null, b: ProjectRef | null): boolean {
  return a !== null && b !== null && a.configRoot === b.configRoot && a.slug === b.slug;
}

/**
 * Memory history for the shells: records versions (start-up, live), answers the timeline, versions, diffs
 * and dreams-after-the-fact, and rolls back (restore a version, revert a change set) and backs up through
 * the change-set writer, whose every change set it announces. The journal and blobs are the HistoryStore's;
 * notes, reviews and caches sit beside it.
 */
export class HistoryService {
  readonly index: HistoryIndex;
  readonly recorder: HistoryRecorder;
  readonly reconstructor: ProvenanceReconstructor;
  private readonly notes: JsonlLog<ChangeSetNote>;
  private readonly reviews: JsonlLog<DreamReviewRecord>;
  private readonly lineStats: LineStatsCache;
  private readonly rollback: HistoryRollback;
  private readonly backup: MemoryBackup;
  private folders: { at: number; list: readonly TrackedFolder[] } | null = null;
  private readonly changeEmitter = new Emitter<RecordReport>();
  private readonly subscriptions = new DisposableStore();
  /** Set on dispose: a look the watcher's start would still trigger must not write history after it. */
  private disposed = false;
  /** Cancels a reconstruction in progress on dispose. */
  private readonly aborter = new AbortController();
  private reconstructTimer: NodeJS.Timeout | null = null;
  private newTranscriptTimer: NodeJS.Timeout | null = null;
  private readonly progressEmitter = new Emitter<ReconstructionStatus>();

  constructor(private readonly options: HistoryServiceOptions) {
    const now = options.now ?? Date.now;
    this.notes = changeSetNotesLog(options.historyDir);
    this.reviews = dreamReviewsLog(options.historyDir);
    const reconstructed = new ReconstructedLog(options.historyDir);
    this.index = new HistoryIndex(options.store, this.notes, this.reviews, reconstructed);
    this.reconstructor = new ProvenanceReconstructor({
      index: this.index,
      log: reconstructed,
      historyDir: options.historyDir,
      feed: options.transcriptFeed ?? new DiskTranscriptFeed(),
      folders: () => this.trackedFolders(true),
      now,
    });
    this.lineStats = new LineStatsCache(options.historyDir, options.store);
    this.recorder = new HistoryRecorder({
      index: this.index,
      notes: this.notes,
      historyDir: options.historyDir,
      originMarkerPath: join(dirname(options.historyDir), 'history-origin.json'),
      folders: () => this.trackedFolders(true),
      now,
      settleMs: options.settleMs,
    });
    this.rollback = new HistoryRollback(this.index, options.writer);
    this.backup = new MemoryBackup(this.index, options.writer, now);
    this.subscriptions.add(this.recorder.onDidRecord((report) => this.emit(report)));
    this.subscriptions.add(options.writer.onDidWrite((written) => this.announce(written)));
    this.subscriptions.add(options.home.onDidChangeHome(() => (this.folders = null)));
    this.subscriptions.add(this.reconstructor.onDidProgress((status) => this.progressEmitter.fire(status)));
  }

  /** Reconstruction progress (running, bytes read, done), for the shells. */
  onDidProgress(listener: (status: ReconstructionStatus) => void): () => void {
    return this.progressEmitter.event(listener);
  }

  onDidChange(listener: (report: RecordReport) => void): () => void {
    return this.changeEmitter.event(listener);
  }

  /** The app shells: record what changed while the app was closed, then follow the watcher. */
  start(): void {
    // Events are caught from the start; recording them waits for the start-up look (recording runs one at a time).
    if (this.options.live) this.subscriptions.add(this.recorder.follow(this.options.live));
    void this.recorder
      .recordAll('startup')
      .then(() => this.reconstruct())
      .catch(() => undefined);
    // What changed between that look and the watcher's first scan raised no event: look once more then.
    void this.options.live?.ready.then(() => (this.disposed ? undefined : this.recorder.recordAll('live'))).catch(() => undefined);
    // New projects and memory folders, or a different home (the demo): take their first versions right away,
    // and read the transcripts that came with them.
    if (this.options.live)
      this.subscriptions.add(
        this.options.home.onDidChangeHome(
          () =>
            void this.recorder
              .recordAll('live')
              .then(() => this.reconstruct())
              .catch(() => undefined),
        ),
      );
    // Evidence is copied out of transcripts as they grow, before Claude Code's cleanup deletes them, and out of a
    // transcript that appears (a new session, or an old one brought back) soon after it does.
    this.reconstructTimer = setInterval(() => void this.reconstruct().catch(() => undefined), RECONSTRUCT_EVERY_MS);
    this.reconstructTimer.unref?.();
    if (this.options.live)
      this.subscriptions.add(
        this.options.live.onDidChange((changes) => {
          if (!changes.some((c) => (c.kind === 'transcript' || c.kind === 'subagent-transcript') && c.event === 'add')) return;
          if (this.newTranscriptTimer) clearTimeout(this.newTranscriptTimer);
          this.newTranscriptTimer = setTimeout(() => void this.reconstruct().catch(() => undefined), NEW_TRANSCRIPT_SETTLE_MS);
          this.newTranscriptTimer.unref?.();
        }),
      );
  }

  /**
   * Reconstructs the time before history recorded each folder, from the transcripts, file-history and
   * frontmatter Claude Code left (only transcript bytes not read before are read). Runs between recordings,
   * never beside one, so both see the same journal.
   */
  async reconstruct(): Promise<ReconstructionReport | null> {
    if (this.disposed) return null;
    const report = await this.recorder.exclusively(() => backgroundHeapGrowth.during(() => this.reconstructor.run(this.aborter.signal)));
    if (report.rebuilt && report.changeSetIds.length > 0)
      this.emit({ versions: report.changeSetIds.length, changeSetIds: report.changeSetIds, folders: report.folders });
    return report;
  }

  /** Another watcher saw these folders change (agent memory inside projects): record them once events settle. */
  foldersChanged(memoryDirs: readonly string[]): void {
    this.recorder.foldersChanged(memoryDirs);
  }

  /** Records any change found since the last look, then reconstructs what came before (the CLI runs this first). */
  async recordNow(): Promise<RecordReport> {
    const report = await this.recorder.recordAll('startup');
    await this.reconstruct();
    return report;
  }

  async status(): Promise<HistoryStatus> {
    await this.index.refresh();
    const first = this.index.firstEntry();
    const rebuiltAt = await this.recorder.rebuiltAt();
    const reconstruction = this.reconstructor.status();
    let reconstructedFrom: string | null = null;
    for (const id of this.index.changeSetIdsNewestFirst()) {
      const set = this.index.changeSet(id);
      if (set?.reconstructed && set.note && (reconstructedFrom === null || set.note.time < reconstructedFrom))
        reconstructedFrom = set.note.time;
    }
    return {
      startedAt: first?.time ?? null,
      rebuilt: rebuiltAt !== null,
      rebuiltAt,
      versionCount: this.index.versionCount,
      changeSetCount: this.index.changeSetCount,
      reconstruction: {
        ...reconstruction,
        reconstructedFrom,
        versionCount: this.index.reconstructedVersionCount,
        changeSetCount: this.index.reconstructedChangeSetCount,
      },
    };
  }

  async listChangeSets(query: HistoryQuery = {}): Promise<ChangeSetPage> {
    await this.index.refresh();
    const folders = await this.trackedFolders(false);
    const dirs = this.folderFilter(folders, query);
    const matching: IndexedChangeSet[] = [];
    for (const id of this.index.changeSetIdsNewestFirst()) {
      const set = this.index.changeSet(id);
      if (!set || (dirs && !dirs.has(set.folder))) continue;
      if (set.note?.firstSight && !query.includeFirstSight) continue;
      if (query.causes && !query.causes.includes(this.causeOf(set))) continue;
      if (query.sessionId && set.note?.sessionId !== query.sessionId) continue;
      if (query.path && !set.entries.some((entry) => entry.path === query.path)) continue;
      if (query.since && this.timeOf(set) < query.since) continue;
      if (netFileChanges(set.entries).length === 0) continue;
      matching.push(set);
    }
    matching.sort((a, b) => this.timeOf(b).localeCompare(this.timeOf(a)));
    const offset = query.offset ?? 0;
    const page = matching.slice(offset, offset + (query.limit ?? DEFAULT_PAGE));
    return { changeSets: await this.summarize(page, folders), total: matching.length, status: await this.status() };
  }

  async getChangeSet(id: string): Promise<ChangeSetSummary> {
    await this.index.refresh();
    const set = this.index.changeSet(id);
    if (!set) throw new CodedError('NOT_FOUND', `No change set ${id} in the history`);
    return (await this.summarize([set], await this.trackedFolders(false)))[0];
  }

  /** Every recorded version of one file, oldest first. */
  async listFileVersions(folder: MemoryFolderRef, path: string): Promise<FileVersion[]> {
    const memoryDir = await this.memoryDirOf(folder);
    await this.index.refresh();
    return this.index.versions(memoryDir, path).map((entry): FileVersion => {
      const set = this.index.changeSet(entry.changeSetId);
      const note = set?.note ?? null;
      return {
        changeSetId: entry.changeSetId,
        time: set?.reconstructed ? entry.time : (note?.time ?? entry.time),
        cause: note?.cause ?? entry.cause,
        kind: entry.kind ?? changeKind(entry.before, entry.after),
        before: entry.before,
        after: entry.after,
        size: entry.size,
        summary: entry.summary,
        firstSight: note?.firstSight ?? false,
        certainty: entry.certainty ?? 'exact',
        reconstructed: set?.reconstructed ?? false,
        sessionId: note?.sessionId ?? null,
        turnUuid: this.turnOf(entry, note?.evidence ?? null),
        gap: entry.gap ?? null,
      };
    });
  }

  /** Each line of a file's newest version with the version that brought it in. */
  async blame(folder: MemoryFolderRef, path: string): Promise<FileBlame> {
    const memoryDir = await this.memoryDirOf(folder);
    await this.index.refresh();
    const versions = this.index.versions(memoryDir, path);
    if (versions.length === 0) throw new CodedError('NOT_FOUND', `${path} has no history`);
    const steps = versions.map((entry) => {
      const set = this.index.changeSet(entry.changeSetId);
      const note = set?.note ?? null;
      return {
        entry,
        time: set?.reconstructed ? entry.time : (note?.time ?? entry.time),
        cause: note?.cause ?? entry.cause,
        sessionId: note?.sessionId ?? null,
        turnUuid: this.turnOf(entry, note?.evidence ?? null),
        place: placeOfEvidence(note?.evidence ?? null),
        firstSight: note?.firstSight ?? false,
      };
    });
    return { path, memoryDir, ...(await blameChain(steps, (hash) => this.options.store.readBlob(hash))) };
  }

  /** Where a file came from: the version that created it (or the oldest history has) and the newest one. */
  async origin(folder: MemoryFolderRef, path: string): Promise<FileOrigin> {
    const versions = (await this.listFileVersions(folder, path)).filter((v) => !v.firstSight);
    const stepOf = (version: FileVersion | undefined): FileOriginStep | null => {
      if (!version) return null;
      const note = this.index.changeSet(version.changeSetId)?.note ?? null;
      return {
        changeSetId: version.changeSetId,
        time: version.time,
        cause: version.cause,
        sessionId: version.sessionId,
        turnUuid: version.turnUuid,
        certainty: version.certainty,
        reconstructed: version.reconstructed,
        place: placeOfEvidence(note?.evidence ?? null),
      };
    };
    const created = [...versions].reverse().find((v) => v.kind === 'added') ?? versions[0];
    const live = versions.filter((v) => v.kind !== 'deleted');
    return { path, created: stepOf(created), lastChanged: stepOf(live[live.length - 1]), versionCount: versions.length };
  }

  /** What history says each session did to memory (its own writes, the extraction after its turns, a dream it reported). */
  async sessionMemoryWrites(sessionIds?: readonly string[] | null): Promise<SessionMemoryWrites[]> {
    await this.index.refresh();
    const wanted = sessionIds ? new Set(sessionIds) : null;
    const bySession = new Map<string, { changeSets: number; files: Set<string> }>();
    for (const id of this.index.changeSetIdsNewestFirst()) {
      const set = this.index.changeSet(id);
      const sessionId = set?.note?.sessionId;
      if (!set || !sessionId || set.note?.firstSight || (wanted && !wanted.has(sessionId))) continue;
      const files = netFileChanges(set.entries);
      if (files.length === 0) continue;
      const known = bySession.get(sessionId) ?? { changeSets: 0, files: new Set<string>() };
      known.changeSets++;
      for (const file of files) known.files.add(join(set.folder, ...file.path.split('/')));
      bySession.set(sessionId, known);
    }
    return [...bySession].map(([sessionId, { changeSets, files }]) => ({ sessionId, changeSets, files: [...files].sort() }));
  }

  /** Two versions of one file as text, for the diff viewer (null = the file did not exist). */
  async readVersionPair(folder: MemoryFolderRef, path: string, before: string | null, after: string | null): Promise<VersionPair> {
    const memoryDir = await this.memoryDirOf(folder);
    await this.index.refresh();
    const known = this.index.versions(memoryDir, path);
    for (const hash of [before, after]) {
      if (hash !== null && !known.some((entry) => entry.after === hash || entry.before === hash))
        throw new CodedError('NOT_FOUND', `Version ${hash.slice(0, 12)} of ${path} is not in the history`);
    }
    return this.pair(path, before, after);
  }

  /** Every file of a change set, before and after, for the whole-change-set diff. */
  async changeSetPairs(id: string): Promise<VersionPair[]> {
    await this.index.refresh();
    const set = this.index.changeSet(id);
    if (!set) throw new CodedError('NOT_FOUND', `No change set ${id} in the history`);
    return Promise.all(netFileChanges(set.entries).map((file) => this.pair(file.path, file.before, file.after)));
  }

  async listDreams(project: ProjectRef | null): Promise<DreamReviewItem[]> {
    const page = await this.listChangeSets({ project, causes: ['dream'], limit: Number.MAX_SAFE_INTEGER });
    const items: DreamReviewItem[] = [];
    for (let i = 0; i < page.changeSets.length; i++) {
      const changeSet = page.changeSets[i];
      // Dreams from before history started are history (listed there), not dreams to keep or revert now.
      if (changeSet.reconstructed) continue;
      const previous = page.changeSets.slice(i + 1).find((other) => other.memoryDir === changeSet.memoryDir) ?? null;
      const review = this.reviewOf(changeSet.id);
      items.push({
        changeSet,
        sessionsSince: await this.sessionsBetween(changeSet, previous),
        deleted: changeSet.files.filter((file) => file.kind === 'deleted').map((file) => file.path),
        review: review ? { decision: review.decision, at: review.time } : null,
      });
    }
    return items;
  }

  /** Dreams nobody has kept or reverted yet, per project (for the sidebar). */
  async unreviewedDreamCounts(): Promise<{ readonly configRoot: string; readonly slug: string; readonly count: number }[]> {
    await this.index.refresh();
    const folders = await this.trackedFolders(false);
    const counts = new Map<string, { configRoot: string; slug: string; count: number }>();
    for (const id of this.index.changeSetIdsNewestFirst()) {
      const set = this.index.changeSet(id);
      // Dreams reconstructed from before history started are history, not waiting for a review.
      if (!set || set.reconstructed || this.causeOf(set) !== 'dream' || set.note?.firstSight || this.reviewOf(id)) continue;
      const project = folders.find((f) => f.memoryDir === set.folder)?.project;
      if (!project) continue;
      const key = `${project.configRoot}\0${project.slug}`;
      const entry = counts.get(key) ?? { ...project, count: 0 };
      entry.count++;
      counts.set(key, entry);
    }
    return [...counts.values()];
  }

  /** Keep: the dream was looked at and stays as it is. */
  async keepDream(id: string): Promise<DreamReviewItem['review']> {
    await this.index.refresh();
    const set = this.index.changeSet(id);
    if (!set || this.causeOf(set) !== 'dream') throw new CodedError('NOT_FOUND', `No dream ${id} in the history`);
    const time = new Date(this.now()).toISOString();
    await this.reviews.append([{ v: 1, changeSetId: id, decision: 'kept', time }]);
    await this.index.refresh();
    this.emit({ versions: 0, changeSetIds: [id], folders: [set.folder] });
    return { decision: 'kept', at: time };
  }

  async planRestore(folder: MemoryFolderRef, path: string, version: string, expected?: string | null): Promise<RollbackPlan> {
    return (await this.restorePlan(folder, path, version, expected)).plan;
  }

  async restore(folder: MemoryFolderRef, path: string, version: string, expected?: string | null): Promise<RollbackResult> {
    const { root, plan } = await this.restorePlan(folder, path, version, expected);
    return this.rollback.apply(root, plan, `Restored ${path} to version ${version.slice(0, 12)}`);
  }

  async planRevert(id: string, paths?: readonly string[]): Promise<RollbackPlan> {
    return (await this.revertPlan(id, paths)).plan;
  }

  /** Puts a change set's files (all, or the chosen ones) back as they were before it. */
  async revert(id: string, paths?: readonly string[]): Promise<RollbackResult> {
    const { root, plan } = await this.revertPlan(id, paths);
    const set = this.index.changeSet(id) as IndexedChangeSet;
    const all = !paths || netFileChanges(set.entries).every((file) => paths.includes(file.path));
    const what = all ? 'all files' : paths.join(', ');
    const result = await this.rollback.apply(
      root,
      plan,
      `Reverted ${this.causeOf(set) === 'dream' ? 'a dream' : 'a change set'} (${what})`,
    );
    if (all && this.causeOf(set) === 'dream')
      await this.reviews.append([{ v: 1, changeSetId: id, decision: 'reverted', time: new Date(this.now()).toISOString() }]);
    // The reverted change set reads differently now (reverted, or reviewed); the revert itself was announced by the writer.
    this.emit({ versions: 0, changeSetIds: [id], folders: [plan.memoryDir] });
    return result;
  }

  async exportBackup(folder: MemoryFolderRef, asOf: string | null): Promise<BackupExport> {
    const tracked = await this.trackedFolderOf(folder);
    const asOfMs = asOf === null ? null : Date.parse(asOf);
    if (asOfMs !== null && Number.isNaN(asOfMs)) throw new CodedError('INVALID_INPUT', 'Not a valid time');
    return this.backup.export(tracked.memoryDir, tracked.label, asOfMs);
  }

  async previewImport(folder: MemoryFolderRef, archive: Uint8Array): Promise<ImportPreview> {
    return this.backup.preview(await writeRootOf(this.options.home, await this.memoryDirOf(folder)), archive);
  }

  async applyImport(
    folder: MemoryFolderRef,
    archive: Uint8Array,
    expected: Readonly<Record<string, string | null>>,
  ): Promise<ImportResult> {
    return this.backup.apply(await writeRootOf(this.options.home, await this.memoryDirOf(folder)), archive, expected);
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    this.aborter.abort();
    if (this.reconstructTimer) clearInterval(this.reconstructTimer);
    if (this.newTranscriptTimer) clearTimeout(this.newTranscriptTimer);
    this.progressEmitter.dispose();
    this.subscriptions.dispose();
    await this.recorder.dispose();
    this.changeEmitter.dispose();
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  private emit(report: RecordReport): void {
    this.changeEmitter.fire(report);
  }

  private async restorePlan(
    folder: MemoryFolderRef,
    path: string,
    version: string,
    expected: string | null | undefined,
  ): Promise<{ root: WriteRoot; plan: RollbackPlan }> {
    const memoryDir = await this.memoryDirOf(folder);
    const root = await writeRootOf(this.options.home, memoryDir);
    await this.index.refresh();
    return { root, plan: await this.rollback.plan(root, [this.rollback.restoreTarget(memoryDir, path, version, expected)]) };
  }

  private async revertPlan(id: string, paths: readonly string[] | undefined): Promise<{ root: WriteRoot; plan: RollbackPlan }> {
    await this.index.refresh();
    const { memoryDir, targets } = this.rollback.revertTargets(id, paths);
    const root = await writeRootOf(this.options.home, memoryDir);
    return { root, plan: await this.rollback.plan(root, targets) };
  }

  /** A change set this app wrote (here or anywhere else): history has grown, and the views showing it must know. */
  private async announce(written: WrittenChangeSet): Promise<void> {
    if (written.changeSetId === null) return;
    await this.index.refresh();
    this.emit({ versions: written.written.length, changeSetIds: [written.changeSetId], folders: [written.root.dir] });
  }

  private async trackedFolders(fresh: boolean): Promise<readonly TrackedFolder[]> {
    if (!fresh && this.folders && this.now() - this.folders.at < FOLDERS_TTL_MS) return this.folders.list;
    const list = await trackedFolders(this.options.home);
    this.folders = { at: this.now(), list };
    return list;
  }

  /** Only folders the engine discovered itself are accepted from the renderer. */
  private async trackedFolderOf(ref: MemoryFolderRef): Promise<TrackedFolder> {
    const key = memoryFolderKey(ref);
    const find = (list: readonly TrackedFolder[]) =>
      list.find((f) => memoryFolderKey(f.ref) === key) ??
      (ref.kind === 'project'
        ? list.find((f) => f.sources.some((s) => s.configRoot === ref.configRoot && s.slug === ref.slug) && !f.isAgent)
        : undefined);
    const found = find(await this.trackedFolders(false)) ?? find(await this.trackedFolders(true));
    if (!found)
      throw new CodedError(
        'NOT_FOUND',
        ref.kind === 'project' ? `No project ${ref.slug} under ${ref.configRoot}` : 'No agent memory folder at that path',
      );
    return found;
  }

  private async memoryDirOf(ref: MemoryFolderRef): Promise<string> {
    const snapshot = await this.options.home.getHome();
    if (ref.kind === 'project') {
      const project = snapshot.projects.find((p) => p.configRoot === ref.configRoot && p.slug === ref.slug);
      if (!project) throw new CodedError('NOT_FOUND', `No project ${ref.slug} under ${ref.configRoot}`);
      return project.memoryDir;
    }
    return (await this.trackedFolderOf(ref)).memoryDir;
  }

  private folderFilter(folders: readonly TrackedFolder[], query: HistoryQuery): Set<string> | null {
    if (query.folder) {
      const key = memoryFolderKey(query.folder);
      const dirs = folders.filter((f) => memoryFolderKey(f.ref) === key).map((f) => f.memoryDir);
      if (query.folder.kind === 'agent') dirs.push(query.folder.dir);
      return new Set(dirs);
    }
    if (query.project) {
      const project = query.project;
      return new Set(
        folders
          .filter(
            (f) =>
              sameProject(f.project, project) ||
              (!f.isAgent && f.sources.some((s) => s.configRoot === project.configRoot && s.slug === project.slug)),
          )
          .map((f) => f.memoryDir),
      );
    }
    return null;
  }

  /**
   * Change sets the recorder did not note were journaled by this app's own code (an edit, an applied dream or
   * extraction job): the person saw and approved them there.
   */
  private madeByApp(set: IndexedChangeSet): boolean {
    return madeByThisApp(set.note, set.entries[0].cause);
  }

  /** The turn a version belongs to: the journal line's, or the session evidence's prompt. */
  private turnOf(entry: HistoryEntry, evidence: ChangeEvidence | null): string | null {
    if (entry.turnUuid) return entry.turnUuid;
    return evidence?.kind === 'session' ? evidence.turnUuid : null;
  }

  private reviewOf(id: string): { decision: DreamReviewRecord['decision']; time: string } | null {
    const review = this.index.review(id);
    if (review) return review;
    const set = this.index.changeSet(id);
    return set && this.madeByApp(set) ? { decision: 'kept', time: set.entries[0].time } : null;
  }

  private causeOf(set: IndexedChangeSet): ChangeCause {
    return set.note?.cause ?? set.entries[0].cause;
  }

  private timeOf(set: IndexedChangeSet): string {
    return set.note?.time ?? set.entries[0].time;
  }

  private turnOfSet(set: IndexedChangeSet): string | null {
    const note = set.note as (ChangeSetNote & { turnUuid?: string | null }) | null;
    if (note?.turnUuid) return note.turnUuid;
    for (const entry of set.entries) if (entry.turnUuid) return entry.turnUuid;
    return note?.evidence?.kind === 'session' ? note.evidence.turnUuid : null;
  }

  private async summarize(sets: readonly IndexedChangeSet[], folders: readonly TrackedFolder[]): Promise<ChangeSetSummary[]> {
    const nets = sets.map((set) => netFileChanges(set.entries));
    // Unknown bytes have no lines to count.
    const countable = nets.flat().filter((file) => file.certainty === 'exact' && file.beforeKnown);
    const stats = await this.lineStats.statsFor(countable.map((file) => ({ before: file.before, after: file.after })));
    const statsOf = new Map(countable.map((file, i) => [file, stats[i]]));
    return sets.map((set, i): ChangeSetSummary => {
      const files: FileChangeSummary[] = nets[i].map((file) => ({
        path: file.path,
        kind: file.kind,
        before: file.before,
        after: file.after,
        linesAdded: statsOf.get(file)?.linesAdded ?? 0,
        linesRemoved: statsOf.get(file)?.linesRemoved ?? 0,
        certainty: file.certainty,
        gap: file.gap,
      }));
      const note = set.note as (ChangeSetNote & { timeKnown?: boolean }) | null;
      const tracked = folders.find((f) => f.memoryDir === set.folder) ?? null;
      return {
        id: set.id,
        time: this.timeOf(set),
        recordedAt: set.entries[0].time,
        cause: this.causeOf(set),
        sessionId: set.note?.sessionId ?? null,
        turnUuid: this.turnOfSet(set),
        reconstructed: set.reconstructed,
        timeKnown: note?.timeKnown ?? true,
        memoryDir: set.folder,
        folder: tracked?.ref ?? null,
        folderLabel: tracked?.label ?? set.folder,
        firstSight: set.note?.firstSight ?? false,
        foundAtStartup: set.note?.foundAtStartup ?? false,
        summary: set.entries[0].summary,
        evidence: set.note?.evidence ?? (this.madeByApp(set) ? { kind: 'app-edit', summary: set.entries[0].summary } : null),
        files,
        totals: changeSetTotals(files),
      };
    });
  }

  private async pair(path: string, before: string | null, after: string | null): Promise<VersionPair> {
    // A side whose bytes are not known reads as absent here; the change set says it is inferred.
    const text = async (hash: string | null) => (hash === null ? null : decodeText(await this.options.store.readBlob(hash)));
    const [beforeText, afterText] = await Promise.all([text(before), text(after)]);
    const binary = (before !== null && beforeText === null) || (after !== null && afterText === null);
    return { path, before, after, beforeText, afterText, binary };
  }

  /**
   * Sessions of the dream's project written to between the previous consolidation (the dream before it, or the
   * lock's time before it moved) and this one: what Claude Code's own session gate counts.
   */
  private async sessionsBetween(dream: ChangeSetSummary, previous: ChangeSetSummary | null): Promise<number | null> {
    const tracked = (await this.trackedFolders(false)).find((f) => f.memoryDir === dream.memoryDir);
    const since = previous?.time ?? (dream.evidence?.kind === 'dream' ? dream.evidence.previousConsolidationAt : null);
    if (!tracked || !since) return null;
    let count = 0;
    for (const source of tracked.sources) {
      const sessions = await listSessions(this.options.home, { configRoot: source.configRoot, slug: source.slug }).catch(() => []);
      for (const session of sessions) {
        const last = session.lastTimestamp ?? session.mtime;
        const first = session.firstTimestamp ?? last;
        if (last > since && first < dream.time) count++;
      }
    }
    return count;
  }
}

/** Where a change's evidence sits in a transcript, for a link to that turn. */
function placeOfEvidence(evidence: ChangeEvidence | null): TranscriptPlace | null {
  if (evidence?.kind === 'session' || evidence?.kind === 'extraction') return evidence.place;
  if (evidence?.kind === 'dream') return evidence.improved;
  return null;
}
