import { randomBytes } from 'node:crypto';
import { linkSync, promises as fs, readFileSync, renameSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import type { MemoryConflictDetails } from '../../../shared/memory/memoryReview';
import { CodedError } from '../../../shared/result';
import { isLiveDreamLock } from '../lock/liveDreamLock';
import { isProcessAlive, LOCK_FILE_NAME, readConsolidationLockStatus } from '../lock/consolidationLockStatus';
import { ABSENT, contentHash, type BaseHash } from './contentHash';
import { errnoCode, lstatOrNull } from './errno';
import { isReallyWithin, isWithin, resolveInside } from './pathContainment';

/** Text larger than this is not sent back inside a conflict; the UI offers to reload instead. */
const MAX_CONFLICT_TEXT_BYTES = 1024 * 1024;
const DEFAULT_FILE_MODE = 0o644;

export interface SafeWriterOptions {
  /** Called just before each of our own writes lands, so the live watcher does not report it as foreign. */
  readonly onOwnWrite?: (absolutePath: string) => void;
  readonly now?: () => number;
  /** Files this writer may touch besides memory files (*.md): agent snapshots also carry their JSON markers. */
  readonly alsoWrites?: (relativePath: string) => boolean;
  /**
   * Keeps a version another program wrote that a commit had to move out of the way and could not put back
   * (a newer one had arrived), so it can still be had back: the owner stores it in history.
   */
  readonly keepDisplaced?: (bytes: Buffer) => Promise<unknown>;
}

/** The names this writer gives its side files: `.<name>.<pid>.<12 hex>[.previous].tmp`. */
const SIDE_FILE = /^\.(.+)\.(\d+)\.[0-9a-f]{12}(?:\.(previous))?\.tmp$/;
/** A side file this young, of another live process, may belong to a write in progress. */
const SIDE_FILE_GRACE_MS = 10 * 60 * 1000;
/** Side files of writes in progress in this process, whichever writer instance made them. */
const inFlight = new Set<string>();

/** Where a root must really lie: through any symlink on its way, it may not lead out of this folder. */
export interface RootBoundary {
  /** Default: the root's parent folder (a root may be a symlink into its own parent, not elsewhere). */
  readonly boundary?: string;
}

export interface CurrentFile {
  readonly absolutePath: string;
  readonly bytes: Buffer | null;
  readonly hash: string | null;
  readonly mode: number | null;
}

/** As deep as memory folders are scanned anywhere in the app. */
const MAX_SWEEP_DEPTH = 16;

/**
 * Every side file under a folder, found without following a symlink: Node's recursive `readdir` follows symlinked
 * folders, and a sweep must never remove or put back anything outside the folder it was given.
 */
async function sideFilesUnder(root: string): Promise<string[]> {
  const found: string[] = [];
  const visit = async (dir: string, depth: number): Promise<void> => {
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && depth < MAX_SWEEP_DEPTH) await visit(path, depth + 1);
      else if (entry.isFile() && SIDE_FILE.test(entry.name)) found.push(path);
    }
  };
  await visit(root, 0);
  return found;
}

/** What a swap found and did; see `swap`. */
type SwapOutcome =
  | { readonly kind: 'done'; readonly hadFile: boolean }
  | { readonly kind: 'gone' }
  | { readonly kind: 'changed'; readonly found: Buffer; readonly putBack: boolean }
  | { readonly kind: 'occupied'; readonly hadFile: boolean }
  | { readonly kind: 'failed'; readonly error: unknown; readonly putBack: boolean | null };

/** File systems without hard links (FAT, some network shares) get a plain rename instead. */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'ENOSYS', 'EOPNOTSUPP']);

/** Hard-links `from` to `to`, failing with EEXIST if `to` exists; where there are no hard links, renames instead. */
function linkInto(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch (error) {
    if (!NO_HARD_LINKS.has(errnoCode(error) ?? '')) throw error;
    renameSync(from, to);
  }
}

/** Puts a file moved aside back in place at once; false when a newer one arrived there meanwhile. */
function putBackNow(aside: string, path: string): boolean {
  try {
    linkInto(aside, path);
    return true;
  } catch (error) {
    if (errnoCode(error) === 'EEXIST') return false;
    throw error;
  }
}

/**
 * Moves the current file aside (exactly what was there at that instant), checks it is `base`, and links the new
 * version in — or puts the moved file straight back — all synchronously: the path is empty only for these few
 * calls, and no version anyone else wrote is replaced unseen or ever shown and then taken back.
 */
