import { join } from 'node:path';
import type { RequestHandlers } from '../../shared/contract/api';
import { AgentMemoryWatch } from './agents/AgentMemoryWatch';
import { AgentSnapshotService } from './agents/AgentSnapshotService';
import { createRequestHandlers } from './createRequestHandlers';
import { forwardEngineEvents, type EventSink } from './engineEvents';
import { AsyncDisposableStore } from './events';
import { ChangeSetWriter } from './changes/changeSetWriter';
import { HistoryService } from './history/HistoryService';
import { HistoryStore } from './changes/HistoryStore';
import { HomeService, type HomeServiceOptions } from './home/HomeService';
import { testDiscoveryGateFrom } from './home/discoveryGate';
import { BackgroundJobScheduler } from './jobs/BackgroundJobScheduler';
import { JobService } from './jobs/JobService';
import { ReviewInbox } from './jobs/ReviewInbox';
import { createLiveHome } from './watch/liveHome';
import type { EngineServices } from './engineServices';
import { MemoryFixService } from './memory/MemoryFixService';
import { MemoryFolderAnalyzer } from './memory/memoryFolderAnalyzer';
import { MemoryReviewService } from './memory/MemoryReviewService';
import { testReadDelayFrom } from './memory/scanProgress';
import { llmEnvironmentFrom, LlmSettingsService, type LlmEnvironment } from './settings/LlmSettingsService';
import { SessionSecretStore, type SecretStore } from './settings/secretStore';
import { TranscriptService } from './transcripts/TranscriptService';
import { SAVED_LINE_INDEX_FOLDER, SavedLineIndexes } from './transcripts/savedLineIndexes';
import { CatalogService } from './catalog/CatalogService';
import { SearchService } from './search/SearchService';
import { archiveDir } from './history/archive/archiveDir';
import { ArchiveBackedTranscriptFeed } from './history/archive/ArchiveBackedTranscriptFeed';
import { LineIndexKeeper } from './catalog/LineIndexKeeper';
import { ArchiveService } from './history/archive/ArchiveService';
import { TranscriptArchive } from './history/archive/TranscriptArchive';
import { TranscriptSources } from './transcripts/transcriptSources';
import { listAgentMemories } from './agents/agentMemoryListing';

export interface EngineOptions extends HomeServiceOptions {
  /** Follow the files as they change (the app shells); one-shot CLI commands leave it off. */
  readonly watch: boolean;
  /** Where a typed API key is kept and what the environment says; default: memory only, ANTHROPIC_* from process.env. */
  readonly llm?: { readonly secrets: SecretStore; readonly environment: LlmEnvironment };
  /** The built catalog scan worker (see `bundledScanWorkerScript`); without it catalog builds use one thread. */
  readonly catalogScanWorker?: string | null;
}

export interface Engine extends EngineServices {
  readonly handlers: RequestHandlers;
  /**
   * Resolves once the watchers have made their first scan of the home (at once without `watch`). Requests are
   * answered before that, so a warm start shows its first page without waiting for a scan of the whole home.
   */
  readonly ready: Promise<void>;
  /** Sends every engine event to one shell's sink; returns the unsubscribe. */
  subscribe(sink: EventSink): () => void;
  dispose(): Promise<void>;
}

