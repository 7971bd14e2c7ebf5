import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { ReconstructionStatus } from '../../../../shared/history/historyModel';
import { contentHash } from '../../fs/contentHash';
import { mapLimit } from '../../async/mapLimit';
import { readConsolidationLockStatus } from '../../lock/consolidationLockStatus';
import { frontmatterField, parseFrontmatter } from '../../memory/frontmatter';
import type { HistoryIndex } from '../HistoryIndex';
import type { HistoryEntry } from '../../changes/HistoryStore';
import { listMemoryFiles } from '../memoryFileSet';
import type { TrackedFolder } from '../trackedFolders';
import { decodeText } from '../versionText';
import { fileKey, observationsFrom, type ObservationIndex } from './evidenceObservations';
import { EMPTY_CARRY, EvidenceScanner, type ScanContext } from './evidenceScanner';
import { EvidenceStore, type ScanStateData, type TranscriptReadState } from './evidenceStore';
import type { EvidenceRecord } from './memoryEvidence';
import { MemoryPathResolver } from './memoryPathResolver';
import { SessionPrompts } from './sessionPrompts';
import type { ReconstructedLog, ReconstructedNote } from './reconstructedLog';
import type { TranscriptFeed, TranscriptProject, TranscriptRef } from './transcriptFeed';
import { buildVersionChain, type Anchor, type ChainVersion, type FrontmatterStamp, type KnownText } from './versionChains';
import { Emitter } from '../../events';
import { isUuid } from '../../../../shared/claude/sessionIds';

export interface ReconstructorOptions {
  readonly index: HistoryIndex;
  /** Where the reconstructed history is kept (the index reads it from there too). */
  readonly log: ReconstructedLog;
  readonly historyDir: string;
  readonly feed: TranscriptFeed;
  readonly folders: () => Promise<readonly TrackedFolder[]>;
  readonly now?: () => number;
}

export interface ReconstructionReport {
  /** Evidence records copied out of transcripts in this run. */
  readonly newEvidence: number;
  /** Whether the reconstructed history was built again (new evidence, or history's first versions moved). */
  readonly rebuilt: boolean;
  readonly changeSetIds: readonly string[];
  readonly folders: readonly string[];
}

/** Progress is reported at most this often. */
const PROGRESS_MS = 200;
/**
 * A scan appends its evidence to the store this many records at a time instead of all at its end: a first scan of the
 * large bench home holds 8 MB of records otherwise. Records appended before a scan is stopped are found again with
 * the same ids on the next one (the store keeps each id once), since the read positions are saved only at the end.
 */
const EVIDENCE_APPEND_BATCH = 2000;

function stampOf(text: string): FrontmatterStamp | null {
  const { data } = parseFrontmatter(text);
  const origin = frontmatterField(data, 'originSessionId');
  if (!origin || !isUuid(origin)) return null;
  const metadata = data.metadata as Record<string, unknown> | undefined;
  const raw: unknown = data.modified ?? (metadata && typeof metadata === 'object' ? metadata.modified : undefined);
  const modified = raw instanceof Date ? raw.toISOString() : typeof raw === 'string' ? raw : null;
  const modifiedMs = modified === null ? null : Date.parse(modified);
  return {
    originSessionId: origin.toLowerCase(),
    modified,
    modifiedMs: modifiedMs === null || Number.isNaN(modifiedMs) ? null : modifiedMs,
  };
}

function groupId(key: string): string {
  return `rc-${createHash('sha256').update(key).digest('hex').slice(0, 32)}`;
}

/** Where history begins to record a folder itself: its first-sight change set, and each file's first version in it. */
interface FolderStart {
  readonly folder: TrackedFolder;
  readonly startMs: number;
  /** False when the journal has nothing of the folder yet (then `startMs` is now). */
  readonly recorded: boolean;
  /** The files of the first sight, by path: their hash then. */
  readonly files: ReadonlyMap<string, string | null>;
}

/**
 * Reconstructs what happened to each memory file before history recorded it itself, from what Claude Code
 * left behind, and keeps it in the app's data folder. Runs in two steps: copying new evidence out of the
 * transcripts (only the bytes appended since the last run are read), then, when evidence or history's first
 * versions changed, building every file's version chain again and replacing the reconstructed history.
 * Writes nothing under the config root.
 */
