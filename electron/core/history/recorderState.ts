import { promises as fs } from 'node:fs';
import type { DreamWindow } from './attribution/attributeChanges';
import { replaceFileAtomically } from '../fs/replaceFileAtomically';

/** What the recorder saw of `.consolidate-lock` the last time it looked. */
export interface LockSighting {
  readonly mtimeMs: number;
  readonly holderPid: number | null;
}

export interface FolderState {
  /** When the recorder last compared this folder with history. */
  readonly lastLookMs: number;
  readonly lock: LockSighting | null;
  /** A dream seen starting that may still be writing. */
  readonly dream: DreamWindow | null;
}

export interface RecorderStateData {
  readonly v: 1;
  readonly folders: Readonly<Record<string, FolderState>>;
  /** Set when history was found deleted and rebuilt from the files as they were. */
  readonly rebuiltAt: string | null;
}

const EMPTY: RecorderStateData = { v: 1, folders: {}, rebuiltAt: null };

function isState(value: unknown): value is RecorderStateData {
  const v = value as Partial<RecorderStateData> | null;
  return typeof v === 'object' && v !== null && v.v === 1 && typeof v.folders === 'object' && v.folders !== null;
}

/** Reads the recorder's state; a missing or damaged file means starting from nothing (it is only bookkeeping). */
export async function readRecorderState(path: string): Promise<RecorderStateData> {
  try {
    const parsed: unknown = JSON.parse(await fs.readFile(path, 'utf8'));
    return isState(parsed) ? { ...EMPTY, ...parsed } : EMPTY;
  } catch {
    return EMPTY;
  }
}

/**
 * Replaces the state file atomically (temp file, rename). Not fsynced: it is bookkeeping, and losing it in a
 * crash only means the next look starts from the journal's own times.
 */
export async function writeRecorderState(path: string, state: RecorderStateData): Promise<void> {
  await replaceFileAtomically(path, JSON.stringify(state));
}
