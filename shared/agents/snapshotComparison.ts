import type { SnapshotFileState } from '../model/agents';
import { SNAPSHOT_META_FILE, SYNCED_META_FILE } from './snapshotStatus';

/** A regular file directly in a memory or snapshot folder. */
export interface SnapshotSideFile {
  readonly name: string;
  readonly hash: string;
}

/** What one side holds at its top level; Claude Code neither looks into sub-folders nor copies symlinks. */
export interface SnapshotSideListing {
  /** Regular files, the two meta files excluded. */
  readonly files: readonly SnapshotSideFile[];
  /** Entries that are not regular files (symlinks, folders): never written through or over. */
  readonly obstacles: readonly string[];
}

export interface ComparedFile {
  readonly name: string;
  readonly state: SnapshotFileState;
  readonly local: SnapshotSideFile | null;
  readonly snapshot: SnapshotSideFile | null;
}

export function isMetaFileName(name: string): boolean {
  return name === SNAPSHOT_META_FILE || name === SYNCED_META_FILE;
}

/** Local files that are memory to Claude Code: the `*.md` it deletes on replace and tests for on initialise. */
export function localMemoryFiles(local: SnapshotSideListing): SnapshotSideFile[] {
  return local.files.filter((file) => file.name.endsWith('.md'));
}

/**
 * Pairs the two sides by name. A local file takes part when it is memory (`*.md`) or when the snapshot would
 * overwrite it (a snapshot carries every regular file, not only `*.md`).
 */
export function compareSnapshotSides(local: SnapshotSideListing, snapshot: SnapshotSideListing): ComparedFile[] {
  const snapshotByName = new Map(snapshot.files.map((file) => [file.name, file]));
  const localByName = new Map(
    local.files.filter((file) => file.name.endsWith('.md') || snapshotByName.has(file.name)).map((f) => [f.name, f]),
  );
  const names = [...new Set([...snapshotByName.keys(), ...localByName.keys()])].sort();
  return names.map((name) => {
    const localFile = localByName.get(name) ?? null;
    const snapshotFile = snapshotByName.get(name) ?? null;
    let state: SnapshotFileState;
    if (!localFile) state = 'snapshot-only';
    else if (!snapshotFile) state = 'local-only';
    else state = localFile.hash === snapshotFile.hash ? 'same' : 'changed';
    return { name, state, local: localFile, snapshot: snapshotFile };
  });
}
