import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { replaceFileAtomically } from '../../fs/replaceFileAtomically';
import { JsonlLog } from '../../changes/jsonlLog';
import { EMPTY_CARRY, type ScanCarry } from './evidenceScanner';
import { isEvidenceRecord, type EvidenceRecord } from './memoryEvidence';

/** How far one transcript has been read. */
export interface TranscriptReadState {
  readonly offset: number;
  readonly lines: number;
  /** The bytes just before `offset` (base64): a file whose bytes there changed was rewritten and is read again. */
  readonly tail: string;
  readonly carry: ScanCarry;
}

export interface ScanStateData {
  readonly v: 1;
  readonly files: Readonly<Record<string, TranscriptReadState>>;
  /** `.consolidate-lock` mtimes seen per memory folder (each one a dream's start), oldest first. */
  readonly locks: Readonly<Record<string, readonly number[]>>;
}

const EMPTY: ScanStateData = { v: 1, files: {}, locks: {} };

function isCarry(value: unknown): value is ScanCarry {
  const c = value as Partial<ScanCarry> | null;
  return typeof c === 'object' && c !== null && Array.isArray(c.pending) && Array.isArray(c.backups);
}

function isReadState(value: unknown): value is TranscriptReadState {
  const s = value as Partial<TranscriptReadState> | null;
  return (
    typeof s === 'object' &&
    s !== null &&
    Number.isInteger(s.offset) &&
    Number.isInteger(s.lines) &&
    typeof s.tail === 'string' &&
    isCarry(s.carry)
  );
}

/**
 * The evidence reconstruction has copied out of transcripts (append-only, fsynced: once Claude Code's cleanup
 * deletes a transcript, this is the only copy) and how far each transcript was read (bookkeeping: lost, it
 * only costs reading the transcripts again, and records read twice keep their ids).
 */
export class EvidenceStore {
  readonly log: JsonlLog<EvidenceRecord>;

  constructor(private readonly dir: string) {
    this.log = new JsonlLog(join(dir, 'evidence.jsonl'), isEvidenceRecord);
  }

  private get statePath(): string {
    return join(this.dir, 'scan-state.json');
  }

  async readState(): Promise<ScanStateData> {
    try {
      const parsed = JSON.parse(await fs.readFile(this.statePath, 'utf8')) as Partial<ScanStateData>;
      if (parsed.v !== 1 || typeof parsed.files !== 'object' || parsed.files === null) return EMPTY;
      const files: Record<string, TranscriptReadState> = {};
      for (const [path, state] of Object.entries(parsed.files))
        if (isReadState(state)) files[path] = { ...state, carry: { ...EMPTY_CARRY, ...state.carry } };
      const locks: Record<string, number[]> = {};
      for (const [dir, times] of Object.entries(parsed.locks ?? {}))
        if (Array.isArray(times)) locks[dir] = times.filter((t): t is number => typeof t === 'number');
      return { v: 1, files, locks };
    } catch {
      return EMPTY;
    }
  }

  async writeState(state: ScanStateData): Promise<void> {
    await replaceFileAtomically(this.statePath, JSON.stringify(state));
  }

  /** Every record, each id once (a line read again replaces what it gave before). */
  async records(): Promise<EvidenceRecord[]> {
    const byId = new Map<string, EvidenceRecord>();
    for (const record of await this.log.load()) byId.set(record.id, record);
    return [...byId.values()];
  }
}
