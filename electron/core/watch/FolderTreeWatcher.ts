import { promises as fs, watch as watchFolder, type Dirent, type FSWatcher, type Stats } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';
import { lstatOrNull } from '../fs/errno';
import { isWithin } from '../fs/pathContainment';
import { errorCode, statOrNull } from '../fs/readSafely';
import { mapLimit } from '../async/mapLimit';
import type { FileEvent } from './watchedChange';

export interface FolderTreeWatcherOptions {
  /** Poll instead of asking the OS for events (tests, network folders). */
  readonly usePolling: boolean;
  readonly pollIntervalMs: number;
  /** Paths never followed nor reported (checked on every path, by its name). */
  readonly isIgnored: (path: string) => boolean;
  readonly onEvent: (event: FileEvent, path: string) => void;
}

/** A followed folder. A child is a sub-folder, or a file's signature: size and mtime when polling, '' otherwise. */
interface Folder {
  readonly path: string;
  readonly children: Map<string, Folder | string>;
  osWatch: FSWatcher | null;
  removed: boolean;
}

/** A target that does not exist yet: its nearest existing ancestor is watched (not recursively) until it appears. */
interface Waiting {
  readonly target: string;
  osWatch: FSWatcher | null;
}

const LIST_PARALLELISM = 8;
const RUN_OUT_OF_WATCHERS = new Set(['ENOSPC', 'EMFILE']);

function newFolder(path: string): Folder {
  return { path, children: new Map(), osWatch: null, removed: false };
}

/** Follows a symlink: a followed target may be one (a config root kept with dotfiles), though nothing below it is followed through links. */
async function isFolder(path: string): Promise<boolean> {
  return (await statOrNull(path))?.isDirectory() ?? false;
}

function signatureOf(stats: Stats): string {
  return `${stats.size}:${stats.mtimeMs}`;
}

/**
 * Follows whole folder trees with one OS watch per folder, never one per file: a folder's watch already
 * reports changes to the files in it, and a home with tens of thousands of transcripts would otherwise
 * cost as many watches and their bookkeeping. Reports add/change/unlink for files and addDir/unlinkDir
 * for folders; what exists when a tree is first followed is not reported. Falls back to polling (a
 * periodic listing with sizes and mtimes) when asked to, or when the OS runs out of watches.
 */
export class FolderTreeWatcher {
  private polling: boolean;
  private readonly trees = new Map<string, Folder>();
  private readonly waiting = new Map<string, Waiting>();
  private targets: readonly string[] = [];
  private pollTimer: NodeJS.Timeout | null = null;
  /** Targets being listed for the first time: polling waits for them, or it would report their contents as new. */
  private starting = 0;
  private closed = false;

  constructor(private readonly options: FolderTreeWatcherOptions) {
    this.polling = options.usePolling;
  }

  get isPolling(): boolean {
    return this.polling;
  }

  /**
   * Follows exactly these folders (and everything below them) from now on, silently: what they hold now is
   * not reported, only later changes. A target inside another one adds nothing; a missing one is awaited.
   */
  async follow(targets: readonly string[]): Promise<void> {
    const outermost = [...new Set(targets)].filter((target) => !targets.some((other) => other !== target && isWithin(other, target)));
    const added = outermost.filter((target) => !this.targets.includes(target));
    for (const target of this.targets.filter((target) => !outermost.includes(target))) this.unfollow(target);
    this.targets = outermost;
    this.starting++;
    try {
      await Promise.all(added.map((target) => this.start(target, false)));
    } finally {
      this.starting--;
    }
    if (this.polling) this.schedulePoll();
  }

  dispose(): void {
    this.closed = true;
    if (this.pollTimer) clearTimeout(this.pollTimer);
    this.pollTimer = null;
    for (const target of this.targets) this.unfollow(target);
    this.targets = [];
  }

  private unfollow(target: string): void {
    const tree = this.trees.get(target);
    if (tree) this.close(tree);
    this.trees.delete(target);
    this.waiting.get(target)?.osWatch?.close();
    this.waiting.delete(target);
  }

  /** Follows a target if it exists (reporting its contents when it just appeared), or waits for it. */
  private async start(target: string, appeared: boolean): Promise<void> {
    const exists = await isFolder(target);
    if (this.closed || !this.targets.includes(target) || this.trees.has(target)) return;
    if (!exists) return this.waitFor(target);
    const tree = newFolder(target);
    this.trees.set(target, tree);
    if (appeared) this.options.onEvent('addDir', target);
    await this.scan(tree, appeared);
  }

