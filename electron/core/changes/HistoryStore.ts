import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { dirname, join } from 'node:path';
import { CERTAINTIES, type Certainty, type FileChangeKind } from '../../../shared/history/historyModel';
import { CodedError } from '../../../shared/result';
import { contentHash, isContentHash } from '../fs/contentHash';
import { replaceFileAtomically } from '../fs/replaceFileAtomically';
import { JsonlLog } from './jsonlLog';

/** Who changed a memory file: this app, a Claude Code session turn, its memory extraction, a dream, or someone else. */
export const HISTORY_CAUSES = ['app-edit', 'session', 'extraction', 'dream', 'external'] as const;
export type HistoryCause = (typeof HISTORY_CAUSES)[number];

/** One line of the journal: one file going from one version to another (null = absent). */
export interface HistoryEntry {
  readonly v: 1;
  readonly time: string;
  /** The memory folder, absolute. */
  readonly folder: string;
  /** The file, relative to the folder, forward slashes. */
  readonly path: string;
  readonly before: string | null;
  readonly after: string | null;
  /** Bytes of the version after the change (null when the change deleted the file). */
  readonly size: number | null;
  readonly cause: HistoryCause;
  /** Entries written together (a prune and its index line) share one id and are undone together. */
  readonly changeSetId: string;
  /** What the change was, in words, for history views. */
  readonly summary: string;
  // Optional fields, added later: lines written before they existed load unchanged (absent = exact, known).
  /** `inferred` when the version after is not known: then `after` is null although the file was not deleted. */
  readonly certainty?: Certainty;
  /** `inferred` when the version before is not known: then `before` is null although the file may have existed. */
  readonly beforeCertainty?: Certainty;
  /** What the change was, for lines whose unknown bytes leave `before`/`after` silent about it. */
  readonly kind?: FileChangeKind;
  /** The prompt that started the turn the change happened in (or followed), when known. */
  readonly turnUuid?: string | null;
  /** Why the story of the file has a hole here (reconstructed lines only). */
  readonly gap?: string;
}

export type NewHistoryEntry = Omit<HistoryEntry, 'v' | 'time'>;

const JOURNAL = 'journal.jsonl';

export function isEntry(value: unknown): value is HistoryEntry {
  const e = value as Partial<HistoryEntry> | null;
  return (
    typeof e === 'object' &&
    e !== null &&
    e.v === 1 &&
    typeof e.folder === 'string' &&
    typeof e.path === 'string' &&
    typeof e.changeSetId === 'string' &&
    (e.before === null || (typeof e.before === 'string' && isContentHash(e.before))) &&
    (e.after === null || (typeof e.after === 'string' && isContentHash(e.after))) &&
    (e.certainty === undefined || CERTAINTIES.includes(e.certainty)) &&
    (e.beforeCertainty === undefined || CERTAINTIES.includes(e.beforeCertainty)) &&
    (e.certainty !== 'inferred' || e.after === null)
  );
}

/** Whether a journal line's version after the change has known bytes (or is a known deletion). */
export function afterKnown(entry: Pick<HistoryEntry, 'certainty'>): boolean {
  return (entry.certainty ?? 'exact') === 'exact';
}

/** Whether a journal line's version before the change is known (bytes, or known absent). */
export function beforeKnown(entry: Pick<HistoryEntry, 'beforeCertainty'>): boolean {
  return (entry.beforeCertainty ?? 'exact') === 'exact';
}

/**
 * Every version of every memory file the app has seen change, kept in the app data folder: content-addressed
 * blobs (sha256; written and fsynced before any journal line names them) and an append-only JSONL journal
 * (fsynced on append). A crash leaves at worst an unreferenced blob or a torn last line, which is skipped.
 */
export class HistoryStore {
  /** Read incrementally; a journal replaced by a shorter one (a restored backup) is read again from the start. */
  private readonly journal: JsonlLog<HistoryEntry>;

  constructor(readonly dir: string) {
    this.journal = new JsonlLog(join(dir, JOURNAL), isEntry);
  }

  newChangeSetId(): string {
    return randomUUID();
  }

  /** Stores bytes as a blob (idempotent) and returns their hash; durable when it resolves. */
  async putBlob(bytes: Uint8Array): Promise<string> {
    const hash = contentHash(bytes);
    const path = this.blobPath(hash);
    const existing = await fs.stat(path).catch(() => null);
    if (existing?.isFile() && existing.size === bytes.length) return hash;
    await replaceFileAtomically(path, bytes, { durable: true });
    await this.syncDir(dirname(path));
    return hash;
  }

  /** The bytes of one stored version; NOT_FOUND when it was never stored, INTERNAL when the blob is damaged. */
  async readBlob(hash: string): Promise<Buffer> {
    if (!isContentHash(hash)) throw new CodedError('INVALID_INPUT', 'Not a content hash');
    let bytes: Buffer;
    try {
      bytes = await fs.readFile(this.blobPath(hash));
    } catch {
      throw new CodedError('NOT_FOUND', `Version ${hash.slice(0, 12)} is not in the history`);
    }
    if (contentHash(bytes) !== hash) throw new CodedError('INTERNAL', `Version ${hash.slice(0, 12)} in the history is damaged`);
    return bytes;
  }

  /** Appends entries in one write and fsyncs; every blob they name must already be stored. */
  async append(entries: readonly NewHistoryEntry[]): Promise<HistoryEntry[]> {
    const time = new Date().toISOString();
    const full = entries.map((entry): HistoryEntry => ({ v: 1, time, ...entry }));
    await this.journal.append(full);
    return full;
  }

  /** Every recorded change of one file, oldest first. */
  async listVersions(folder: string, path: string): Promise<HistoryEntry[]> {
    return (await this.load()).filter((entry) => entry.folder === folder && entry.path === path);
  }

  /** The entries of one change set, in the order they were written. */
  async changeSet(changeSetId: string): Promise<HistoryEntry[]> {
    return (await this.load()).filter((entry) => entry.changeSetId === changeSetId);
  }

  /** Every entry, oldest first (read incrementally: only what was appended since the last call is parsed). */
  load(): Promise<readonly HistoryEntry[]> {
    return this.journal.load();
  }

  private blobPath(hash: string): string {
    return join(this.dir, 'blobs', hash.slice(0, 2), hash.slice(2));
  }

  private async syncDir(dir: string): Promise<void> {
    const handle = await fs.open(dir, 'r').catch(() => null);
    if (!handle) return;
    await handle.sync().catch(() => undefined);
    await handle.close();
  }
}
