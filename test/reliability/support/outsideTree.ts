import { promises as fs } from 'node:fs';
import { join } from 'node:path';

/** Far enough back that any read moves it, under relatime as under strictatime. */
const PRIMED_ATIME = new Date(1_000_000);

interface EntryState {
  /** What a write changes: kind, size, mode, inode, mtime. */
  readonly shape: string;
  readonly atimeNs: bigint;
}

async function stateOf(path: string): Promise<EntryState | null> {
  const stats = await fs.lstat(path, { bigint: true }).catch(() => null);
  if (!stats) return null;
  const kind = stats.isSymbolicLink() ? 'link' : stats.isDirectory() ? 'dir' : 'file';
  return { shape: `${kind} ${stats.size} ${stats.mode} ${stats.ino} ${kind === 'dir' ? '' : stats.mtimeNs}`, atimeNs: stats.atimeNs };
}

async function listTree(root: string): Promise<string[]> {
  const out: string[] = [root];
  for (const name of await fs.readdir(root, { recursive: true }).catch(() => [] as string[])) out.push(join(root, name));
  return out;
}

/** Sets access times far back, deepest first: listing a folder above reads it, so its own time is set after. */
async function primeAll(paths: readonly string[]): Promise<void> {
  for (const path of [...paths].reverse()) {
    const stats = await fs.lstat(path).catch(() => null);
    if (stats) await fs.utimes(path, PRIMED_ATIME, stats.mtime);
  }
}

export interface OutsideAccess {
  /** Entries whose contents (a file) or listing (a folder) were read. */
  readonly reads: readonly string[];
  /** Entries created, changed or removed. */
  readonly writes: readonly string[];
}

/**
 * A tree the app must neither read nor write: the file system's own record, so reads by any means (another
 * thread, a worker, a child process) count. Every entry's access time is set far back; the first read of a file's
 * contents or a folder's listing moves it (Linux relatime updates an access time older than the change time).
 * The rest of each entry's stats shows writes; a listing taken after the reads were collected shows new entries.
 */
export class OutsideTree {
  /** Reads seen so far: looking for new entries lists the folders, so their times are set back after each look. */
  private readonly readSoFar = new Set<string>();

  private constructor(
    private readonly roots: readonly string[],
    private readonly primed: ReadonlyMap<string, EntryState>,
  ) {}

  static async watch(roots: readonly string[]): Promise<OutsideTree> {
    const paths = (await Promise.all(roots.map(listTree))).flat();
    for (const path of paths)
      if ((await fs.lstat(path)).isSymbolicLink())
        throw new Error(`${path}: an outside tree holds no symlinks (resolving a link moves its time)`);
    await primeAll(paths);
    const primed = new Map<string, EntryState>();
    for (const path of paths) primed.set(path, (await stateOf(path)) as EntryState);
    return new OutsideTree(roots, primed);
  }

  /** What was read and written since `watch`, by the file system's account. */
  async accesses(): Promise<OutsideAccess> {
    const writes: string[] = [];
    for (const [path, before] of this.primed) {
      const now = await stateOf(path);
      if (now === null || now.shape !== before.shape) writes.push(path);
      else if (now.atimeNs !== before.atimeNs) this.readSoFar.add(path);
    }
    const listed = (await Promise.all(this.roots.map(listTree))).flat();
    for (const path of listed) if (!this.primed.has(path)) writes.push(path);
    // That listing read every folder: set their times back, or the next look would take it for the app's.
    await primeAll(listed.filter((path) => this.primed.get(path)?.shape.startsWith('dir')));
    return { reads: [...this.readSoFar], writes };
  }

  /**
   * Proves the oracle sees reads on this file system: reads one file of the tree and expects it reported. Call it
   * after the checks, since it reads the tree itself.
   */
  async seesARead(): Promise<boolean> {
    const file = [...this.primed.keys()].find((path) => this.primed.get(path)?.shape.startsWith('file'));
    if (!file) return false;
    await fs.readFile(file);
    return (await this.accesses()).reads.includes(file);
  }
}
