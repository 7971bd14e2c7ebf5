import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { isMetaFileName, type SnapshotSideFile, type SnapshotSideListing } from '../../../shared/agents/snapshotComparison';
import type { MetaFileState } from '../../../shared/agents/snapshotPlanner';
import type { SnapshotFileFacts } from '../../../shared/model/agents';
import type { ItemWarning } from '../../../shared/model/warnings';
import { contentHash } from '../fs/contentHash';
import { describeFsError, listDir, warning } from '../fs/readSafely';
import { readMetaText } from '../layout/snapshotStatusReader';

/** Memory files are small; anything larger is left alone rather than read whole. */
const MAX_SNAPSHOT_FILE_BYTES = 4 * 1024 * 1024;
/** Beyond this a file is compared by hash only, not shown as text. */
const MAX_SHOWN_TEXT_BYTES = 256 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function shownText(bytes: Buffer): string | null {
  if (bytes.length > MAX_SHOWN_TEXT_BYTES || bytes.includes(0)) return null;
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

export interface SnapshotFolderContents {
  readonly dir: string;
  readonly exists: boolean;
  /** False when the path is a symlink or a file: then nothing is read from or written into it. */
  readonly plain: boolean;
  readonly listing: SnapshotSideListing;
  readonly facts: ReadonlyMap<string, SnapshotFileFacts>;
  /** Hashes of the two meta files when they are regular files here. */
  readonly metaHashes: ReadonlyMap<string, string>;
  readonly warnings: readonly ItemWarning[];
}

/**
 * Reads the top level of a memory or snapshot folder the way Claude Code's snapshot code sees it: regular
 * files only (a symlink or folder is an obstacle, never followed), meta files apart, every file hashed.
 */
export async function readSnapshotFolder(dir: string): Promise<SnapshotFolderContents> {
  const warnings: ItemWarning[] = [];
  const stats = await fs.lstat(dir).catch(() => null);
  const empty = { listing: { files: [], obstacles: [] }, facts: new Map(), metaHashes: new Map(), warnings };
  if (!stats) return { dir, exists: false, plain: true, ...empty };
  if (!stats.isDirectory()) {
    warnings.push(warning('not-a-directory', 'Not a plain folder (a symlink or a file); snapshot actions leave it alone', dir));
    return { dir, exists: true, plain: false, ...empty };
  }
  const listed = await listDir(dir);
  if (listed.warning) warnings.push(listed.warning);
  const files: SnapshotSideFile[] = [];
  const obstacles: string[] = [];
  const facts = new Map<string, SnapshotFileFacts>();
  const metaHashes = new Map<string, string>();
  for (const entry of listed.entries) {
    const path = join(dir, entry.name);
    if (!entry.isFile()) {
      obstacles.push(entry.name);
      continue;
    }
    let bytes: Buffer;
    try {
      const size = (await fs.lstat(path)).size;
      if (size > MAX_SNAPSHOT_FILE_BYTES) {
        warnings.push(warning('unreadable', `Larger than ${MAX_SNAPSHOT_FILE_BYTES} bytes; snapshot actions leave it alone`, path));
        obstacles.push(entry.name);
        continue;
      }
      bytes = await fs.readFile(path);
    } catch (error) {
      warnings.push(warning('unreadable', `Cannot read: ${describeFsError(error)}`, path));
      obstacles.push(entry.name);
      continue;
    }
    const hash = contentHash(bytes);
    if (isMetaFileName(entry.name)) {
      metaHashes.set(entry.name, hash);
      continue;
    }
    files.push({ name: entry.name, hash });
    facts.set(entry.name, { hash, size: bytes.length, text: shownText(bytes) });
  }
  files.sort((a, b) => a.name.localeCompare(b.name));
  obstacles.sort();
  return { dir, exists: true, plain: true, listing: { files, obstacles }, facts, metaHashes, warnings };
}

/**
 * A meta file's parsed value, read as Claude Code reads it (`readFile` + `JSON.parse`, following symlinks,
 * any failure meaning "none"), together with the hash of the regular file that a write would replace.
 */
export async function readMetaFile<T>(
  side: SnapshotFolderContents,
  name: string,
  parse: (text: string | null) => T | null,
): Promise<MetaFileState<T>> {
  let text: string | null = null;
  if (side.exists) text = await readMetaText(join(side.dir, name));
  return { value: parse(text), hash: side.metaHashes.get(name) ?? null };
}
