import { FolderTreeWatcher } from './FolderTreeWatcher';
import { classifyChange, isIgnoredPath, type FileEvent, type WatchedChange } from './watchedChange';
import { Emitter } from '../events';

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
/** Polling lists every followed folder and stats its files each round, so it cannot run much more often. */
const POLL_INTERVAL_MS = 200;

/**
 * One watcher over the config roots and the known memory folders. It batches events per path,
 * swallows the events of our own writes, and falls back to polling when the OS runs out of watchers.
 * Services subscribe with `onDidChange`; nothing here talks to a window or a socket.
 */
export class HomeWatcher {
  private readonly tree: FolderTreeWatcher;
  private memoryDirs: readonly string[];
  private readonly pending = new Map<string, FileEvent>();
  private flushTimer: NodeJS.Timeout | null = null;
  private readonly ownWrites = new Map<string, number>();
  private readonly changeEmitter = new Emitter<readonly WatchedChange[]>();

  constructor(private readonly options: HomeWatcherOptions) {
    this.memoryDirs = options.memoryDirs;
    this.tree = new FolderTreeWatcher({
      usePolling: options.usePolling ?? false,
      pollIntervalMs: POLL_INTERVAL_MS,
      isIgnored: isIgnoredPath,
      onEvent: (event, path) => this.queue(event, path),
    });
  }

  onDidChange(listener: ChangeListener): () => void {
    return this.changeEmitter.event(listener);
  }

  /** Resolves once the initial scan is done, so a change made after it is seen. */
  async start(): Promise<void> {
    await this.tree.follow(this.targets());
  }

  /** Follows a new set of memory folders (projects appeared, settings moved a folder). */
  async setMemoryDirs(memoryDirs: readonly string[]): Promise<void> {
    this.memoryDirs = memoryDirs;
    await this.tree.follow(this.targets());
  }

  /** Our own next write to this path is not a foreign change; its events are swallowed for a moment. */
  expectOwnWrite(path: string): void {
    this.ownWrites.set(path, Date.now() + OWN_WRITE_WINDOW_MS);
  }

  get isPolling(): boolean {
    return this.tree.isPolling;
  }

  dispose(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    this.pending.clear();
    this.changeEmitter.dispose();
    this.tree.dispose();
    return Promise.resolve();
  }

  /** Memory folders inside a config root are followed with it; the tree watcher drops such nested targets. */
  private targets(): string[] {
    return [...this.options.configRoots, ...this.memoryDirs];
  }

  private queue(event: FileEvent, path: string): void {
    const ownUntil = this.ownWrites.get(path);
    if (ownUntil !== undefined) {
      if (Date.now() <= ownUntil) return;
      this.ownWrites.delete(path);
    }
    // A file created and then written within the window is still new to the listeners.
    if (!(event === 'change' && this.pending.get(path) === 'add')) this.pending.set(path, event);
    this.flushTimer ??= setTimeout(() => this.flush(), this.options.debounceMs ?? DEFAULT_DEBOUNCE_MS);
  }

  private flush(): void {
    this.flushTimer = null;
    const changes = [...this.pending].map(([path, event]) => classifyChange(event, path, this.options.configRoots, this.memoryDirs));
    this.pending.clear();
    if (changes.length === 0) return;
    this.changeEmitter.fire(changes);
  }
}
