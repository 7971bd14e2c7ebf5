import { join, sep } from 'node:path';
import { statOrNull } from '../fs/readSafely';
import {
  listFolderTargets,
  memorySearchFolders,
  newestFirst,
  projectFolders,
  type ArchivedSearchTarget,
  type FolderLister,
  type MemoryFolderTarget,
  type SearchFolder,
  type SearchTarget,
} from './searchCorpus';

/** A file or folder that changed on disk, as the engine's watchers and its own writes report it. */
export interface ListingChange {
  readonly event: 'add' | 'change' | 'unlink' | 'addDir' | 'unlinkDir';
  readonly path: string;
}

interface Kept {
  /** The roots and memory folders the listing was made for: when they change, it is made again. */
  readonly key: string;
  readonly roots: readonly string[];
  readonly folders: readonly SearchFolder[];
  /** The files of each folder, in the order of `folders`. */
  readonly files: SearchTarget[][];
  /** Where each listed file is: its folder's index. */
  readonly folderOfPath: Map<string, number>;
}

/**
 * The app's search listing, kept between searches: listing every folder and stat'ing every file took ~40% of a
 * search's first hit on the medium home, so the app lists once and then follows what its watchers report. A file
 * that changed is stat'ed again; a folder where a file came or went is listed again; a new project folder or other
 * roots or memory folders list everything again. The next search then reads the files in their new newest-first
 * place. A change the watchers have not reported yet (they debounce for 40 ms) is not seen by a search that starts
 * within that time; such a file is read in its old place, with its old size.
 */
export class KeptSearchListing {
  private kept: Kept | null = null;
  private building = false;
  /** Counts `reset` calls: a listing whose making a reset overlapped is used once, not kept. */
  private resets = 0;
  /** Changes since the listing was made or last brought up to date; the last event of each path. */
  private readonly pending = new Map<string, ListingChange['event']>();

  changed(changes: readonly ListingChange[]): void {
    if (!this.kept && !this.building) return;
    for (const change of changes) this.pending.set(change.path, change.event);
  }

  /** Forgets the listing: the next search lists everything again. */
  reset(): void {
    this.kept = null;
    this.pending.clear();
    this.resets++;
  }

  async current(
    roots: readonly string[],
    memoryFolders: Promise<readonly MemoryFolderTarget[] | null>,
    listFolders: FolderLister,
    archived: readonly ArchivedSearchTarget[],
  ): Promise<SearchTarget[]> {
    const memory = await memoryFolders;
    const key = JSON.stringify([roots, memory]);
    let kept = this.kept;
    if (!kept || kept.key !== key || !(await this.bringUpToDate(kept, listFolders))) {
      kept = await this.build(key, roots, memory, listFolders);
    }
    return newestFirst(kept.files.flat(), roots, archived);
  }

  private async build(
    key: string,
    roots: readonly string[],
    memory: readonly MemoryFolderTarget[] | null,
    listFolders: FolderLister,
  ): Promise<Kept> {
    this.kept = null;
    this.pending.clear();
    this.building = true;
    const resets = this.resets;
    try {
      const { projects, defaultMemory } = await projectFolders(roots);
      const folders = [...projects, ...memorySearchFolders(memory ?? defaultMemory)];
      const files = await listFolderTargets(folders, listFolders);
      const folderOfPath = new Map<string, number>();
      for (const [index, listed] of files.entries()) for (const file of listed) folderOfPath.set(file.path, index);
      const kept = { key, roots, folders, files, folderOfPath };
      if (resets === this.resets) this.kept = kept;
      return kept;
    } finally {
      this.building = false;
    }
  }

  /** Applies the pending changes; false when one needs a whole new listing (a project folder came or went). */
  private async bringUpToDate(kept: Kept, listFolders: FolderLister): Promise<boolean> {
    if (this.pending.size === 0) return true;
    const changes = [...this.pending];
    this.pending.clear();
    const relist = new Set<number>();
    const restat = new Set<string>();
    for (const [path, event] of changes) {
      const folder = this.folderHolding(kept, path);
      if (folder === null) {
        if (this.insideProjects(kept, path)) return false;
        continue;
      }
      // A new file's events may come as one `change` (the watchers keep a path's last event), so an unknown path lists its folder.
      if (event === 'change' && kept.folderOfPath.get(path) === folder) restat.add(path);
      else relist.add(folder);
    }
    for (const path of restat) {
      const folder = kept.folderOfPath.get(path)!;
      if (relist.has(folder)) continue;
      const stats = await statOrNull(path);
      const at = kept.files[folder].findIndex((file) => file.path === path);
      if (!stats?.isFile() || at < 0) relist.add(folder);
      else kept.files[folder][at] = { ...kept.files[folder][at], size: stats.size, mtimeMs: stats.mtimeMs };
    }
    if (relist.size === 0) return true;
    const indexes = [...relist];
    const listed = await listFolderTargets(
      indexes.map((index) => kept.folders[index]),
      listFolders,
    );
    for (const [position, index] of indexes.entries()) {
      for (const file of kept.files[index]) kept.folderOfPath.delete(file.path);
      kept.files[index] = listed[position];
      for (const file of listed[position]) kept.folderOfPath.set(file.path, index);
    }
    return true;
  }

  /** The kept folder that holds `path` (the deepest, as memory folders may sit inside others), or null. */
  private folderHolding(kept: Kept, path: string): number | null {
    let found: number | null = null;
    for (const [index, folder] of kept.folders.entries()) {
      if (
        (path === folder.dir || path.startsWith(folder.dir + sep)) &&
        (found === null || folder.dir.length > kept.folders[found].dir.length)
      )
        found = index;
    }
    return found;
  }

  private insideProjects(kept: Kept, path: string): boolean {
    return kept.roots.some((root) => path.startsWith(join(root, 'projects') + sep));
  }
}
