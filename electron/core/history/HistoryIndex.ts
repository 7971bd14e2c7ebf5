import { mergeNotes, type ChangeSetNote, type DreamReviewRecord } from '../changes/changeSetNotes';
import type { HistoryEntry, HistoryStore } from '../changes/HistoryStore';
import type { JsonlLog } from '../changes/jsonlLog';
import type { ReconstructedHistory, ReconstructedLog, ReconstructedNote } from './provenance/reconstructedLog';

function fileKey(folder: string, path: string): string {
  return `${folder}\0${path}`;
}

/** Everything known about one change set: its journal lines and the notes on it. */
export interface IndexedChangeSet {
  readonly id: string;
  readonly folder: string;
  readonly entries: readonly HistoryEntry[];
  /** Its notes merged (see `mergeNotes`). */
  readonly note: ChangeSetNote | null;
  /** Reconstructed for the time before history recorded the folder (then `note` is its `ReconstructedNote`). */
  readonly reconstructed: boolean;
}

/** The reconstructed part of the index, replaced as a whole when the reconstruction is. */
interface ReconstructedPart {
  readonly source: ReconstructedHistory;
  readonly byFile: Map<string, HistoryEntry[]>;
  readonly byChangeSet: Map<string, HistoryEntry[]>;
  readonly notes: Map<string, ReconstructedNote>;
}

/**
 * Lookups over the history journal and its side notes, kept up to date incrementally: each refresh indexes
 * only the lines appended since the last one, so listing the versions of one file or the change sets of one
 * folder never scans the whole journal again. The reconstructed history (the time before the journal
 * recorded a folder) comes first in each file's versions; what the recorder compares the disk with
 * (`latest`, `latestInFolder`, `knowsFolder`) is the journal's alone.
 */
export class HistoryIndex {
  private entryCount = 0;
  private noteCount = 0;
  private reviewCount = 0;
  private readonly byFile = new Map<string, HistoryEntry[]>();
  private readonly byChangeSet = new Map<string, HistoryEntry[]>();
  /** Change set ids in the order their first line was written. */
  private readonly changeSetOrder: string[] = [];
  private readonly foldersByChangeSet = new Map<string, string>();
  private readonly filesByFolder = new Map<string, Set<string>>();
  private readonly notes = new Map<string, ChangeSetNote>();
  private readonly reviews = new Map<string, DreamReviewRecord>();

  private reconstructedPart: ReconstructedPart | null = null;

  constructor(
    readonly store: HistoryStore,
    private readonly notesLog: JsonlLog<ChangeSetNote>,
    private readonly reviewsLog: JsonlLog<DreamReviewRecord>,
    private readonly reconstructedLog: ReconstructedLog | null = null,
  ) {}

  async refresh(): Promise<void> {
    const [entries, notes, reviews, reconstructed] = await Promise.all([
      this.store.load(),
      this.notesLog.load(),
      this.reviewsLog.load(),
      this.reconstructedLog?.load() ?? null,
    ]);
    if (reconstructed && reconstructed !== this.reconstructedPart?.source) this.reconstructedPart = indexReconstructed(reconstructed);
    if (entries.length < this.entryCount || notes.length < this.noteCount || reviews.length < this.reviewCount) this.clear();
    for (let i = this.entryCount; i < entries.length; i++) this.addEntry(entries[i]);
    this.entryCount = entries.length;
    for (let i = this.noteCount; i < notes.length; i++) this.addNote(notes[i]);
    this.noteCount = notes.length;
    for (let i = this.reviewCount; i < reviews.length; i++) this.reviews.set(reviews[i].changeSetId, reviews[i]);
    this.reviewCount = reviews.length;
  }

  get versionCount(): number {
    return this.entryCount;
  }

  get changeSetCount(): number {
    return this.changeSetOrder.length;
  }

  /** The first journal line, or null when history is empty. */
  firstEntry(): HistoryEntry | null {
    const first = this.changeSetOrder[0];
    return first ? (this.byChangeSet.get(first)?.[0] ?? null) : null;
  }

  /** Every version of one file, oldest first: the reconstructed ones, then the journal's. */
  versions(folder: string, path: string): readonly HistoryEntry[] {
    const key = fileKey(folder, path);
    const live = this.byFile.get(key) ?? [];
    const earlier = this.reconstructedPart?.byFile.get(key);
    return earlier ? [...earlier, ...live] : live;
  }

