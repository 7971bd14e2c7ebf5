import { join } from 'node:path';
import type {
  ConfigRootInfo,
  HomeDiscoveryProgress,
  HomeSnapshot,
  ProjectRef,
  ProjectSummary,
  ShellKind,
} from '../../../shared/model/home';
import type { SessionQuickInfo, SessionSummary } from '../../../shared/model/session';
import { CodedError } from '../../../shared/result';
import { statOrNull } from '../fs/readSafely';
import { readSessionQuickInfo } from '../layout/sessionQuickInfo';
import type { ConfigRootSpec } from '../layout/configRoots';
import { DiscoveryCache } from './discoveryCache';
import { discoverFolderSessions, discoverHome, projectKey, type DiscoveredHome } from './projectDiscovery';
import { Emitter } from '../events';

export interface HomeServiceOptions {
  readonly roots: readonly ConfigRootSpec[];
  /** The app's own data folder (catalog, history, demo copy); never under a config root. */
  readonly dataDir: string;
  /** A sample home shipped with the app, copied into the data folder when the user opens the demo. */
  readonly demoHomeSource: string | null;
  readonly shell: ShellKind;
  readonly readOnly: boolean;
  /**
   * Keep what discovery finds in the app data folder, and answer the first request from the last run's record
   * of the same config roots while the caller checks it with `confirmLastRun()`: the app shells, which push the
   * checked home to the UI. Without it nothing is written (one-shot CLI reads) and every start discovers.
   */
  readonly rememberAcrossRuns?: boolean;
  /**
   * Show the home as it is found when nothing is known of it yet (the app shells, whose UI lists projects as they come):
   * `firstSnapshot()` answers with the newest project and `onDidStreamHome` brings the rest. Others wait for all of it.
   */
  readonly streamFirstDiscovery?: boolean;
  /** Awaited after a streamed discovery's first part is out, before the rest is read: tests hold discovery there. */
  readonly afterFirstPart?: () => Promise<void>;
}

/** Copies the shipped sample home into the data folder (with what it brings besides transcripts) and returns the copy's path. */
export type DemoPreparer = (demoHomeSource: string, dataDir: string) => Promise<string>;

type HomeListener = (snapshot: HomeSnapshot) => void;

/** A streamed discovery's latest part: the home as far as it is read. */
interface HomePart {
  readonly home: DiscoveredHome;
  readonly progress: HomeDiscoveryProgress;
}

/** Owns the set of config roots and what was discovered in them; every shell's requests end up here. */
export class HomeService {
  private roots: readonly ConfigRootSpec[];
  private demo = false;
  private discovered: DiscoveredHome | null = null;
  private loading: Promise<DiscoveredHome> | null = null;
  /** Counts discoveries started, so an older one finishing late does not replace a newer result. */
  private discoveries = 0;
  private readonly discoveryCache: DiscoveryCache;
  /** The discovery record's latest save (see `recordInBackground`). */
  private recordSaved: Promise<void> = Promise.resolve();
  /** True while `discovered` is the last run's record, not yet checked against the disk. */
  private fromLastRun = false;
  private readonly homeEmitter = new Emitter<HomeSnapshot>();
  /** The latest part of the discovery under way, while it streams (see `streamFirstDiscovery`). */
  private part: HomePart | null = null;
  private readonly partEmitter = new Emitter<HomePart>();
  private readonly streamEmitter = new Emitter<HomeSnapshot>();

  constructor(private readonly options: HomeServiceOptions) {
    this.roots = options.roots;
    this.discoveryCache = new DiscoveryCache(options.rememberAcrossRuns ? join(options.dataDir, 'discovery', 'home.json') : null);
  }

  onDidChangeHome(listener: HomeListener): () => void {
    return this.homeEmitter.event(listener);
  }

  /**
   * While the first discovery streams: each part of the home as it is read, then the finished home (`discovering`
   * null). What the UI follows; `onDidChangeHome` listeners hear of none of these (for them, as for `getHome`, the
   * first home is the finished one).
   */
  onDidStreamHome(listener: HomeListener): () => void {
    return this.streamEmitter.event(listener);
  }

  async getHome(): Promise<HomeSnapshot> {
    return this.toSnapshot(await this.load());
  }