/** Builds the engine for one shell (Electron main, web server or CLI). */
export async function createEngine(options: EngineOptions): Promise<Engine> {
  const home = new HomeService({
    ...options,
    rememberAcrossRuns: options.watch,
    streamFirstDiscovery: options.watch,
    afterFirstPart: options.afterFirstPart ?? testDiscoveryGateFrom(process.env),
  });
  const live = options.watch ? createLiveHome(home) : null;
  const historyDir = join(options.dataDir, 'history');
  const history = new HistoryStore(historyDir);
  // Agent memory inside projects has its own watcher; it tells the live home of an own write as well.
  const agentWatch = live ? AgentMemoryWatch.start(home, live) : null;
  const writer = new ChangeSetWriter({ history, onOwnWrite: (path) => (agentWatch ?? live)?.expectOwnWrite(path) });
  // The watcher passes over this app's own writes, so a memory file added or removed here rescans the project list itself.
  writer.onDidWrite((written) => {
    if (written.written.some((file) => file.event !== 'change')) live?.rescanSoon();
  });
  const transcriptArchive = new TranscriptArchive(archiveDir(options.dataDir));
  // Reconstruction reads what Claude Code's cleanup deleted from the archive's copies.
  const transcriptFeed = new ArchiveBackedTranscriptFeed(transcriptArchive);
  const memoryHistory = new HistoryService({ home, store: history, historyDir, live, writer, transcriptFeed });
  if (live) memoryHistory.start();
  agentWatch?.onDidChange((folders) => memoryHistory.foldersChanged(folders));
  const agentSnapshots = new AgentSnapshotService({ listAgents: () => listAgentMemories(home), writer });
  const llm = options.llm ?? { secrets: new SessionSecretStore(), environment: llmEnvironmentFrom(process.env, { useApiKey: true }) };
  const llmSettings = new LlmSettingsService(options.dataDir, llm.secrets, llm.environment);
  const jobs = new JobService({ home, llm: llmSettings, writer, dataDir: options.dataDir });
  const inbox = new ReviewInbox(jobs);
  // One analyzer for the review and its fixes: a plan reads the folder as warm as the page that asked for it.
  const analyzer = new MemoryFolderAnalyzer();
  const memory = new MemoryReviewService({ home, writer, live, analyzer, testReadDelayMs: testReadDelayFrom(process.env) });
  const memoryFixes = new MemoryFixService({ home, writer, analyzer });
  // Edits by Claude Code, an editor or this app may leave a waiting proposal stale.
  const stopStaleness = memory.onDidChangeMemory((change) => void inbox.folderChanged(change.folder));
  const transcriptSources = new TranscriptSources(transcriptArchive);
  const savedLineIndexes = new SavedLineIndexes(join(options.dataDir, SAVED_LINE_INDEX_FOLDER));
  const transcripts = new TranscriptService(home, live, undefined, transcriptSources, savedLineIndexes);
  const roots = options.roots.map((root) => root.path);
  const catalog = new CatalogService({
    home,
    live,
    dataDir: options.dataDir,
    roots,
    scanWorker: options.catalogScanWorker ?? null,
    archive: transcriptArchive,
  });
  // Made before the archive service, so it hears of a finished build first and its run is going when the archive asks.
  const lineIndexes = new LineIndexKeeper({ catalog, savedIndexes: savedLineIndexes, follow: live !== null });
  const archive = new ArchiveService({
    archive: transcriptArchive,
    catalog,
    home,
    follow: live !== null,
    waitBeforeRun: () => lineIndexes.whenIdle(),
  });
  if (live) {
    // A warm start shows the first page from what the last run saved (home and catalog) before anything else runs:
    // checking the home and the watcher's scan of it would queue thousands of reads ahead of it on the I/O pool.
    void catalog
      .preloadCache()
      .then(() => home.confirmLastRun())
      .catch(() => undefined)
      .finally(() => live.start());
  }
  const search = new SearchService({
    home,
    roots,
    archived: () => transcriptArchive.searchTargets(),
    follow: live ? { live, agentWatch, writer } : undefined,
  });
  const background = new BackgroundJobScheduler({
    home,
    jobs,
    inbox,
    catalog,
    live,
    writer,
    dataDir: options.dataDir,
    readOnly: options.readOnly,
  });
  // At start, once the watcher follows the home, so no session change between the first check and the events is missed.
  if (live) void live.ready.then(() => background.start()).catch(() => undefined);
  // The agent watch's own `ready` includes the live home's; it already guards against an unawaited failure.
  const ready = agentWatch?.ready ?? Promise.resolve();
  if (live) archive.start(ready);
  const services: EngineServices = {
    home,
    live,
    history,
    writer,
    memoryHistory,
    agentSnapshots,
    agentWatch,
    llmSettings,
    jobs,
    inbox,
    background,
    memory,
    memoryFixes,
    transcripts,
    catalog,
    lineIndexes,
    search,
    archive,
    transcriptSources,
  };
  // Closed one after another in this order: the scheduler before the jobs it starts, the watchers before the home.
  const teardown = new AsyncDisposableStore();
  teardown.add(background);
  teardown.add(jobs);
  teardown.add(stopStaleness);
  teardown.add(inbox);
  teardown.add(memory);
  teardown.add(transcripts);
  teardown.add(search);
  // The keeper before the archive, whose run may be waiting for the keeper's.
  teardown.add(lineIndexes);
  teardown.add(archive);
  teardown.add(catalog);
  if (agentWatch) teardown.add(agentWatch);
  teardown.add(memoryHistory);
  if (live) teardown.add(live);
  teardown.add(home);
  return {
    ...services,
    handlers: createRequestHandlers(services),
    ready,
    subscribe: (sink) => forwardEngineEvents(services, sink),
    dispose: () => teardown.dispose(),
  };
}