export class ProvenanceReconstructor {
  private readonly store: EvidenceStore;
  private readonly log: ReconstructedLog;
  private current: ReconstructionStatus = {
    state: 'idle',
    reconstructedFrom: null,
    versionCount: 0,
    changeSetCount: 0,
    transcriptsRead: 0,
    bytesRead: 0,
    bytesTotal: 0,
    error: null,
  };
  private readonly progressEmitter = new Emitter<ReconstructionStatus>();

  constructor(private readonly options: ReconstructorOptions) {
    this.store = new EvidenceStore(join(options.historyDir, 'provenance'));
    this.log = options.log;
  }

  status(): ReconstructionStatus {
    return this.current;
  }

  onDidProgress(listener: (status: ReconstructionStatus) => void): () => void {
    return this.progressEmitter.event(listener);
  }

  private report(patch: Partial<ReconstructionStatus>): void {
    this.current = { ...this.current, ...patch };
    this.progressEmitter.fire(this.current);
  }

  /** One run: new evidence, then the chains when anything they are built from changed. */
  async run(signal?: AbortSignal): Promise<ReconstructionReport> {
    this.report({ state: 'running', error: null, transcriptsRead: 0, bytesRead: 0, bytesTotal: 0 });
    try {
      const folders = await this.options.folders();
      const resolver = await this.resolverFor(folders);
      const newEvidence = await this.scan(folders, resolver, signal);
      signal?.throwIfAborted();
      const built = await this.build(folders, resolver, signal);
      const history = await this.log.load();
      const times = history.notes.map((note) => note.time).sort();
      this.report({
        state: 'done',
        reconstructedFrom: times[0] ?? null,
        versionCount: history.entries.length,
        changeSetCount: history.notes.length,
      });
      return { newEvidence, ...built };
    } catch (error) {
      this.report({ state: signal?.aborted ? 'idle' : 'failed', error: signal?.aborted ? null : (error as Error).message });
      throw error;
    }
  }

  private async resolverFor(folders: readonly TrackedFolder[]): Promise<MemoryPathResolver> {
    const withAliases = await mapLimit(folders, 8, async (folder) => {
      const real = await fs.realpath(folder.memoryDir).catch(() => folder.memoryDir);
      return {
        memoryDir: folder.memoryDir,
        aliases: real === folder.memoryDir ? [] : [real],
        configRoot: folder.project?.configRoot ?? null,
      };
    });
    return new MemoryPathResolver(withAliases);
  }

  // ---------------------------------------------------------------------------------------------------------
  // Step 1: evidence

