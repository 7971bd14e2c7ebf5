import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { dirname, join } from 'node:path';
import { CodedError } from '../../../shared/result';
import { contentHash, isContentHash } from '../fs/contentHash';
import { replaceFileAtomically } from '../fs/replaceFileAtomically';

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
}

export type NewHistoryEntry = Omit<HistoryEntry, 'v' | 'time'>;

const JOURNAL = 'journal.jsonl';

function isEntry(value: unknown): value is HistoryEntry {
  const e = value as Partial<HistoryEntry> | null;
  return (
    typeof e === 'object' &&
    e !== null &&
    e.v === 1 &&
    typeof e.folder === 'string' &&
    typeof e.path === 'string' &&
    typeof e.changeSetId === 'string' &&
    (e.before === null || (typeof e.before === 'string' && isContentHash(e.before))) &&
    (e.after === null || (typeof e.after === 'string' && isContentHash(e.after)))
  );
}

/**
 * Every version of every memory file the app has seen change, kept in the app data folder: content-addressed
 * blobs (sha256; written and fsynced before any journal line names them) and an append-only JSONL journal
 * (fsynced on append). A crash leaves at worst an unreferenced blob or a torn last line, which is skipped.
 */
export class HistoryStore {
  private entries: HistoryEntry[] = [];
  /** How far into the journal `entries` reflects, so later reads only parse what was appended since. */
  private readOffset = 0;
  private loads: Promise<unknown> = Promise.resolve();

  constructor(private readonly dir: string) {}

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
    await fs.mkdir(this.dir, { recursive: true });
    const path = join(this.dir, JOURNAL);
    const handle = await fs.open(path, 'a+', 0o600);
    try {
      const { size } = await handle.stat();
      // A torn last line from a crash must not swallow the first new entry.
      let prefix = '';
      if (size > 0) {
        const last = Buffer.alloc(1);
        await handle.read(last, 0, 1, size - 1);
        if (last[0] !== 0x0a) prefix = '\n';
      }
      await handle.appendFile(prefix + full.map((entry) => `${JSON.stringify(entry)}\n`).join(''));
      await handle.sync();
    } finally {
      await handle.close();
    }
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
    // One read at a time: two reads from the same offset would each add the appended lines.
    const next = this.loads.then(() => this.readAppended());
    this.loads = next.catch(() => undefined);
    return next;
  }

  private async readAppended(): Promise<readonly HistoryEntry[]> {
    const path = join(this.dir, JOURNAL);
    const handle = await fs.open(path, 'r').catch(() => null);
    if (!handle) return this.entries;
    try {
      const { size } = await handle.stat();
      if (size < this.readOffset) {
        // The journal was replaced (restored from a backup): read it again from the start.
        this.entries = [];
        this.readOffset = 0;
      }
      if (size === this.readOffset) return this.entries;
      const chunk = Buffer.alloc(size - this.readOffset);
      await handle.read(chunk, 0, chunk.length, this.readOffset);
      const lastNewline = chunk.lastIndexOf(0x0a);
      if (lastNewline === -1) return this.entries;
      for (const line of chunk.subarray(0, lastNewline).toString('utf8').split('\n')) {
        if (!line.trim()) continue;
        try {
          const parsed: unknown = JSON.parse(line);
          if (isEntry(parsed)) this.entries.push(parsed);
        } catch {
          // A torn line from a crash: skipped, the rest of the journal still counts.
        }
      }
      this.readOffset += lastNewline + 1;
      return this.entries;
    } finally {
      await handle.close();
    }
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
