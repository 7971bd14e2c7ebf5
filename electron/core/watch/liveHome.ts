import type { HomeSnapshot } from '../../../shared/model/home';
import type { HomeService } from '../home/HomeService';
import { Emitter } from '../events';
import { HomeWatcher } from './HomeWatcher';
import type { WatchedChange } from './watchedChange';

/** Project list changes worth a rescan: sessions or memory files appearing or going, folders, settings. */
function changesProjectList(change: WatchedChange): boolean {
  switch (change.kind) {
    case 'transcript':
    case 'memory-file':
      return change.event === 'add' || change.event === 'unlink';
    case 'project-folder':
    case 'settings':
      return true;
    default:
      return false;
  }
}

const RESCAN_DELAY_MS = 300;

export interface LiveHome {
  /**
   * Resolves once the watcher has been started and made its first scan: a change made after that is reported.
   * Until then the app already answers requests (a warm start must not wait for a scan of the whole home);
   * work that must not miss a change, such as a full catalog refresh, waits for it.
   */
  readonly ready: Promise<void>;
  /** Starts watching (once); the engine does so after the first page's data has been read. */
  start(): void;
  /** Every batch of changes, from whichever watcher currently follows the home. */
  onDidChange(listener: (changes: readonly WatchedChange[]) => void): () => void;
  /** Our own next write to this path is not a foreign change. */
  expectOwnWrite(path: string): void;
  /** This app added or removed a file the project list counts: rescan it soon, as a foreign change would. */
  rescanSoon(): void;

  /** Every own write announced through `expectOwnWrite` (history holds such a change back until the app journals it). */
  onDidExpectOwnWrite(listener: (path: string) => void): () => void;
  dispose(): Promise<void>;
}

/** Memory folders that live outside every config root need their own watch. */
function memoryDirsOf(snapshot: HomeSnapshot): string[] {
  return [...new Set(snapshot.projects.map((p) => p.memoryDir))].sort();
}

function watcherFor(snapshot: HomeSnapshot, usePolling: boolean | undefined): HomeWatcher {
  return new HomeWatcher({
    configRoots: snapshot.roots.filter((r) => r.exists).map((r) => r.path),
    memoryDirs: memoryDirsOf(snapshot),
    usePolling,
  });
}

/** A live home that is watching already (see `createLiveHome`). */
export function startLiveHome(home: HomeService, options: { usePolling?: boolean } = {}): LiveHome {
  const live = createLiveHome(home, options);
  live.start();
  return live;
}

/**
 * Keeps a HomeService current: watches its roots and memory folders and rescans (from the session cache,
 * so cheaply) when sessions, memory files or projects come and go. Other services subscribe to its changes.
 * Nothing is watched until `start()`; the watcher then starts in the background (see `ready`).
 */
export function createLiveHome(home: HomeService, options: { usePolling?: boolean } = {}): LiveHome {
  let snapshot: HomeSnapshot | null = null;
  let watcher: HomeWatcher | null = null;
  let disposed = false;
  let timer: NodeJS.Timeout | null = null;
  const changeEmitter = new Emitter<readonly WatchedChange[]>();
  // Own writes announced before the watcher exists are handed to it when it does.
  const ownWritesBeforeStart: string[] = [];
  const ownWriteEmitter = new Emitter<string>();

  const rescanSoon = () => {
    if (disposed) return;
    timer ??= setTimeout(() => {
      timer = null;
      void home.refresh();
    }, RESCAN_DELAY_MS);
  };

  const follow = async (next: HomeSnapshot): Promise<void> => {
    const created = watcherFor(next, options.usePolling);
    for (const path of ownWritesBeforeStart.splice(0)) created.expectOwnWrite(path);
    created.onDidChange((changes) => {
      changeEmitter.fire(changes);
      if (changes.some(changesProjectList)) rescanSoon();
    });
    watcher = created;
    await created.start();
  };

  let begin!: () => void;
  const started = new Promise<void>((resolve) => (begin = resolve));
  const ready = (async () => {
    await started;
    if (disposed) return;
    const first = await home.getHome();
    if (disposed) return;
    snapshot = first;
    await follow(first);
  })();
  // Whoever awaits `ready` sees a failed start; nobody awaiting it must not crash the process.
  ready.catch(() => undefined);

  // Home changes are applied one after another, after the start, so two watchers never overlap.
  let applying: Promise<void> = ready.catch(() => undefined);
  const unsubscribe = home.onDidChangeHome((next) => {
    applying = applying
      .then(async () => {
        if (disposed || !watcher || !snapshot) return;
        const rootsChanged = next.roots.map((r) => r.path).join('\0') !== snapshot.roots.map((r) => r.path).join('\0');
        snapshot = next;
        if (!rootsChanged) return watcher.setMemoryDirs(memoryDirsOf(next));
        // The demo home (or another root) replaced the old one: watch the new folders instead.
        await watcher.dispose();
        if (!disposed) await follow(next);
      })
      .catch(() => undefined);
  });

  return {
    ready,
    start: () => begin(),
    onDidChange: changeEmitter.event,
    expectOwnWrite(path) {
      if (watcher) watcher.expectOwnWrite(path);
      else ownWritesBeforeStart.push(path);
      ownWriteEmitter.fire(path);
    },
    onDidExpectOwnWrite: ownWriteEmitter.event,
    rescanSoon,
    async dispose() {
      disposed = true;
      begin();
      changeEmitter.dispose();
      ownWriteEmitter.dispose();
      unsubscribe();
      if (timer) clearTimeout(timer);
      // Closed first, so a first scan still running stops instead of being waited for; then once more, in case
      // a change being applied had just made another.
      await watcher?.dispose();
      await applying;
      await watcher?.dispose();
    },
  };
}