  private async scan(folders: readonly TrackedFolder[], resolver: MemoryPathResolver, signal?: AbortSignal): Promise<number> {
    const state = await this.store.readState();
    const files: Record<string, TranscriptReadState> = { ...state.files };
    const projects = new Map<string, TranscriptProject>();
    for (const folder of folders) for (const source of folder.sources) projects.set(source.dir, source);
    const listed = await this.options.feed.list([...projects.values()]);
    const prompts = new SessionPrompts(listed);
    const refs = prompts.readingOrder(listed);

    const starts = new Map<string, { offset: number; lines: number; carry: TranscriptReadState['carry'] }>();
    let bytesTotal = 0;
    for (const ref of refs) {
      const start = await this.startOf(ref, files[ref.path]);
      starts.set(ref.path, start);
      bytesTotal += Math.max(0, ref.size - start.offset);
    }
    this.report({ bytesTotal });

    const context: ScanContext = {
      isMemoryPath: (path, cwd) => resolver.looksLikeMemory(path, cwd),
      extraNeedles: folders
        .filter((f) => !f.memoryDir.includes('memory'))
        .map((f) => Buffer.from(JSON.stringify(f.memoryDir).slice(1, -1))),
      onPrompt: (sessionId, uuid, timeMs) => prompts.add(sessionId, { uuid, timeMs }),
      parentTurnAt: (sessionId, timeMs) => {
        const found = prompts.latestAtOrBefore(sessionId, timeMs);
        if (found) return found.uuid;
        const parent = refs.find((r) => r.agentId === null && r.sessionId === sessionId);
        const carried = parent ? files[parent.path]?.carry.lastPrompt : null;
        return carried && carried.timeMs <= timeMs ? carried.uuid : null;
      },
    };

    const fresh: EvidenceRecord[] = [];
    let appended = 0;
    let bytesRead = 0;
    let transcriptsRead = 0;
    let reportedAt = 0;
    for (const ref of refs) {
      signal?.throwIfAborted();
      const start = starts.get(ref.path) ?? { offset: 0, lines: 0, carry: EMPTY_CARRY };
      if (ref.size <= start.offset) {
        prompts.done(ref);
        continue;
      }
      const scanner = new EvidenceScanner(ref, start.carry, context);
      let read;
      try {
        read = await this.options.feed.readLines(ref, start, (line, n) => scanner.line(line, n), signal);
      } catch (error) {
        if (signal?.aborted) throw error;
        continue; // Gone or unreadable since it was listed: it is read next time, if it is still there.
      } finally {
        prompts.done(ref);
      }
      for (const request of scanner.backupRequests) {
        const bytes = await this.options.feed.readBackup(ref.configRoot, request.source.sessionId, request.backupFileName as string);
        const text = bytes === null ? null : decodeText(bytes);
        fresh.push({ ...request, text, unreadable: text === null });
      }
      fresh.push(...scanner.records);
      if (fresh.length >= EVIDENCE_APPEND_BATCH) {
        await this.store.log.append(fresh);
        appended += fresh.length;
        fresh.length = 0;
      }
      files[ref.path] = { offset: read.offset, lines: read.lines, tail: read.tail.toString('base64'), carry: scanner.carry() };
      bytesRead += read.offset - start.offset;
      transcriptsRead++;
      const now = Date.now();
      if (now - reportedAt > PROGRESS_MS) {
        reportedAt = now;
        this.report({ bytesRead, transcriptsRead });
      }
    }
    this.report({ bytesRead, transcriptsRead });
    const locks = await this.lockSightings(folders, state);
    // The evidence is durable before the read positions that skip it next time.
    await this.store.log.append(fresh);
    await this.store.writeState({ v: 1, files, locks });
    return appended + fresh.length;
  }

  /** Where to read a transcript from: where the last read stopped, unless the file was rewritten since. */
  private async startOf(ref: TranscriptRef, saved: TranscriptReadState | undefined) {
    const fromStart = { offset: 0, lines: 0, carry: EMPTY_CARRY };
    if (!saved || ref.size < saved.offset) return fromStart;
    if (saved.offset > 0 && saved.tail) {
      const expected = Buffer.from(saved.tail, 'base64');
      const tail = await this.options.feed.readTail(ref, saved.offset, expected.length);
      if (!tail?.equals(expected)) return fromStart;
    }
    return { offset: saved.offset, lines: saved.lines, carry: saved.carry };
  }

  /** Each project folder's `.consolidate-lock` mtime, kept when new: every one marks a dream's start. */
  private async lockSightings(folders: readonly TrackedFolder[], state: ScanStateData): Promise<Record<string, number[]>> {
    const locks: Record<string, number[]> = Object.fromEntries(Object.entries(state.locks).map(([dir, times]) => [dir, [...times]]));
    for (const folder of folders) {
      if (folder.isAgent) continue;
      const lock = await readConsolidationLockStatus(folder.memoryDir).catch(() => null);
      const at = lock?.lastConsolidatedAt ? Date.parse(lock.lastConsolidatedAt) : NaN;
      if (Number.isNaN(at)) continue;
      const times = locks[folder.memoryDir] ?? [];
      if (!times.some((t) => Math.abs(t - at) < 1)) times.push(at);
      locks[folder.memoryDir] = times.sort((a, b) => a - b);
    }
    return locks;
  }

  // ---------------------------------------------------------------------------------------------------------
  // Step 2: chains

