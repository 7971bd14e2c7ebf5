import { createHash, randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join, sep } from 'node:path';
import type { ChangeEvidence, TranscriptPlace } from '../../../shared/history/historyModel';
import { mapLimit } from '../async/mapLimit';
import { readConsolidationLockStatus } from '../lock/consolidationLockStatus';
import type { LiveHome } from '../watch/liveHome';
import type { WatchedChange } from '../watch/watchedChange';
import { attributeChanges, DREAM_MAX_MS, type Attribution, type ObservedChange } from './attribution/attributeChanges';
import { LineNumbers } from './attribution/lineNumbers';
import { collectTranscriptEvents, transcriptsTouchedSince } from './attribution/transcriptEvidence';
import { madeByThisApp, mergeNotes, type ChangeSetNote } from '../changes/changeSetNotes';
import type { HistoryIndex } from './HistoryIndex';
import type { NewHistoryEntry } from '../changes/HistoryStore';
import type { JsonlLog } from '../changes/jsonlLog';
import { listMemoryFiles } from './memoryFileSet';
import { readRecorderState, writeRecorderState, type FolderState, type LockSighting, type RecorderStateData } from './recorderState';
import { attributionSources, type TrackedFolder } from './trackedFolders';
import { journalRebase } from './journalRebase';
import { VersionReader, type FileVersionRead } from './versionReader';
import { versionTransitions, type Capture, type Transition } from './versionTransitions';
import { Emitter } from '../events';

/** Watcher events are gathered this long before the changes are attributed and journaled. */
const SETTLE_MS = 1500;
/** Folders the watcher cannot see (agent memory inside projects) are compared this often. */
const RECONCILE_MS = 60_000;
/** How far back transcripts are read for the tool call that explains a change. */
const EVIDENCE_LOOKBACK_MS = 30 * 60_000;
/** Claude Code deletes transcripts older than this by default (`cleanupPeriodDays`): reading further back finds nothing. */
const TRANSCRIPT_RETENTION_MS = 30 * 86_400_000;
/** `memory_saved` lines are appended after the writes they report. */
const EVIDENCE_LOOKAHEAD_MS = 10 * 60_000;
/**
 * A file this app announced writing is left to the app's own journal line for this long: a look between its
 * write and its journal line would otherwise record the app's dream or extraction as someone else's change.
 */
const OWN_WRITE_HOLD_MS = 60_000;

export interface HistoryRecorderOptions {
  readonly index: HistoryIndex;
  readonly notes: JsonlLog<ChangeSetNote>;
  readonly historyDir: string;
  /** Kept outside the history folder, so deleting that folder leaves a trace that history once existed. */
  readonly originMarkerPath: string;
  readonly folders: () => Promise<readonly TrackedFolder[]>;
  readonly now?: () => number;
  readonly settleMs?: number;
}

export interface RecordReport {
  /** Journal lines written. */
  readonly versions: number;
  readonly changeSetIds: readonly string[];
  readonly folders: readonly string[];
}

type Mode = 'startup' | 'live';

function groupId(key: string): string {
  return `cs-${createHash('sha256').update(key).digest('hex').slice(0, 32)}`;
}

function summaryOf(attribution: Attribution, foundAtStartup: boolean): string {
  const evidence = attribution.evidence;
  switch (evidence.kind) {
    case 'session':
      return `${evidence.tool} in session ${evidence.place.sessionId.slice(0, 8)}`;
    case 'extraction':
      return `Memory extraction after a turn of session ${evidence.place.sessionId.slice(0, 8)}`;
    case 'dream':
      return 'Dream (memory consolidation)';
    default:
      return foundAtStartup ? 'Changed while the app was closed' : 'Changed outside Claude Code and this app';
  }
}

function sameLock(a: LockSighting | null, b: LockSighting | null): boolean {
  return a === b || (a !== null && b !== null && Math.abs(a.mtimeMs - b.mtimeMs) < 1 && a.holderPid === b.holderPid);
}

/**
 * Takes a version of every memory file on first sight, on every watcher event and at start-up (finding
 * what changed while the app was closed), attributes each change and journals it as part of a change set.
 * Blobs are stored before the journal names them, and the journal before the notes that explain it, so a
 * crash at any point leaves history consistent. All recording runs one at a time.
 */
