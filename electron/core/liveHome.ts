import type { HomeSnapshot } from '../../shared/model/home';
import type { HomeService } from './home/HomeService';
import { HomeWatcher } from './watch/HomeWatcher';
import type { WatchedChange } from './watch/watchedChange';

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
  /** Every batch of changes, from whichever watcher currently follows the home. */
  onDidChange(listener: (changes: readonly WatchedChange[]) => void): () => void;
  /** Our own next write to this path is not a foreign change. */
  expectOwnWrite(path: string): void;
  dispose(): Promise<void>;
}

/** Memory folders that live outside every config root need their own watch. */
function memoryDirsOf(snapshot: HomeSnapshot): string[] {
  return [...new Set(snapshot.projects.map((p) => p.memoryDir))].sort();
}

/**
 * Keeps a HomeService current: watches its roots and memory folders and rescans (from the session cache,
 * so cheaply) when sessions, memory files or projects come and go. Other services subscribe to its changes.
 */
export async function startLiveHome(home: HomeService, options: { usePolling?: boolean } = {}): Promise<LiveHome> {
  let snapshot = await home.getHome();
  let watcher = new HomeWatcher({
    configRoots: snapshot.roots.filter((r) => r.exists).map((r) => r.path),
    memoryDirs: memoryDirsOf(snapshot),
    usePolling: options.usePolling,
  });
  let timer: NodeJS.Timeout | null = null;
  const listeners = new Set<(changes: readonly WatchedChange[]) => void>();
  const listen = (w: HomeWatcher) =>
    w.onDidChange((changes) => {
      for (const listener of listeners) listener(changes);
      if (!changes.some(changesProjectList)) return;
      timer ??= setTimeout(() => {
        timer = null;
        void home.refresh();
      }, RESCAN_DELAY_MS);
    });
  listen(watcher);
  await watcher.start();
  const unsubscribe = home.onDidChangeHome((next) => {
    const rootsChanged = next.roots.map((r) => r.path).join('\0') !== snapshot.roots.map((r) => r.path).join('\0');
    snapshot = next;
    if (rootsChanged) {
      // The demo home (or another root) replaced the old one: watch the new folders instead.
      void watcher.dispose().then(async () => {
        watcher = new HomeWatcher({
          configRoots: next.roots.filter((r) => r.exists).map((r) => r.path),
          memoryDirs: memoryDirsOf(next),
          usePolling: options.usePolling,
        });
        listen(watcher);
        await watcher.start();
      });
    } else {
      void watcher.setMemoryDirs(memoryDirsOf(next));
    }
  });
  return {
    onDidChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    expectOwnWrite(path) {
      watcher.expectOwnWrite(path);
    },
    async dispose() {
      listeners.clear();
      unsubscribe();
      if (timer) clearTimeout(timer);
      await watcher.dispose();
    },
  };
}