  private async build(
    folders: readonly TrackedFolder[],
    resolver: MemoryPathResolver,
    signal?: AbortSignal,
  ): Promise<Omit<ReconstructionReport, 'newEvidence'>> {
    const { index } = this.options;
    await index.refresh();
    const starts = await mapLimit(folders, 4, (folder) => this.folderStart(folder));
    const records = await this.store.records();
    const state = await this.store.readState();
    const buildKey = createHash('sha256')
      .update(
        JSON.stringify([
          records.length,
          records[records.length - 1]?.id ?? '',
          // A folder the journal has nothing of starts now, whenever that is: only its files say what changed.
          starts.map((s) => [s.folder.memoryDir, s.recorded ? s.startMs : 'not recorded yet', [...s.files]]),
          state.locks,
        ]),
      )
      .digest('hex');
    const previous = await this.log.load();
    if (previous.buildKey === buildKey) return { rebuilt: false, changeSetIds: [], folders: [] };

    const observed = observationsFrom(records, {
      resolver,
      projectMemoryDir: (configRoot, slug) =>
        folders.find((f) => !f.isAgent && f.project?.configRoot === configRoot && f.project.slug === slug)?.memoryDir ??
        folders.find((f) => !f.isAgent && f.sources.some((s) => s.configRoot === configRoot && s.slug === slug))?.memoryDir ??
        null,
    });
    const chains: { folder: TrackedFolder; version: ChainVersion }[] = [];
    for (const start of starts) {
      signal?.throwIfAborted();
      for (const version of await this.chainsOf(start, observed, state.locks[start.folder.memoryDir] ?? []))
        chains.push({ folder: start.folder, version });
    }
    const blobs = await this.storeTexts(chains.map((c) => c.version));
    const entries: HistoryEntry[] = [];
    const notes = new Map<string, ReconstructedNote>();
    const touched = new Set<string>();
    for (const { folder, version } of chains) {
      const entry = entryOf(folder, version, blobs);
      entries.push(entry);
      touched.add(folder.memoryDir);
      const note = noteOf(entry.changeSetId, version);
      const known = notes.get(entry.changeSetId);
      notes.set(entry.changeSetId, known ? mergeReconstructedNotes(known, note) : note);
    }
    entries.sort((a, b) => a.time.localeCompare(b.time));
    await this.log.replace({ entries, notes: [...notes.values()], buildKey, builtAt: new Date(this.now()).toISOString() });
    await index.refresh();
    return { rebuilt: true, changeSetIds: [...notes.keys()], folders: [...touched] };
  }

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  /**
   * Where the journal begins to record a folder itself, and each file it had then: its first sight (the files
   * already there when history started); for a folder the journal has nothing of yet (a deleted project's
   * memory, known only from its transcripts), now and its files now; for a folder that appeared after history
   * started, the moment its first file was recorded (it had none before).
   */
  private async folderStart(folder: TrackedFolder): Promise<FolderStart> {
    const { index } = this.options;
    let first: { startMs: number; files: Map<string, string | null> } | null = null;
    let earliestMs = Number.POSITIVE_INFINITY;
    for (const id of index.changeSetIdsNewestFirst()) {
      const set = index.changeSet(id);
      if (!set || set.reconstructed || set.folder !== folder.memoryDir) continue;
      const timeMs = Date.parse(set.note?.time ?? set.entries[0].time);
      earliestMs = Math.min(earliestMs, timeMs);
      if (!set.note?.firstSight || (first && first.startMs <= timeMs)) continue;
      first = { startMs: timeMs, files: new Map(set.entries.map((entry) => [entry.path, entry.after])) };
    }
    if (first) return { folder, ...first, recorded: true };
    if (Number.isFinite(earliestMs)) return { folder, startMs: earliestMs, files: new Map(), recorded: true };
    const files = new Map<string, string | null>();
    for (const file of (await listMemoryFiles(folder.memoryDir)).files) {
      const bytes = await fs.readFile(file.absolutePath).catch(() => null);
      if (bytes) files.set(file.path, await index.store.putBlob(bytes));
    }
    return { folder, startMs: this.now(), files, recorded: false };
  }

  private async chainsOf(start: FolderStart, observed: ObservationIndex, lockTimes: readonly number[]): Promise<ChainVersion[]> {
    const { memoryDir } = start.folder;
    const paths = new Set(start.files.keys());
    // A file the journal first saw after the folder's first sight was recorded from its start: nothing to add.
    for (const file of observed.files.values())
      if (file.memoryDir === memoryDir && this.options.index.versions(memoryDir, file.path).every((v) => this.isReconstructed(v)))
        paths.add(file.path);
    const onDisk = new Map((await listMemoryFiles(memoryDir)).files.map((file) => [file.path, file]));
    const slugTail = memoryDir.replace(/\\/g, '/').split('/').slice(-2).join('/');
    const removals = observed.removals.filter((r) => r.command.includes(slugTail) || r.command.includes(memoryDir.replace(/\\/g, '/')));
    const versions: ChainVersion[] = [];
    const sorted = [...paths].sort();
    const anchors = await mapLimit(sorted, 16, (path) =>
      this.anchorOf(start, path, onDisk.get(path)?.absolutePath ?? null, onDisk.get(path)?.mtimeMs ?? null),
    );
    for (const [i, path] of sorted.entries()) {
      const anchor = anchors[i];
      if (!anchor) continue;
      const observations = (observed.files.get(fileKey(memoryDir, path))?.observations ?? []).filter((o) => o.timeMs < start.startMs);
      versions.push(
        ...buildVersionChain({
          memoryDir,
          path,
          observations,
          removals,
          anchor,
          stampOf,
          lockTimes: start.folder.isAgent ? [] : lockTimes.filter((t) => t < start.startMs),
        }),
      );
    }
    return versions;
  }

