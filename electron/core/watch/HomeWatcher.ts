import { watch, type FSWatcher } from 'chokidar';
import { classifyChange, isIgnoredPath, type FileEvent, type WatchedChange } from './watchedChange';

export interface HomeWatcherOptions {
  readonly configRoots: readonly string[];
  /** Memory folders to watch too (auto memory moved by settings, agent memory inside projects). */
  readonly memoryDirs: readonly string[];
  /** Changes to one path within this window are delivered once, with the last event. */
  readonly debounceMs?: number;
  /** Start polling right away (tests, network folders); otherwise polling is the fallback when watchers run out. */
  readonly usePolling?: boolean;
}

type ChangeListener = (changes: readonly WatchedChange[]) => void;

const DEFAULT_DEBOUNCE_MS = 40;
const OWN_WRITE_WINDOW_MS = 2000;
const RUN_OUT_OF_WATCHERS = new Set(['ENOSPC', 'EMFILE']);

/**
 * One watcher over the config roots and the known memory folders. It batches events per path,
 * swallows the events of our own writes, and falls back to polling when the OS runs out of watchers.
 * Services subscribe with `onDidChange`; nothing here talks to a window or a socket.
 */
export class HomeWatcher {
  private watcher: FSWatcher | null = null;
  private polling: boolean;
  private memoryDirs: readonly string[];
  private readonly pending = new Map<string, FileEvent>();
  private flushTimer: NodeJS.Timeout | null = null;
  private readonly ownWrites = new Map<string, number>();
  private readonly listeners = new Set<ChangeListener>();
  private readonly errorListeners = new Set<(error: Error) => void>();

  constructor(private readonly options: HomeWatcherOptions) {
    this.polling = options.usePolling ?? false;
    this.memoryDirs = options.memoryDirs;
  }

  onDidChange(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  onDidError(listener: (error: Error) => void): () => void {
    this.errorListeners.add(listener);
    return () => this.errorListeners.delete(listener);
  }

  /** Resolves once the initial scan is done, so a change made after it is seen. */
  async start(): Promise<void> {
    await this.open();
  }

  /** Follows a new set of memory folders (projects appeared, settings moved a folder). */
  async setMemoryDirs(memoryDirs: readonly string[]): Promise<void> {
    const added = memoryDirs.filter((dir) => !this.memoryDirs.includes(dir));
    const removed = this.memoryDirs.filter((dir) => !memoryDirs.includes(dir));
    this.memoryDirs = memoryDirs;
    if (!this.watcher) return;
    if (removed.length > 0) await this.watcher.unwatch(removed.filter((dir) => !this.isUnderRoot(dir)));
    const outside = added.filter((dir) => !this.isUnderRoot(dir));
    if (outside.length > 0) this.watcher.add(outside);
  }

  /** Our own next write to this path is not a foreign change; its events are swallowed for a moment. */
  expectOwnWrite(path: string): void {
    this.ownWrites.set(path, Date.now() + OWN_WRITE_WINDOW_MS);
  }

  get isPolling(): boolean {
    return this.polling;
  }

  async dispose(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    this.pending.clear();
    this.listeners.clear();
    this.errorListeners.clear();
    await this.watcher?.close();
    this.watcher = null;
  }

  private isUnderRoot(dir: string): boolean {
    return this.options.configRoots.some((root) => dir === root || dir.startsWith(`${root}/`) || dir.startsWith(`${root}\\`));
  }

  private async open(): Promise<void> {
    const targets = [...this.options.configRoots, ...this.memoryDirs.filter((dir) => !this.isUnderRoot(dir))];
    // chokidar never reports ready for an empty list; with nothing to follow there is no watcher.
    if (targets.length === 0) return;
    const watcher = watch(targets, {
      ignoreInitial: true,
      followSymlinks: false,
      ignorePermissionErrors: true,
      usePolling: this.polling,
      interval: 200,
      binaryInterval: 500,
      ignored: (path) => isIgnoredPath(path),
    });
    this.watcher = watcher;
    watcher.on('all', (event, path) => this.queue(event as FileEvent, path));
    watcher.on('error', (error) => void this.onError(error as Error));
    await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  }

  private async onError(error: Error): Promise<void> {
    const code = (error as NodeJS.ErrnoException).code;
    if (code && RUN_OUT_OF_WATCHERS.has(code) && !this.polling) {
      // The OS ran out of watchers: keep following the files by polling instead of going blind.
      this.polling = true;
      await this.watcher?.close();
      await this.open();
      return;
    }
    for (const listener of this.errorListeners) listener(error);
  }

  private queue(event: FileEvent, path: string): void {
    const ownUntil = this.ownWrites.get(path);
    if (ownUntil !== undefined) {
      if (Date.now() <= ownUntil) return;
      this.ownWrites.delete(path);
    }
    this.pending.set(path, event);
    this.flushTimer ??= setTimeout(() => this.flush(), this.options.debounceMs ?? DEFAULT_DEBOUNCE_MS);
  }

  private flush(): void {
    this.flushTimer = null;
    const changes = [...this.pending].map(([path, event]) => classifyChange(event, path, this.options.configRoots, this.memoryDirs));
    this.pending.clear();
    if (changes.length === 0) return;
    for (const listener of this.listeners) listener(changes);
  }
}