export class HistoryRecorder {
  private state: RecorderStateData | null = null;
  private running: Promise<unknown> = Promise.resolve();
  private readonly versions: VersionReader;
  private readonly captures = new Map<string, Capture[]>();
  private readonly lockMoves = new Map<string, LockSighting>();
  private readonly dirty = new Set<string>();
  private settleTimer: NodeJS.Timeout | null = null;
  private reconcileTimer: NodeJS.Timeout | null = null;
  private readonly lines = new LineNumbers();
  private readonly recordEmitter = new Emitter<RecordReport>();
  private folderCache: readonly TrackedFolder[] = [];
  private disposed = false;
  /** Absolute paths this app announced writing, and when. */
  private readonly ownWrites = new Map<string, number>();

  constructor(private readonly options: HistoryRecorderOptions) {
    this.versions = new VersionReader(options.index.store);
  }

  private get statePath(): string {
    return join(this.options.historyDir, 'recorder-state.json');
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  onDidRecord(listener: (report: RecordReport) => void): () => void {
    return this.recordEmitter.event(listener);
  }

  /** Compares every memory folder with history and records what changed; `startup` marks changes made while closed. */
  recordAll(mode: Mode = 'startup'): Promise<RecordReport> {
    return this.serially(async () => {
      this.folderCache = await this.options.folders();
      return this.recordFolders(this.folderCache, mode);
    });
  }

  /** Whether history was found deleted and rebuilt from the files as they were (earlier history is gone). */
  async rebuiltAt(): Promise<string | null> {
    return (await this.loadState()).rebuiltAt;
  }

  /**
   * Follows the live watcher: versions are caught as the events arrive, and recorded once they settle.
   * Folders the watcher does not cover are compared on a timer.
   */
  follow(live: LiveHome): () => void {
    const unsubscribe = live.onDidChange((changes) => {
      for (const change of changes) void this.capture(change);
    });
    const unsubscribeOwn = live.onDidExpectOwnWrite((path) => this.noteOwnWrite(path));
    this.reconcileTimer = setInterval(() => void this.recordAll('live').catch(() => undefined), RECONCILE_MS);
    this.reconcileTimer.unref?.();
    return () => {
      unsubscribe();
      unsubscribeOwn();
      if (this.reconcileTimer) clearInterval(this.reconcileTimer);
      this.reconcileTimer = null;
    };
  }

  /** This app is about to write the file: its own journal line records it, so a look in between leaves it alone. */
  noteOwnWrite(absolutePath: string): void {
    this.ownWrites.set(absolutePath, this.now());
  }

  private heldForOwnWrite(paths: readonly string[]): boolean {
    const now = this.now();
    for (const [path, at] of this.ownWrites) if (now - at > OWN_WRITE_HOLD_MS) this.ownWrites.delete(path);
    return paths.some((path) => this.ownWrites.has(path));
  }

  /** Waits for any recording in progress and any settled events (tests, shutdown). */
  async flush(): Promise<void> {
    if (this.settleTimer) {
      clearTimeout(this.settleTimer);
      this.settleTimer = null;
      await this.recordDirty();
    }
    await this.running;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    if (this.reconcileTimer) clearInterval(this.reconcileTimer);
    await this.flush().catch(() => undefined);
    this.recordEmitter.dispose();
  }

  /** Runs work that must not overlap a recording (reconstruction reads the journal's first versions). */
  exclusively<T>(work: () => Promise<T>): Promise<T> {
    return this.serially(work);
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const next = this.running.then(work, work);
    this.running = next.catch(() => undefined);
    return next;
  }

  private folderOf(path: string): TrackedFolder | null {
    let best: TrackedFolder | null = null;
    for (const folder of this.folderCache) {
      if (!path.startsWith(folder.memoryDir + sep)) continue;
      if (!best || folder.memoryDir.length > best.memoryDir.length) best = folder;
    }
    return best;
  }

  private async capture(change: WatchedChange): Promise<void> {
    if (this.disposed) return;
    let memoryDir: string;
    if (change.kind === 'consolidation-lock') {
      memoryDir = change.memoryDir;
      const lock = await this.readLock(memoryDir);
      if (lock) this.lockMoves.set(memoryDir, lock);
    } else {
      const folder = change.kind === 'memory-file' ? null : this.folderOf(change.path);
      memoryDir = change.kind === 'memory-file' ? change.memoryDir : (folder?.memoryDir ?? '');
      if (!memoryDir || !change.path.toLowerCase().endsWith('.md')) return;
      const path = change.path
        .slice(memoryDir.length + 1)
        .split(sep)
        .join('/');
      const list = this.captures.get(memoryDir) ?? [];
      this.captures.set(memoryDir, list);
      if (change.event === 'unlink') list.push({ path, hash: null, text: null, size: null, timeMs: this.now() });
      else if (change.event === 'add' || change.event === 'change') {
        const version = await this.versions.read(change.path);
        if (version) list.push({ path, hash: version.hash, text: version.text, size: version.size, timeMs: version.mtimeMs });
      }
    }
    this.dirty.add(memoryDir);
    this.scheduleSettle();
  }

  /** Folders another watcher saw change (agent memory inside projects): compared once the events settle. */
  foldersChanged(memoryDirs: readonly string[]): void {
    if (this.disposed) return;
    for (const dir of memoryDirs) this.dirty.add(dir);
    this.scheduleSettle();
  }

  private scheduleSettle(): void {
    if (this.settleTimer) clearTimeout(this.settleTimer);
    this.settleTimer = setTimeout(() => {
      this.settleTimer = null;
      void this.recordDirty().catch(() => undefined);
    }, this.options.settleMs ?? SETTLE_MS);
  }

  private recordDirty(): Promise<RecordReport> {
    return this.serially(async () => {
      const dirs = new Set(this.dirty);
      this.dirty.clear();
      if (this.folderCache.length === 0 || [...dirs].some((dir) => !this.folderCache.some((f) => f.memoryDir === dir)))
        this.folderCache = await this.options.folders();
      return this.recordFolders(
        this.folderCache.filter((folder) => dirs.has(folder.memoryDir)),
        'live',
      );
    });
  }

  private async readLock(memoryDir: string): Promise<LockSighting | null> {
    const status = await readConsolidationLockStatus(memoryDir);
    if (!status.exists || status.lastConsolidatedAt === null) return null;
    return { mtimeMs: Date.parse(status.lastConsolidatedAt), holderPid: status.holderPid };
  }

  private async loadState(): Promise<RecorderStateData> {
    this.state ??= await readRecorderState(this.statePath);
    return this.state;
  }

  private async recordFolders(folders: readonly TrackedFolder[], mode: Mode): Promise<RecordReport> {
    const index = this.options.index;
    await index.refresh();
    const state = await this.loadState();
    // Before history's very first look (or its rebuild) files already there are where history starts; after
    // it, a file in a folder never seen before is a change like any other (a new project's first memory).
    const started = index.versionCount > 0 || Object.keys(state.folders).length > 0;
    const rebuilding = !started && (await this.historyExistedBefore());
    const folderStates: Record<string, FolderState> = { ...state.folders };
    const entries: NewHistoryEntry[] = [];
    const notes: ChangeSetNote[] = [];
    const touched: string[] = [];
    for (const folder of folders) {
      const result = await this.recordFolder(folder, mode, state.folders[folder.memoryDir] ?? null, rebuilding, started);
      if (!result) continue;
      folderStates[folder.memoryDir] = result.state;
      entries.push(...result.entries);
      notes.push(...result.notes);
      if (result.entries.length > 0) touched.push(folder.memoryDir);
    }
    // The app's own edits journal themselves right after writing; never record one of them a second time.
    await index.refresh();
    const toAppend = journalRebase(entries, (folder, path) => index.latest(folder, path)?.after ?? null);
    const kept = new Set(toAppend.map((entry) => entry.changeSetId));
    // Blobs are already stored; now the journal, then the notes that explain it.
    if (toAppend.length > 0) await index.store.append(toAppend);
    await this.options.notes.append(notes.filter((note) => kept.has(note.changeSetId)));
    const rebuiltAt = rebuilding && toAppend.length > 0 ? new Date(this.now()).toISOString() : state.rebuiltAt;
    this.state = { v: 1, folders: folderStates, rebuiltAt };
    await writeRecorderState(this.statePath, this.state);
    // History starts with the first folder it sees: a look at a home with no memory yet (an empty home before the
    // demo is opened) must not make the first real record look like a rebuild of deleted history.
    if (Object.keys(folderStates).length > 0) await this.markOrigin();
    const report: RecordReport = {
      versions: toAppend.length,
      changeSetIds: [...kept],
      folders: touched.filter((dir) => toAppend.some((entry) => entry.folder === dir)),
    };
    if (toAppend.length > 0) {
      await index.refresh();
      this.recordEmitter.fire(report);
    }
    return report;
  }

  /** The marker outside the history folder: history existed once, so an empty store means it was deleted. */
  private async historyExistedBefore(): Promise<boolean> {
    return fs
      .stat(this.options.originMarkerPath)
      .then(() => true)
      .catch(() => false);
  }

  private async markOrigin(): Promise<void> {
    if (await this.historyExistedBefore()) return;
    await fs
      .writeFile(this.options.originMarkerPath, `${JSON.stringify({ createdAt: new Date(this.now()).toISOString() })}\n`, { flag: 'wx' })
      .catch(() => undefined);
  }

  /** The sequence of versions each file went through since history last saw it, from captures and the file now. */
  private async transitions(folder: TrackedFolder, captured: readonly Capture[]): Promise<{ list: Transition[]; readable: boolean }> {
    const index = this.options.index;
    const listing = await listMemoryFiles(folder.memoryDir);
    if (listing.unreadable.includes('')) return { list: [], readable: false };
    const latest = index.latestInFolder(folder.memoryDir);
    const current = new Map<string, FileVersionRead>();
    // Several at once: each version read is stored durably, and the disk takes several syncs at a time.
    const read = await mapLimit(listing.files, 8, (file) => this.versions.read(file.absolutePath));
    listing.files.forEach((file, i) => {
      const version = read[i];
      if (version) current.set(file.path, version);
    });
    const list = versionTransitions({
      latest: new Map([...latest].map(([path, entry]) => [path, entry.after])),
      captured,
      current,
      unreadable: listing.unreadable,
      now: this.now(),
    });
    return { list, readable: true };
  }

  private async recordFolder(
    folder: TrackedFolder,
    mode: Mode,
    previous: FolderState | null,
    rebuilding: boolean,
    started: boolean,
  ): Promise<{ state: FolderState; entries: NewHistoryEntry[]; notes: ChangeSetNote[] } | null> {
    const captured = this.captures.get(folder.memoryDir) ?? [];
    this.captures.delete(folder.memoryDir);
    const found = await this.transitions(folder, captured);
    if (!found.readable) return null;
    let { list } = found;
    const now = this.now();
    const lock = this.lockMoves.get(folder.memoryDir) ?? (await this.readLock(folder.memoryDir));
    this.lockMoves.delete(folder.memoryDir);
    let dream = previous?.dream && previous.dream.takenAtMs + DREAM_MAX_MS > now ? previous.dream : null;
    // The lock taken by this process is this app applying its own job, which journals itself.
    if (previous && lock && lock.holderPid !== process.pid && (!previous.lock || lock.mtimeMs > previous.lock.mtimeMs + 1))
      dream = { takenAtMs: lock.mtimeMs, holderPid: lock.holderPid, lastChangeMs: null, previousMs: previous.lock?.mtimeMs ?? null };
    // This app's own dream took the lock and journaled its change set itself: nothing of it is left to explain.
    if (dream && this.appDreamSince(folder.memoryDir, dream.takenAtMs)) dream = null;
    const state: FolderState = { lastLookMs: now, lock: sameLock(previous?.lock ?? null, lock) ? (previous?.lock ?? null) : lock, dream };
    if (list.length === 0) return { state, entries: [], notes: [] };

    const firstSight = !started && previous === null && !this.options.index.knowsFolder(folder.memoryDir);
    if (firstSight) return { state, ...this.firstSightRecords(folder, list, rebuilding) };

    const sinceMs = previous?.lastLookMs ?? this.lastRecordedMs(folder.memoryDir);
    const aliases = await aliasesOf(folder.memoryDir);
    const spellings = (path: string) => aliases.map((dir) => join(dir, ...path.split('/')));
    // The app's own writes in flight: their journal lines come from the app; the next look sees what is left.
    const held = new Set(list.filter((t) => this.heldForOwnWrite(spellings(t.path))).map((t) => t.path));
    if (held.size > 0) list = list.filter((t) => !held.has(t.path));
    if (list.length === 0) return { state, entries: [], notes: [] };
    const changes: ObservedChange[] = [];
    for (const t of list)
      changes.push({
        path: t.path,
        absolutePaths: spellings(t.path),
        before: t.before,
        after: t.after,
        afterText: t.after === null ? null : await this.versions.textOf({ hash: t.after, text: t.afterText }),
        timeMs: t.timeMs,
        timeKnown: t.timeKnown,
        sinceMs,
      });
    const earliest = Math.min(...changes.map((c) => (c.timeKnown ? c.timeMs : c.sinceMs)));
    const window = { fromMs: Math.max(earliest - EVIDENCE_LOOKBACK_MS, now - TRANSCRIPT_RETENTION_MS), toMs: now + EVIDENCE_LOOKAHEAD_MS };
    const files = await transcriptsTouchedSince(await attributionSources(folder, this.folderCache), window.fromMs);
    const events = await collectTranscriptEvents(files, window);
    const attributed = attributeChanges({ memoryDir: folder.memoryDir, extractionPossible: !folder.isAgent, changes, dream, events });
    const foundAtStartup = mode === 'startup';
    const externalId = randomUUID();
    const entries: NewHistoryEntry[] = [];
    const notes = new Map<string, ChangeSetNote>();
    for (let i = 0; i < list.length; i++) {
      const transition = list[i];
      const attribution = attributed.attributions[i];
      const changeSetId = attribution.groupKey === 'external' ? externalId : groupId(attribution.groupKey);
      entries.push({
        folder: folder.memoryDir,
        path: transition.path,
        before: transition.before,
        after: transition.after,
        size: transition.size,
        cause: attribution.cause,
        changeSetId,
        summary: summaryOf(attribution, foundAtStartup),
      });
      const note: ChangeSetNote = {
        v: 1,
        changeSetId,
        time: new Date(transition.timeKnown ? transition.timeMs : now).toISOString(),
        cause: attribution.cause,
        sessionId: attribution.sessionId,
        firstSight: false,
        foundAtStartup,
        evidence: await this.withLine(attribution),
      };
      const known = notes.get(changeSetId);
      notes.set(changeSetId, known ? mergeNotes(known, note) : note);
    }
    return { state: { ...state, dream: attributed.dream }, entries, notes: [...notes.values()] };
  }

  private firstSightRecords(
    folder: TrackedFolder,
    list: readonly Transition[],
    rebuilt: boolean,
  ): { entries: NewHistoryEntry[]; notes: ChangeSetNote[] } {
    const changeSetId = randomUUID();
    const present = list.filter((t) => t.after !== null);
    const entries = present.map((t): NewHistoryEntry => ({
      folder: folder.memoryDir,
      path: t.path,
      before: null,
      after: t.after,
      size: t.size,
      cause: 'external',
      changeSetId,
      summary: rebuilt ? 'First seen after history was rebuilt' : 'First seen',
    }));
    const note: ChangeSetNote = {
      v: 1,
      changeSetId,
      time: new Date(this.now()).toISOString(),
      cause: 'external',
      sessionId: null,
      firstSight: true,
      foundAtStartup: false,
      evidence: { kind: 'first-sight', rebuilt },
    };
    return { entries, notes: entries.length > 0 ? [note] : [] };
  }

  /** Whether a dream change set the recorder did not write itself (a dream job of this app) landed since `sinceMs`. */
  private appDreamSince(memoryDir: string, sinceMs: number): boolean {
    for (const entry of this.options.index.latestInFolder(memoryDir).values()) {
      if (entry.cause !== 'dream' || Date.parse(entry.time) < sinceMs - 1000) continue;
      if (madeByThisApp(this.options.index.changeSet(entry.changeSetId)?.note ?? null, entry.cause)) return true;
    }
    return false;
  }

  /** The newest journal time of a folder: where to look back from when the recorder's own state was lost. */
  private lastRecordedMs(memoryDir: string): number {
    let newest = 0;
    for (const entry of this.options.index.latestInFolder(memoryDir).values()) newest = Math.max(newest, Date.parse(entry.time) || 0);
    return newest;
  }

  /** Fills in the transcript line of the evidence, for opening the viewer at that turn. */
  private async withLine(attribution: Attribution): Promise<ChangeEvidence> {
    const { evidence, source } = attribution;
    if (!source) return evidence;
    const locate = async (place: TranscriptPlace): Promise<TranscriptPlace> =>
      place.agentId !== null ? place : { ...place, line: await this.lines.lineAt(source.path, source.offset) };
    switch (evidence.kind) {
      case 'session':
      case 'extraction':
        return { ...evidence, place: await locate(evidence.place) };
      case 'dream':
        return evidence.improved ? { ...evidence, improved: await locate(evidence.improved) } : evidence;
      default:
        return evidence;
    }
  }
}

/** The folder as configured and as the file system resolves it: transcripts name files by either. */
async function aliasesOf(memoryDir: string): Promise<string[]> {
  const real = await fs.realpath(memoryDir).catch(() => memoryDir);
  return real === memoryDir ? [memoryDir] : [memoryDir, real];
}