function swap(absolutePath: string, previous: string, replacement: string | null, base: BaseHash): SwapOutcome {
  let hadFile = false;
  if (base !== ABSENT) {
    try {
      renameSync(absolutePath, previous);
    } catch (error) {
      if (errnoCode(error) === 'ENOENT') return { kind: 'gone' };
      throw error;
    }
    hadFile = true;
    let found: Buffer;
    try {
      found = readFileSync(previous);
    } catch (error) {
      return { kind: 'failed', error, putBack: putBackNow(previous, absolutePath) };
    }
    if (contentHash(found) !== base) return { kind: 'changed', found, putBack: putBackNow(previous, absolutePath) };
  }
  if (replacement === null) return { kind: 'done', hadFile };
  try {
    linkInto(replacement, absolutePath);
    return { kind: 'done', hadFile };
  } catch (error) {
    // Someone wrote the path while it was empty: theirs stays. `previous` was `base`, which the caller keeps in history.
    if (errnoCode(error) === 'EEXIST') return { kind: 'occupied', hadFile };
    return { kind: 'failed', error, putBack: hadFile ? putBackNow(previous, absolutePath) : null };
  }
}

/** Removes the side name of a file moved aside; without hard links the put-back was a rename, and it is gone already. */
async function removeAside(aside: string): Promise<void> {
  await fs.unlink(aside).catch((error: unknown) => {
    if (errnoCode(error) !== 'ENOENT') throw error;
  });
}

/** CONFLICT with both versions: what the caller based its change on, and what is on disk now. */
export function conflictError(relativePath: string, base: BaseHash, bytes: Buffer | null): CodedError {
  const hash = bytes ? contentHash(bytes) : null;
  const details: MemoryConflictDetails = {
    relativePath,
    baseHash: base,
    currentHash: hash,
    currentText: bytes && bytes.length <= MAX_CONFLICT_TEXT_BYTES ? bytes.toString('utf8') : null,
  };
  const what = hash === null ? 'was deleted' : base === ABSENT ? 'already exists' : 'changed on disk';
  return new CodedError('CONFLICT', `${relativePath} ${what} since it was opened; nothing was overwritten`, details);
}

async function fsyncDir(dir: string): Promise<void> {
  // Makes the rename durable; directories cannot be opened for fsync on every platform, which is fine to skip.
  const handle = await fs.open(dir, 'r').catch(() => null);
  if (!handle) return;
  await handle.sync().catch(() => undefined);
  await handle.close();
}

/**
 * The file mechanics under the change-set writer (history/changeSetWriter.ts), which is what the app writes
 * through. Every write stays inside its folder, and the folder inside its boundary, by real path (normalised
 * paths, every symlink on the way followed); never goes through a symlink below the folder; only touches `*.md`
 * files (or what `alsoWrites` allows); checks that the file is still what the caller last saw (base hash, else
 * CONFLICT carrying both versions); waits for no one but refuses while a live dream holds `.consolidate-lock`;
 * and lands atomically (temp file in the same folder, fsync, rename) with the file's mode kept.
 */
export class SafeWriter {
  /** Memory folders already swept of side files a killed or failed earlier write left behind. */
  private readonly swept = new Set<string>();

  constructor(private readonly options: SafeWriterOptions = {}) {}

  /**
   * Reads a file the way a write would see it, with the same containment and symlink checks: a file that is a
   * symlink is refused (OUTSIDE_ROOT) rather than read through, so no caller ever sees where it points.
   */
  async readCurrent(root: string, relativePath: string, options: RootBoundary = {}): Promise<CurrentFile> {
    await this.refuseOutsideRoot(root, options.boundary);
    const absolutePath = await this.guardedPath(root, relativePath, false);
    await this.sweepOnce(root);
    const stats = await lstatOrNull(absolutePath);
    if (!stats) return { absolutePath, bytes: null, hash: null, mode: null };
    if (stats.isSymbolicLink()) throw new CodedError('OUTSIDE_ROOT', `${relativePath} is a symlink; nothing is read or written through it`);
    if (!stats.isFile()) throw new CodedError('INVALID_INPUT', `${relativePath} is not a file`);
    const bytes = await fs.readFile(absolutePath);
    return { absolutePath, bytes, hash: contentHash(bytes), mode: stats.mode & 0o7777 };
  }