  /** Files the reconstructed history knows in a folder (deleted before history started included). */
  reconstructedPaths(folder: string): string[] {
    const prefix = `${folder}\0`;
    return [...(this.reconstructedPart?.byFile.keys() ?? [])]
      .filter((key) => key.startsWith(prefix))
      .map((key) => key.slice(prefix.length));
  }

  get reconstructedChangeSetCount(): number {
    return this.reconstructedPart?.notes.size ?? 0;
  }

  get reconstructedVersionCount(): number {
    return this.reconstructedPart?.source.entries.length ?? 0;
  }

  /** The newest recorded line of one file, or null when it was never recorded. */
  latest(folder: string, path: string): HistoryEntry | null {
    const list = this.byFile.get(fileKey(folder, path));
    return list ? list[list.length - 1] : null;
  }

  /** Every file of a folder history knows, with its newest line. */
  latestInFolder(folder: string): Map<string, HistoryEntry> {
    const out = new Map<string, HistoryEntry>();
    for (const path of this.filesByFolder.get(folder) ?? []) {
      const entry = this.latest(folder, path);
      if (entry) out.set(path, entry);
    }
    return out;
  }

  knowsFolder(folder: string): boolean {
    return this.filesByFolder.has(folder);
  }

  folders(): string[] {
    return [...this.filesByFolder.keys()];
  }

  changeSet(id: string): IndexedChangeSet | null {
    const entries = this.byChangeSet.get(id);
    if (!entries) {
      const earlier = this.reconstructedPart?.byChangeSet.get(id);
      if (!earlier) return null;
      return { id, folder: earlier[0].folder, entries: earlier, note: this.reconstructedPart?.notes.get(id) ?? null, reconstructed: true };
    }
    return {
      id,
      folder: this.foldersByChangeSet.get(id) ?? entries[0].folder,
      entries,
      note: this.notes.get(id) ?? null,
      reconstructed: false,
    };
  }

  /** Change set ids: the journal's newest first, then the reconstructed ones (all older than their folder's journal). */
  changeSetIdsNewestFirst(): string[] {
    return [...this.changeSetOrder].reverse().concat([...(this.reconstructedPart?.byChangeSet.keys() ?? [])].reverse());
  }

  review(id: string): DreamReviewRecord | null {
    return this.reviews.get(id) ?? null;
  }

  private clear(): void {
    this.entryCount = 0;
    this.noteCount = 0;
    this.reviewCount = 0;
    this.byFile.clear();
    this.byChangeSet.clear();
    this.changeSetOrder.length = 0;
    this.foldersByChangeSet.clear();
    this.filesByFolder.clear();
    this.notes.clear();
    this.reviews.clear();
  }

  private addEntry(entry: HistoryEntry): void {
    const key = fileKey(entry.folder, entry.path);
    const list = this.byFile.get(key);
    if (list) list.push(entry);
    else this.byFile.set(key, [entry]);
    const set = this.byChangeSet.get(entry.changeSetId);
    if (set) set.push(entry);
    else {
      this.byChangeSet.set(entry.changeSetId, [entry]);
      this.changeSetOrder.push(entry.changeSetId);
      this.foldersByChangeSet.set(entry.changeSetId, entry.folder);
    }
    let files = this.filesByFolder.get(entry.folder);
    if (!files) {
      files = new Set();
      this.filesByFolder.set(entry.folder, files);
    }
    files.add(entry.path);
  }

  private addNote(note: ChangeSetNote): void {
    const known = this.notes.get(note.changeSetId);
    this.notes.set(note.changeSetId, known ? mergeNotes(known, note) : note);
  }
}

function indexReconstructed(source: ReconstructedHistory): ReconstructedPart {
  const part: ReconstructedPart = { source, byFile: new Map(), byChangeSet: new Map(), notes: new Map() };
  // Oldest first within each file, whatever order the file was written in.
  const entries = [...source.entries].sort((a, b) => a.time.localeCompare(b.time));
  const add = (map: Map<string, HistoryEntry[]>, key: string, entry: HistoryEntry): void => {
    const list = map.get(key);
    if (list) list.push(entry);
    else map.set(key, [entry]);
  };
  for (const entry of entries) {
    add(part.byFile, fileKey(entry.folder, entry.path), entry);
    add(part.byChangeSet, entry.changeSetId, entry);
  }
  for (const note of source.notes) part.notes.set(note.changeSetId, note);
  return part;
}
