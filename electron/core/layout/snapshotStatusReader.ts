import { join } from 'node:path';
import {
  countsAsLocalMemory,
  parseSnapshotMeta,
  parseSyncedMeta,
  SNAPSHOT_META_FILE,
  snapshotAction,
  SYNCED_META_FILE,
} from '../../../shared/agents/snapshotStatus';
import type { AgentSnapshotStatus } from '../../../shared/model/agents';
import type { ItemWarning } from '../../../shared/model/warnings';
import { listDir, readSmallText, statOrNull, warning } from '../fs/readSafely';

const MAX_META_BYTES = 64 * 1024;

/** Reads a small JSON file the way Claude Code does: any failure (missing, unreadable, a folder) is "no file". */
export async function readMetaText(path: string): Promise<string | null> {
  return readSmallText(path, MAX_META_BYTES).catch(() => null);
}

export interface SnapshotStatusRead {
  readonly status: AgentSnapshotStatus;
  readonly warnings: readonly ItemWarning[];
}

/**
 * `checkAgentMemorySnapshot` for one agent memory folder against one snapshot folder (or none), plus the
 * `syncedFrom` marker for display. Reads only.
 */
export async function readSnapshotStatus(agentDir: string, snapshotDir: string | null): Promise<SnapshotStatusRead> {
  const warnings: ItemWarning[] = [];
  const synced = parseSyncedMeta(await readMetaText(join(agentDir, SYNCED_META_FILE)));
  const snapshotExists = snapshotDir !== null && ((await statOrNull(snapshotDir))?.isDirectory() ?? false);
  if (!snapshotExists) {
    return { status: { dir: null, updatedAt: null, syncedFrom: synced?.syncedFrom ?? null, action: 'none' }, warnings };
  }
  const snapshot = parseSnapshotMeta(await readMetaText(join(snapshotDir, SNAPSHOT_META_FILE)));
  if (!snapshot) {
    warnings.push(
      warning(
        'snapshot-invalid',
        `No valid ${SNAPSHOT_META_FILE} with a non-empty "updatedAt": Claude Code ignores this snapshot`,
        snapshotDir,
      ),
    );
  }
  const listing = await listDir(agentDir);
  const hasLocalMemory = listing.entries.some((entry) => countsAsLocalMemory(entry.name, entry.isFile()));
  return {
    status: {
      dir: snapshotDir,
      updatedAt: snapshot?.updatedAt ?? null,
      syncedFrom: synced?.syncedFrom ?? null,
      action: snapshotAction({ snapshot, hasLocalMemory, synced }),
    },
    warnings,
  };
}