  /**
   * The home as the UI shows it first: the discovered one when there is one; while the first discovery streams, its
   * latest part (at the earliest the newest project), with `discovering` set. `onDidStreamHome` brings the rest.
   */
  async firstSnapshot(): Promise<HomeSnapshot> {
    if (this.discovered) return this.toSnapshot(this.discovered);
    if (this.part) return this.toSnapshot(this.part.home, this.part.progress);
    const whole = this.load();
    let stopListening = (): void => undefined;
    const firstPart = new Promise<HomePart>((resolve) => (stopListening = this.partEmitter.event(resolve)));
    try {
      const first = await Promise.race([whole.then((home) => ({ home, progress: null })), firstPart]);
      return this.toSnapshot(first.home, first.progress);
    } finally {
      stopListening();
    }
  }

  /** If the home being served is the last run's record, discovers it now and publishes the result. */
  async confirmLastRun(): Promise<void> {
    await this.load();
    if (this.fromLastRun) await this.refresh();
  }

  /** Discovers the home again; until that finishes, requests are answered from the previous discovery. */
  async refresh(): Promise<HomeSnapshot> {
    const snapshot = this.toSnapshot(await this.discover());
    this.emit(snapshot);
    return snapshot;
  }

  /**
   * The config roots this service reads, as configured, without discovering what is in them: enough to check that
   * a path lies in one, or to look a session up by its file name (a one-shot CLI call need not scan the home).
   */
  configRoots(): readonly string[] {
    return this.roots.map((root) => root.path);
  }

  /** Switches to a private copy of the shipped sample home, so the demo can be explored and edited safely. */
  async openDemo(prepareDemo: DemoPreparer): Promise<HomeSnapshot> {
    if (!this.options.demoHomeSource) throw new CodedError('NOT_FOUND', 'This build ships no demo data');
    const target = await prepareDemo(this.options.demoHomeSource, this.options.dataDir);
    this.roots = [{ path: target, source: 'demo' }];
    this.demo = true;
    // Nothing of the old home may be served while the demo is discovered.
    this.discovered = null;
    this.loading = null;
    return this.refresh();
  }

  /** The project `ref` names, as discovered; NOT_FOUND when the home has no such project. */
  async project(ref: ProjectRef): Promise<ProjectSummary> {
    return this.requireProject(await this.load(), ref);
  }

  /** What discovery read of each session file of a project (head and tail), newest first. */
  async discoveredSessions(ref: ProjectRef): Promise<readonly SessionQuickInfo[]> {
    const home = await this.load();
    this.requireProject(home, ref);
    return home.sessions.get(projectKey(ref.configRoot, ref.slug)) ?? [];
  }

  /**
   * What discovery has read of a project's sessions so far, without waiting for the rest of the home: from the
   * discovered home, else from the part of it streamed so far; null when neither holds the project yet.
   */
  sessionsReadSoFar(ref: ProjectRef): readonly SessionQuickInfo[] | null {
    const home = this.discovered ?? this.part?.home;
    return home?.sessions.get(projectKey(ref.configRoot, ref.slug)) ?? null;
  }

  /** The projects discovery has read so far, without waiting for it: the discovered home, else the part streamed so far. */
  projectsReadSoFar(): readonly ProjectSummary[] {
    return (this.discovered ?? this.part?.home)?.projects ?? [];
  }

  /**
   * The sessions of one project folder as discovery lists them (legacy summaries in other files of the folder title
   * them too): from the discovered home when there is one, else read from that folder alone, so looking one session
   * up (a one-shot CLI call) does not discover the whole home. Empty when the folder cannot be read.
   */
  async sessionsInFolder(ref: ProjectRef): Promise<SessionSummary[]> {
    if (this.discovered || this.loading) {
      const sessions = await this.discoveredSessions(ref).catch(() => []);
      return sessions.map((session) => ({ ...session, configRoot: ref.configRoot, slug: ref.slug }));
    }
    return discoverFolderSessions(ref, (file, id) => this.readSession(file, id));
  }

  /**
   * Every project whose sessions write to this memory folder: its own project and, since Claude Code keys auto
   * memory on the repository's root, the projects of sessions started in sub-folders of it. What the dream gate,
   * dreams and history attribution read the transcripts of.
   */
  async projectsUsingMemoryDir(memoryDir: string): Promise<ProjectSummary[]> {
    const home = await this.load();
    return home.projects.filter((project) => project.memoryDir === memoryDir);
  }