  /** Writes `content` to `root/relativePath` if the file still matches `base` (a sha256, or 'absent' to create). */
  async write(
    root: string,
    relativePath: string,
    content: Uint8Array | string,
    base: BaseHash,
    options: RootBoundary & { readonly mode?: number } = {},
  ): Promise<{ absolutePath: string; hash: string }> {
    await this.refuseOutsideRoot(root, options.boundary);
    await this.refuseWhileDreaming(root);
    const absolutePath = await this.guardedPath(root, relativePath, true);
    await this.sweepOnce(root);
    const current = await this.checkBase(absolutePath, relativePath, base);
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : Buffer.from(content);
    const dir = dirname(absolutePath);
    const temp = join(dir, `.${basename(absolutePath)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
    // An existing file keeps its mode; a new one takes the mode asked for (a renamed file's), else the default.
    const mode = current.mode ?? options.mode ?? null;
    inFlight.add(temp);
    try {
      // The temp name goes in the end whatever happens; on success the new version lives on under the real name.
      const handle = await fs.open(temp, 'wx', mode ?? DEFAULT_FILE_MODE);
      try {
        await handle.writeFile(bytes);
        if (mode !== null) await handle.chmod(mode);
        await handle.sync();
      } finally {
        await handle.close();
      }
      this.options.onOwnWrite?.(absolutePath);
      await this.commit(absolutePath, relativePath, base, temp);
    } finally {
      await fs.unlink(temp).catch(() => undefined);
      inFlight.delete(temp);
    }
    await fsyncDir(dir);
    return { absolutePath, hash: contentHash(bytes) };
  }

  /** Deletes `root/relativePath` if it still matches `base`. The caller stores it in history first. */
  async remove(root: string, relativePath: string, base: BaseHash, options: RootBoundary = {}): Promise<{ absolutePath: string }> {
    await this.refuseOutsideRoot(root, options.boundary);
    await this.refuseWhileDreaming(root);
    const absolutePath = await this.guardedPath(root, relativePath, false);
    await this.sweepOnce(root);
    await this.checkBase(absolutePath, relativePath, base);
    this.options.onOwnWrite?.(absolutePath);
    await this.commit(absolutePath, relativePath, base, null);
    await fsyncDir(dirname(absolutePath));
    return { absolutePath };
  }

  /**
   * Refuses a root that really lies outside its boundary (by default its own parent): a symlinked root, or one
   * reached through a symlinked folder above it, that leads elsewhere. Checked before anything in it is read, and
   * before a missing root is created, which would create it wherever the link points.
   */
  private async refuseOutsideRoot(root: string, boundary: string = dirname(root)): Promise<void> {
    if (!(await isReallyWithin(boundary, root)))
      throw new CodedError('OUTSIDE_ROOT', `${root} leads outside ${boundary} through a symlink; nothing is read or written there`);
  }

  private async refuseWhileDreaming(root: string): Promise<void> {
    const lock = await readConsolidationLockStatus(root);
    if (isLiveDreamLock(lock, this.options.now?.() ?? Date.now()))
      throw new CodedError(
        'LOCK_HELD',
        `A dream is consolidating this memory right now (process ${lock.holderPid}); try again when it is done`,
        { holderPid: lock.holderPid },
      );
  }

  private async checkBase(absolutePath: string, relativePath: string, base: BaseHash): Promise<CurrentFile> {
    const stats = await lstatOrNull(absolutePath);
    if (stats?.isSymbolicLink()) throw new CodedError('OUTSIDE_ROOT', `${relativePath} is a symlink; nothing is written through it`);
    if (stats && !stats.isFile()) throw new CodedError('INVALID_INPUT', `${relativePath} is not a file`);
    const bytes = stats ? await fs.readFile(absolutePath) : null;
    const hash = bytes ? contentHash(bytes) : null;
    if ((hash ?? ABSENT) !== base) throw conflictError(relativePath, base, bytes);
    return { absolutePath, bytes, hash, mode: stats ? stats.mode & 0o7777 : null };
  }

  /**
   * Lands `replacement` (a finished temp file; null deletes) only if the file is still `base`, with no moment in
   * which another program's write could be overwritten unseen. A check followed by a rename has one: a version
   * renamed into place between the two is lost. So the current file is moved aside (exactly what was there),
   * compared with `base`, and only then is the new version hard-linked in, which fails if anyone wrote the path
   * meanwhile; a foreign version found aside is put straight back, so CONFLICT still means nothing was lost.
   */
  private async commit(absolutePath: string, relativePath: string, base: BaseHash, replacement: string | null): Promise<void> {
    const previous = join(
      dirname(absolutePath),
      `.${basename(absolutePath)}.${process.pid}.${randomBytes(6).toString('hex')}.previous.tmp`,
    );
    inFlight.add(previous);
    try {
      const outcome = swap(absolutePath, previous, replacement, base);
      switch (outcome.kind) {
        case 'done':
          if (outcome.hadFile) await fs.unlink(previous);
          return;
        case 'gone':
          throw conflictError(relativePath, base, null);
        case 'changed':
          // Someone wrote between our check and the swap: theirs stays (or, if a newer one came too, only history has
          // it). History keeps it even when it was put back: a writer that read the path in the instant it was empty
          // may take the file for gone and write over the version put back.
          await this.options.keepDisplaced?.(outcome.found);
          await removeAside(previous);
          throw conflictError(relativePath, base, outcome.found);
        case 'occupied':
          if (outcome.hadFile) await fs.unlink(previous);
          throw conflictError(relativePath, base, await fs.readFile(absolutePath).catch(() => null));
        case 'failed':
          if (outcome.putBack !== null) await this.settleAside(previous, outcome.putBack);
          throw outcome.error;
      }
    } finally {
      inFlight.delete(previous);
    }
  }

  /** A file moved aside was put back (its side name goes), or could not be because a newer one came: history keeps it. */
  private async settleAside(aside: string, putBack: boolean): Promise<void> {
    if (!putBack) await this.options.keepDisplaced?.(await fs.readFile(aside));
    await removeAside(aside);
  }

  /** Puts a version moved aside back in place, unless a newer one has arrived there since: then it is kept in history. */
  private async putBack(aside: string, path: string): Promise<void> {
    try {
      await fs.link(aside, path);
    } catch (error) {
      if (errnoCode(error) !== 'EEXIST') throw error;
      await this.options.keepDisplaced?.(await fs.readFile(aside));
    }
    await fs.unlink(aside);
  }

  /**
   * The first read or write of a folder (in this process) clears what earlier writes left when they were killed or
   * failed: a temp file is removed; a version moved aside goes back in place, or into history if a newer one is there.
   */
  private async sweepOnce(root: string): Promise<void> {
    if (this.swept.has(root)) return;
    this.swept.add(root);
    const now = Date.now();
    for (const path of await sideFilesUnder(root)) {
      const match = SIDE_FILE.exec(basename(path));
      if (!match) continue;
      const stats = await lstatOrNull(path).catch(() => null);
      if (!stats?.isFile()) continue;
      const pid = Number(match[2]);
      if (pid === process.pid ? inFlight.has(path) : isProcessAlive(pid) && now - stats.mtimeMs < SIDE_FILE_GRACE_MS) continue;
      if (match[3] === undefined) await fs.unlink(path).catch(() => undefined);
      else await this.putBack(path, join(dirname(path), match[1])).catch(() => undefined);
    }
  }

  /**
   * Resolves `relativePath` under a root already proven to lie inside its boundary and proves it safe: a `*.md`
   * name that is not the lock file, lexically inside the root, no symlink on the way below the root, and the real
   * path of every existing parent inside the root's real path.
   */
  private async guardedPath(root: string, relativePath: string, createParents: boolean): Promise<string> {
    if (!(relativePath.endsWith('.md') || this.options.alsoWrites?.(relativePath)) || basename(relativePath) === LOCK_FILE_NAME)
      throw new CodedError('INVALID_INPUT', `Only memory files (*.md) can be changed, not ${relativePath}`);
    const absolutePath = resolveInside(root, relativePath);
    if (!absolutePath) throw new CodedError('OUTSIDE_ROOT', `${relativePath} is outside the memory folder`);
    const rootStats = await fs.stat(root).catch((error: unknown) => {
      if (errnoCode(error) === 'ENOENT') return null;
      throw error;
    });
    if (rootStats && !rootStats.isDirectory()) throw new CodedError('INVALID_INPUT', 'The memory folder is not a folder');
    if (!rootStats) {
      if ((await lstatOrNull(root))?.isSymbolicLink()) throw new CodedError('INVALID_INPUT', 'The memory folder is a symlink to nothing');
      if (!createParents) throw new CodedError('NOT_FOUND', 'The memory folder does not exist');
      await fs.mkdir(root, { recursive: true });
    }
    const realRoot = await fs.realpath(root);
    // The folders on the way, as this platform splits the resolved path (a backslash is a name character on POSIX).
    const segments = relative(root, absolutePath).split(sep);
    let dir = root;
    for (const segment of segments.slice(0, -1)) {
      dir = join(dir, segment);
      const stats = await lstatOrNull(dir);
      if (stats?.isSymbolicLink())
        throw new CodedError('OUTSIDE_ROOT', `${relativePath} goes through a symlinked folder; nothing is written through it`);
      if (stats && !stats.isDirectory()) throw new CodedError('INVALID_INPUT', `${relativePath}: a part of the path is not a folder`);
      if (!stats) {
        if (!createParents) throw new CodedError('NOT_FOUND', `${relativePath} does not exist`);
        await fs.mkdir(dir);
      }
    }
    const realParent = await fs.realpath(dirname(absolutePath));
    if (!isWithin(realRoot, realParent)) throw new CodedError('OUTSIDE_ROOT', `${relativePath} resolves outside the memory folder`);
    return absolutePath;
  }
}
