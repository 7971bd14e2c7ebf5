import type { BaselineEntry, MemoryBaseline } from './memoryBaseline';

export type OverlayRead =
  | { readonly kind: 'text'; readonly content: string }
  | { readonly kind: 'missing' }
  | { readonly kind: 'folder' }
  | { readonly kind: 'unreadable'; readonly reason: string };

export interface OverlayEntry {
  readonly name: string;
  readonly type: 'file' | 'folder' | 'symlink';
  readonly bytes: number | null;
}

/** A staged change against the baseline: new text, or null for a deletion. */
export interface StagedChange {
  readonly path: string;
  readonly base: BaselineEntry | null;
  readonly after: string | null;
}

/**
 * The memory folder as the model sees it during a job: the baseline with the job's own writes and
 * deletions laid over it. Nothing here touches the disk.
 */
export class StagingOverlay {
  private staged = new Map<string, string | null>();

  constructor(readonly baseline: MemoryBaseline) {}

  read(rel: string): OverlayRead {
    if (this.staged.has(rel)) {
      const content = this.staged.get(rel);
      return content === null || content === undefined ? { kind: 'missing' } : { kind: 'text', content };
    }
    const base = this.baseline.files.get(rel);
    if (base?.kind === 'text') return { kind: 'text', content: base.content };
    if (base?.kind === 'opaque') return { kind: 'unreadable', reason: base.reason };
    if (base?.kind === 'symlink') return { kind: 'unreadable', reason: 'a symlink (never followed)' };
    return this.isFolder(rel) ? { kind: 'folder' } : { kind: 'missing' };
  }

  /** Whether a path names a folder: the root, a folder on disk, or a parent of a live file. */
  isFolder(rel: string): boolean {
    if (rel === '' || this.baseline.dirs.has(rel)) return true;
    const prefix = `${rel}/`;
    return this.livePaths().some((path) => path.startsWith(prefix));
  }

  /** Files (and symlinks) that exist in the overlay view: the baseline minus deletions plus additions. */
  livePaths(): string[] {
    const paths = new Set<string>();
    for (const path of this.baseline.files.keys()) if (this.staged.get(path) !== null) paths.add(path);
    for (const [path, content] of this.staged) if (content !== null) paths.add(path);
    return [...paths].sort();
  }

  /** The direct children of a folder in the overlay view. */
  list(rel: string): OverlayEntry[] {
    const prefix = rel === '' ? '' : `${rel}/`;
    const entries = new Map<string, OverlayEntry>();
    for (const path of this.livePaths()) {
      if (!path.startsWith(prefix)) continue;
      const [name, ...rest] = path.slice(prefix.length).split('/');
      if (rest.length > 0) {
        entries.set(name, { name, type: 'folder', bytes: null });
        continue;
      }
      const read = this.read(path);
      const base = this.baseline.files.get(path);
      const type = base?.kind === 'symlink' && !this.staged.has(path) ? 'symlink' : 'file';
      const bytes = read.kind === 'text' ? Buffer.byteLength(read.content) : base && base.kind !== 'symlink' ? base.bytes : null;
      entries.set(name, { name, type, bytes });
    }
    for (const dir of this.baseline.dirs) {
      if (!dir.startsWith(prefix)) continue;
      const [name] = dir.slice(prefix.length).split('/');
      if (name && !entries.has(name)) entries.set(name, { name, type: 'folder', bytes: null });
    }
    return [...entries.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  write(rel: string, content: string): void {
    this.staged.set(rel, content);
  }

  delete(rel: string): void {
    this.staged.set(rel, null);
  }

  isStaged(rel: string): boolean {
    return this.staged.has(rel);
  }

  stagedCount(): number {
    return this.staged.size;
  }

  /** A copy of the staged changes, to return to if later work is abandoned. */
  checkpoint(): ReadonlyMap<string, string | null> {
    return new Map(this.staged);
  }

  restore(checkpoint: ReadonlyMap<string, string | null>): void {
    this.staged = new Map(checkpoint);
  }

  /** Every staged change that really differs from the baseline, in path order. */
  changes(): StagedChange[] {
    const changes: StagedChange[] = [];
    for (const [path, after] of [...this.staged].sort(([a], [b]) => a.localeCompare(b))) {
      const base = this.baseline.files.get(path) ?? null;
      const before = base?.kind === 'text' ? base.content : null;
      if (after === before) continue;
      if (after === null && base === null) continue;
      changes.push({ path, base, after });
    }
    return changes;
  }
}