  /** Resolves once the discovery record is saved (it is written behind the answers). */
  async dispose(): Promise<void> {
    this.homeEmitter.dispose();
    this.partEmitter.dispose();
    this.streamEmitter.dispose();
    await this.recordSaved;
  }

  private requireProject(home: DiscoveredHome, ref: ProjectRef): ProjectSummary {
    const project = home.projects.find((p) => p.configRoot === ref.configRoot && p.slug === ref.slug);
    if (!project) throw new CodedError('NOT_FOUND', `No project ${ref.slug} under ${ref.configRoot}`);
    return project;
  }

  /** The current discovery: the last one made, else the one under way, else a new one. */
  private load(): Promise<DiscoveredHome> {
    if (this.discovered) return Promise.resolve(this.discovered);
    // Only the very first answer may come from the last run; later ones (after `openDemo`) look at the disk.
    return this.loading ?? this.discover(this.discoveries === 0 && this.options.rememberAcrossRuns === true, true);
  }

  /**
   * A discovery of the home; `streamable` ones (those that answer requests, not a `refresh()`, which publishes its own
   * result) are shown in parts when nothing is known of the home yet (see `streamFirstDiscovery`).
   */
  private discover(fromLastRunIfKnown = false, streamable = false): Promise<DiscoveredHome> {
    const generation = ++this.discoveries;
    const roots = this.roots;
    const discovery = (async () => {
      await this.discoveryCache.load();
      const lastRun = fromLastRunIfKnown ? this.discoveryCache.lastHome(roots) : null;
      // Only a home nothing is known of is shown in parts; a known one stays up until the new one is whole.
      const streams = streamable && !lastRun && this.discovered === null && this.options.streamFirstDiscovery === true;
      const stream = streams
        ? {
            onPart: (home: DiscoveredHome, progress: HomeDiscoveryProgress) => {
              if (generation !== this.discoveries) return;
              this.part = { home, progress };
              this.partEmitter.fire(this.part);
              this.streamEmitter.fire(this.toSnapshot(home, progress));
            },
            afterFirstPart: this.options.afterFirstPart,
          }
        : undefined;
      const home = lastRun ?? (await discoverHome(roots, (file, id) => this.readSession(file, id), stream));
      if (!lastRun) this.recordInBackground(roots, home);
      // A discovery that started later owns the result; this older one must not overwrite it.
      if (generation === this.discoveries) {
        this.discovered = home;
        this.fromLastRun = lastRun !== null;
        this.part = null;
        if (streams) this.streamEmitter.fire(this.toSnapshot(home, null));
      }
      return home;
    })();
    this.loading = discovery;
    return discovery;
  }

  /**
   * Saves a discovery for the next start without holding up its answer or the published home: a record of
   * thousands of sessions takes a while to write. Saves land in the order of the discoveries. Only a cache:
   * failing to save it costs the next start its speed, nothing else.
   */
  private recordInBackground(roots: readonly ConfigRootSpec[], home: DiscoveredHome): void {
    this.recordSaved = this.recordSaved.then(() => this.discoveryCache.record(roots, home)).catch(() => undefined);
  }

  private async readSession(file: string, sessionId: string): Promise<SessionQuickInfo> {
    const stats = await statOrNull(file);
    const cached = stats && this.discoveryCache.lookup(file, stats);
    if (cached) return cached;
    const info = await readSessionQuickInfo(file, sessionId);
    if (stats) this.discoveryCache.remember(file, stats, info);
    return info;
  }

  private toSnapshot(home: DiscoveredHome, discovering: HomeDiscoveryProgress | null = null): HomeSnapshot {
    const roots: readonly ConfigRootInfo[] = home.roots;
    return {
      roots,
      projects: home.projects,
      discovering,
      empty: !roots.some((root) => root.exists),
      demo: this.demo,
      dataDir: this.options.dataDir,
      readOnly: this.options.readOnly,
      shell: this.options.shell,
      warnings: roots.flatMap((root) => root.warnings),
    };
  }

  private emit(snapshot: HomeSnapshot): void {
    this.homeEmitter.fire(snapshot);
  }
}