  private async waitFor(target: string): Promise<void> {
    const waiting: Waiting = { target, osWatch: null };
    this.waiting.set(target, waiting);
    if (this.polling) return;
    let ancestor = dirname(target);
    while (ancestor !== dirname(ancestor) && !(await isFolder(ancestor))) ancestor = dirname(ancestor);
    if (this.closed || this.waiting.get(target) !== waiting) return;
    // Only the next folder on the way down matters; the ancestor may be a busy folder.
    const next = target
      .slice(ancestor.length)
      .split(sep)
      .find((part) => part !== '');
    waiting.osWatch = this.watchOs(ancestor, (_event, name) => {
      if (name === null || name === next) void this.recheckWaiting(waiting);
    });
    // The next folder may have appeared before the watch began (`mkdir -p` makes the whole path at once).
    if (next !== undefined && (await isFolder(join(ancestor, next)))) await this.recheckWaiting(waiting);
  }

  private async recheckWaiting(waiting: Waiting): Promise<void> {
    if (this.closed || this.waiting.get(waiting.target) !== waiting) return;
    this.waiting.delete(waiting.target);
    waiting.osWatch?.close();
    await this.start(waiting.target, true);
  }

  /** Lists a folder and everything below it, level by level, watching each folder before it is listed. */
  private scan(root: Folder, announce: boolean): Promise<void> {
    return this.walkLevels(root, (folder) => this.list(folder, announce));
  }

  /** Visits a tree level by level, a few folders at a time; each visit returns the sub-folders to visit next. */
  private async walkLevels(root: Folder, visit: (folder: Folder) => Promise<Folder[]>): Promise<void> {
    let level = [root];
    while (level.length > 0 && !this.closed) level = (await mapLimit(level, LIST_PARALLELISM, visit)).flat();
  }

  /**
   * Watches a folder, then lists it, so a file created in between is seen either way. Adds the children it
   * did not know (reported when `announce`); returns the new sub-folders, still to be listed.
   */
  private async list(folder: Folder, announce: boolean): Promise<Folder[]> {
    if (this.closed || folder.removed) return [];
    if (!this.polling) folder.osWatch ??= this.watchOs(folder.path, (event, name) => this.onOsEvent(folder, event, name));
    let entries: Dirent[];
    try {
      entries = await fs.readdir(folder.path, { withFileTypes: true });
    } catch {
      return [];
    }
    const found: Folder[] = [];
    for (const entry of entries) {
      if (this.closed || folder.removed) return [];
      const path = join(folder.path, entry.name);
      if (folder.children.has(entry.name) || this.options.isIgnored(path)) continue;
      if (entry.isDirectory()) {
        const child = newFolder(path);
        folder.children.set(entry.name, child);
        found.push(child);
        if (announce) this.options.onEvent('addDir', path);
        continue;
      }
      const stats = this.polling ? await lstatOrNull(path).catch(() => null) : null;
      if (this.closed || folder.removed || folder.children.has(entry.name)) continue;
      folder.children.set(entry.name, stats ? signatureOf(stats) : '');
      if (announce) this.options.onEvent('add', path);
    }
    return found;
  }

  private watchOs(path: string, listener: (event: string, name: string | null) => void): FSWatcher | null {
    try {
      const osWatch = watchFolder(path, listener);
      // A folder that vanished or became unreadable: its parent's watch reports what happened to it.
      osWatch.on('error', () => osWatch.close());
      return osWatch;
    } catch (error) {
      if (RUN_OUT_OF_WATCHERS.has(errorCode(error))) this.switchToPolling();
      return null;
    }
  }

  private onOsEvent(folder: Folder, event: string, name: string | null): void {
    if (this.closed || folder.removed) return;
    if (name === null) {
      void this.reconcile(folder);
      return;
    }
    const known = folder.children.get(name);
    if (event === 'change' && typeof known === 'string') {
      this.options.onEvent('change', join(folder.path, name));
      return;
    }
    // A sub-folder's own watch reports what happens inside it; its attribute changes do not matter.
    if (event === 'change' && known !== undefined) return;
    void this.recheck(folder, name);
  }

  /** Something happened to one name in a folder: it appeared, went away, was replaced or changed kind. */
  private async recheck(folder: Folder, name: string): Promise<void> {
    const path = join(folder.path, name);
    if (this.options.isIgnored(path)) return;
    const stats = await lstatOrNull(path).catch(() => null);
    if (this.closed || folder.removed) return;
    const known = folder.children.get(name);
    if (!stats) {
      if (known !== undefined) this.forget(folder, name, known);
      // The OS names a watched folder itself when it is deleted or moved.
      else if (name === basename(folder.path)) await this.recheckSelf(folder);
      return;
    }
    if (stats.isDirectory()) {
      if (typeof known === 'object') return;
      if (known !== undefined) this.forget(folder, name, known);
      const child = newFolder(path);
      folder.children.set(name, child);
      this.options.onEvent('addDir', path);
      await this.scan(child, true);
      return;
    }
    if (typeof known === 'object') this.forget(folder, name, known);
    const existed = typeof folder.children.get(name) === 'string';
    folder.children.set(name, this.polling ? signatureOf(stats) : '');
    this.options.onEvent(existed ? 'change' : 'add', path);
  }

