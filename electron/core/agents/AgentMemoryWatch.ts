import { join, sep } from 'node:path';
import { SNAPSHOTS_FOLDER } from '../../../shared/agents/snapshotStatus';
import type { HomeSnapshot } from '../../../shared/model/home';
import { statOrNull } from '../fs/readSafely';
import type { HomeService } from '../home/HomeService';
import type { LiveHome } from '../watch/liveHome';
import { HomeWatcher } from '../watch/HomeWatcher';
import { DisposableStore, Emitter } from '../events';

/** The folders below a config root or a project's `.claude` that hold one sub-folder per agent type. */
const USER_BASE = 'agent-memory';
const PROJECT_BASES = ['agent-memory', 'agent-memory-local', SNAPSHOTS_FOLDER];

/** The agent folder (`<base>/<agentType>`) a changed path lies in, or null when it is in none. */
function agentFolderOf(path: string, bases: readonly string[]): string | null {
  for (const base of bases) {
    if (!path.startsWith(base + sep)) continue;
    const agentType = path.slice(base.length + 1).split(sep)[0];
    return agentType ? join(base, agentType) : null;
  }
  return null;
}

async function projectClaudeDirs(snapshot: HomeSnapshot): Promise<string[]> {
  const dirs = new Set<string>();
  for (const project of snapshot.projects) {
    if (!project.path) continue;
    const dir = join(project.path, '.claude');
    if ((await statOrNull(dir))?.isDirectory()) dirs.add(dir);
  }
  return [...dirs].sort();
}

/**
 * Follows agent memory as Claude Code writes it: user-scope folders through the live home's watcher (they lie
 * under the config root), project- and local-scope folders and snapshots through a watcher over each project's
 * `.claude` folder. Reports which agent folders (memory or snapshot) changed.
 */
export class AgentMemoryWatch {
  private readonly changeEmitter = new Emitter<readonly string[]>();
  private readonly subscriptions = new DisposableStore();
  private projectDirs: readonly string[] = [];
  private userBases: readonly string[] = [];

  private watcher: HomeWatcher | null = null;
  /** The newest home published before the watcher existed, if any. */
  private homeBeforeWatcher: HomeSnapshot | null = null;
  private disposed = false;
  // Own writes announced before the watcher exists are handed to it when it does.
  private readonly ownWritesBeforeStart: string[] = [];
  /** Resolves once both watchers have made their first scan (see LiveHome.ready). */
  readonly ready: Promise<void>;
  /** This class's own part of the start: finding the project folders and watching them. */
  private readonly begun: Promise<void>;

  private constructor(
    private readonly home: HomeService,
    private readonly live: LiveHome,
    private readonly usePolling: boolean | undefined,
  ) {
    this.begun = this.begin();
    this.ready = Promise.all([this.begun, live.ready]).then(() => undefined);
    // Whoever awaits `ready` sees a failed start; nobody awaiting it must not crash the process.
    this.ready.catch(() => undefined);
  }

  /** Returns at once; the project folders are found and watched in the background (see `ready`). */
  static start(home: HomeService, live: LiveHome, options: { usePolling?: boolean } = {}): AgentMemoryWatch {
    return new AgentMemoryWatch(home, live, options.usePolling);
  }

  private async begin(): Promise<void> {
    // Subscribed before the first look: a home published while the project folders are being found is not missed.
    this.subscriptions.add(
      this.home.onDidChangeHome((next) => {
        if (!this.watcher) this.homeBeforeWatcher = next;
        void this.follow(next);
      }),
    );
    const snapshot = await this.home.getHome();
    const projectDirs = await projectClaudeDirs(snapshot);
    if (this.disposed) return;
    const watcher = new HomeWatcher({ configRoots: [], memoryDirs: projectDirs, usePolling: this.usePolling });
    for (const path of this.ownWritesBeforeStart.splice(0)) watcher.expectOwnWrite(path);
    this.watcher = watcher;
    this.projectDirs = projectDirs;
    this.userBases = snapshot.roots.map((root) => join(root.path, USER_BASE));
    this.subscriptions.add(
      watcher.onDidChange((changes) =>
        this.report(
          changes.map((change) => change.path),
          this.projectBases(),
        ),
      ),
    );
    this.subscriptions.add(
      this.live.onDidChange((changes) =>
        this.report(
          changes.map((change) => change.path),
          this.userBases,
        ),
      ),
    );
    await watcher.start();
    // A follow made before the watcher existed had nothing to point at: point it at that home now.
    if (this.homeBeforeWatcher && !this.disposed) await this.follow(this.homeBeforeWatcher);
  }

  onDidChange(listener: (folders: readonly string[]) => void): () => void {
    return this.changeEmitter.event(listener);
  }

  /** Our own next write to this path is not Claude Code's: neither watcher reports it. */
  expectOwnWrite(path: string): void {
    if (this.watcher) this.watcher.expectOwnWrite(path);
    else this.ownWritesBeforeStart.push(path);
    this.live.expectOwnWrite(path);
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    // Closed first, so a first scan still running stops instead of being waited for.
    await this.watcher?.dispose();
    await this.begun.catch(() => undefined);
    this.subscriptions.dispose();
    this.changeEmitter.dispose();
    await this.watcher?.dispose();
  }

  private projectBases(): string[] {
    return this.projectDirs.flatMap((dir) => PROJECT_BASES.map((base) => join(dir, base)));
  }

  private report(paths: readonly string[], bases: readonly string[]): void {
    const folders = [...new Set(paths.map((path) => agentFolderOf(path, bases)).filter((f): f is string => f !== null))].sort();
    if (folders.length === 0) return;
    this.changeEmitter.fire(folders);
  }

  /** Projects came or went, or another home was opened: follow its folders instead. */
  private async follow(snapshot: HomeSnapshot): Promise<void> {
    this.userBases = snapshot.roots.map((root) => join(root.path, USER_BASE));
    this.projectDirs = await projectClaudeDirs(snapshot);
    await this.watcher?.setMemoryDirs(this.projectDirs);
  }
}
