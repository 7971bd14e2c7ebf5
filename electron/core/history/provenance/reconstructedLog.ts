import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { isNote, type ChangeSetNote } from '../../changes/changeSetNotes';
import { isEntry, type HistoryEntry } from '../../changes/HistoryStore';
import { replaceFileAtomically } from '../../fs/replaceFileAtomically';

/** A reconstructed change set's note: the live note's fields, and what only reconstruction knows. */
export interface ReconstructedNote extends ChangeSetNote {
  readonly reconstructed: true;
  readonly turnUuid: string | null;
  readonly timeKnown: boolean;
}

export interface ReconstructedHistory {
  readonly entries: readonly HistoryEntry[];
  readonly notes: readonly ReconstructedNote[];
  /** What the chains were built from; the same key means nothing needs building again. */
  readonly buildKey: string;
  readonly builtAt: string | null;
}

const EMPTY: ReconstructedHistory = { entries: [], notes: [], buildKey: '', builtAt: null };

function isReconstructedNote(value: unknown): value is ReconstructedNote {
  const note = value as Partial<ReconstructedNote> | null;
  return isNote(value) && note?.reconstructed === true && typeof note.timeKnown === 'boolean';
}

/**
 * The history reconstructed for the time before history recorded a file itself: journal lines and notes in
 * the journal's own shapes, kept beside the journal. It is derived (from the evidence kept in `provenance/`
 * and the journal's first versions), so it is replaced as a whole, atomically and durably, whenever new
 * evidence changes it; the append-only journal is never rewritten.
 */
export class ReconstructedLog {
  private cached: { readonly mtimeMs: number; readonly size: number; readonly value: ReconstructedHistory } | null = null;

  constructor(private readonly historyDir: string) {}

  private get path(): string {
    return join(this.historyDir, 'reconstructed.json');
  }

  /** The current reconstruction; re-read only when the file changed. A damaged file counts as none (it is rebuilt). */
  async load(): Promise<ReconstructedHistory> {
    const stat = await fs.stat(this.path).catch(() => null);
    if (!stat) {
      this.cached = null;
      return EMPTY;
    }
    if (this.cached && this.cached.mtimeMs === stat.mtimeMs && this.cached.size === stat.size) return this.cached.value;
    let value = EMPTY;
    try {
      const parsed = JSON.parse(await fs.readFile(this.path, 'utf8')) as Partial<ReconstructedHistory> & { v?: unknown };
      if (parsed.v === 1 && Array.isArray(parsed.entries) && Array.isArray(parsed.notes) && typeof parsed.buildKey === 'string') {
        value = {
          entries: parsed.entries.filter(isEntry),
          notes: parsed.notes.filter(isReconstructedNote),
          buildKey: parsed.buildKey,
          builtAt: typeof parsed.builtAt === 'string' ? parsed.builtAt : null,
        };
      }
    } catch {
      // Rebuilt from the evidence on the next run.
    }
    this.cached = { mtimeMs: stat.mtimeMs, size: stat.size, value };
    return value;
  }

  async replace(history: ReconstructedHistory): Promise<void> {
    await replaceFileAtomically(this.path, JSON.stringify({ v: 1, ...history }), { durable: true });
  }
}