  private isReconstructed(entry: HistoryEntry): boolean {
    return this.options.index.changeSet(entry.changeSetId)?.reconstructed ?? false;
  }

  /** The file at its first sight (absent when it was not there), with its mtime when it still has those bytes. */
  private async anchorOf(start: FolderStart, path: string, absolutePath: string | null, mtimeMs: number | null): Promise<Anchor | null> {
    const hash = start.files.get(path) ?? null;
    if (hash === null) return { text: null, timeMs: start.startMs, mtimeMs: null };
    let text: string | null;
    try {
      text = decodeText(await this.options.index.store.readBlob(hash));
    } catch {
      return null;
    }
    // Not text (or too large to show): nothing to reconstruct it from.
    if (text === null) return null;
    let sameOnDisk = false;
    if (absolutePath)
      sameOnDisk = await fs.readFile(absolutePath).then(
        (bytes) => contentHash(bytes) === hash,
        () => false,
      );
    return { text, timeMs: start.startMs, mtimeMs: sameOnDisk ? mtimeMs : null };
  }

  /** Every known version's bytes as a blob (durable before the reconstructed history names them), by text. */
  private async storeTexts(versions: readonly ChainVersion[]): Promise<Map<string, string>> {
    const texts = new Set<string>();
    for (const version of versions)
      for (const side of [version.before, version.after]) if (side.known && side.text !== null) texts.add(side.text);
    const list = [...texts];
    const hashes = await mapLimit(list, 8, (text) => this.options.index.store.putBlob(Buffer.from(text, 'utf8')));
    return new Map(list.map((text, i) => [text, hashes[i]]));
  }
}

function hashOf(text: KnownText, blobs: ReadonlyMap<string, string>): string | null {
  return text.known && text.text !== null ? (blobs.get(text.text) ?? null) : null;
}

function entryOf(folder: TrackedFolder, version: ChainVersion, blobs: ReadonlyMap<string, string>): HistoryEntry {
  const after = hashOf(version.after, blobs);
  return {
    v: 1,
    time: new Date(version.timeMs).toISOString(),
    folder: folder.memoryDir,
    path: version.path,
    before: hashOf(version.before, blobs),
    after,
    size: version.after.known && version.after.text !== null ? Buffer.byteLength(version.after.text, 'utf8') : null,
    cause: version.origin.cause,
    // One event may touch several folders (a turn writing project and agent memory): one change set per folder.
    changeSetId: groupId(`${folder.memoryDir}\0${version.origin.groupKey}`),
    summary: version.origin.summary,
    kind: version.kind,
    turnUuid: version.origin.turnUuid,
    ...(version.after.known ? {} : { certainty: 'inferred' as const }),
    ...(version.before.known ? {} : { beforeCertainty: 'inferred' as const }),
    ...(version.gap ? { gap: version.gap } : {}),
  };
}

function noteOf(changeSetId: string, version: ChainVersion): ReconstructedNote {
  const { origin } = version;
  return {
    v: 1,
    changeSetId,
    time: new Date(version.timeMs).toISOString(),
    cause: origin.cause,
    sessionId: origin.sessionId,
    firstSight: false,
    foundAtStartup: false,
    evidence: origin.evidence,
    reconstructed: true,
    turnUuid: origin.turnUuid,
    timeKnown: version.timeKnown,
  };
}

function mergeReconstructedNotes(a: ReconstructedNote, b: ReconstructedNote): ReconstructedNote {
  const [first] = b.time < a.time ? [b, a] : [a, b];
  return { ...first, timeKnown: a.timeKnown && b.timeKnown, turnUuid: a.turnUuid ?? b.turnUuid };
}