  /** A watched tree's top folder went away: report its contents gone and wait for it to come back. */
  private async recheckSelf(folder: Folder): Promise<void> {
    const target = [...this.trees].find(([, tree]) => tree === folder)?.[0];
    if (target === undefined || (await isFolder(target)) || this.closed || folder.removed) return;
    this.trees.delete(target);
    this.remove(folder);
    await this.waitFor(target);
  }

  /**
   * Brings one folder's children in line with the disk: new names are added, missing ones forgotten, and
   * when polling, files whose size or mtime moved are reported changed. Returns the sub-folders it kept.
   */
  private async reconcile(folder: Folder): Promise<Folder[]> {
    let names: Set<string>;
    try {
      names = new Set(await fs.readdir(folder.path));
    } catch (error) {
      // Gone: everything in it is gone too. Unreadable for now: nothing is known to have changed.
      const gone = errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR';
      if (!gone) return [...folder.children.values()].filter((child): child is Folder => typeof child === 'object');
      names = new Set();
    }
    if (this.closed || folder.removed) return [];
    for (const [name, known] of folder.children) if (!names.has(name)) this.forget(folder, name, known);
    const kept: Folder[] = [];
    for (const name of names) {
      const known = folder.children.get(name);
      if (typeof known === 'object') {
        kept.push(known);
        continue;
      }
      if (known === undefined) {
        await this.recheck(folder, name);
        continue;
      }
      if (!this.polling) continue;
      const stats = await lstatOrNull(join(folder.path, name)).catch(() => null);
      if (!stats || stats.isDirectory() || this.closed || folder.removed) {
        await this.recheck(folder, name);
        continue;
      }
      const signature = signatureOf(stats);
      if (signature === known) continue;
      folder.children.set(name, signature);
      // '' is a file first listed by OS events, before polling took over: now it has a signature to compare.
      if (known !== '') this.options.onEvent('change', join(folder.path, name));
    }
    return kept;
  }

  private forget(folder: Folder, name: string, known: Folder | string): void {
    folder.children.delete(name);
    if (typeof known === 'object') this.remove(known);
    else this.options.onEvent('unlink', join(folder.path, name));
  }

  /** Stops following a folder that went away, reporting everything in it gone, deepest first. */
  private remove(folder: Folder): void {
    for (const [name, child] of folder.children) {
      if (typeof child === 'object') this.remove(child);
      else this.options.onEvent('unlink', join(folder.path, name));
    }
    folder.children.clear();
    folder.removed = true;
    folder.osWatch?.close();
    folder.osWatch = null;
    this.options.onEvent('unlinkDir', folder.path);
  }

  /** Stops following a tree without reporting anything (it is no longer a target). */
  private close(folder: Folder): void {
    folder.removed = true;
    folder.osWatch?.close();
    folder.osWatch = null;
    for (const child of folder.children.values()) if (typeof child === 'object') this.close(child);
  }

  /** The OS ran out of watches: keep following the files by polling instead of going blind. */
  private switchToPolling(): void {
    if (this.polling) return;
    this.polling = true;
    for (const tree of this.trees.values()) this.closeOsWatches(tree);
    for (const waiting of this.waiting.values()) {
      waiting.osWatch?.close();
      waiting.osWatch = null;
    }
    this.schedulePoll();
  }

  private closeOsWatches(folder: Folder): void {
    folder.osWatch?.close();
    folder.osWatch = null;
    for (const child of folder.children.values()) if (typeof child === 'object') this.closeOsWatches(child);
  }

  private schedulePoll(): void {
    if (this.closed || this.pollTimer || this.starting > 0 || this.targets.length === 0) return;
    this.pollTimer = setTimeout(() => {
      void this.poll().finally(() => {
        this.pollTimer = null;
        this.schedulePoll();
      });
    }, this.options.pollIntervalMs);
  }

  private async poll(): Promise<void> {
    for (const tree of [...this.trees.values()]) await this.walkLevels(tree, (folder) => this.reconcile(folder));
    for (const waiting of [...this.waiting.values()]) await this.recheckWaiting(waiting);
  }
}
