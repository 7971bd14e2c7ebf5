import type { RequestHandlers } from '../../shared/contract/api';
import { materializeDemo } from './demo/demoHome';
import type { EngineServices } from './engineServices';
import { transcriptRequestHandlers } from './transcripts/transcriptRequestHandlers';
import { catalogRequestHandlers } from './catalog/catalogRequestHandlers';
import { historyRequestHandlers } from './history/historyRequestHandlers';
import { archiveRequestHandlers } from './history/archive/archiveRequestHandlers';
import { listSessions } from './transcripts/sessionListing';
import { listMemoryFiles } from './memory/memoryFolderListing';
import { listAgentMemories } from './agents/agentMemoryListing';

/**
 * The engine's side of the contract, shared by the Electron and web shells. `rendererReady` is
 * answered by the shell itself (it flushes queued events), so the engine only acknowledges it.
 */
export function createRequestHandlers({
  home,
  agentSnapshots,
  llmSettings,
  jobs,
  inbox,
  background,
  memory,
  memoryFixes,
  transcripts,
  catalog,
  search,
  memoryHistory,
  archive,
}: EngineServices): RequestHandlers {
  return {
    // The UI's first request: on a first start it shows the newest project while the rest is found.
    getHome: () => home.firstSnapshot(),
    refreshHome: () => home.refresh(),
    openDemoHome: async () => {
      const snapshot = await home.openDemo(materializeDemo);
      // The demo brings a dream waiting for review.
      await inbox.reload();
      return snapshot;
    },
    listSessions: (ref) => listSessions(home, ref),
    listMemoryFiles: (ref) => listMemoryFiles(home, ref),
    listAgentMemories: () => listAgentMemories(home),
    getAgentSnapshotDiff: ({ dir }) => agentSnapshots.diff({ dir }),
    planAgentSnapshotAction: ({ dir, ...action }) => agentSnapshots.plan({ ref: { dir }, ...action }),
    applyAgentSnapshotAction: ({ dir, expectedToken, ...action }) => agentSnapshots.apply({ ref: { dir }, ...action }, expectedToken),
    getLlmSettings: () => llmSettings.getView(),
    updateLlmSettings: (patch) => llmSettings.update(patch),
    setApiKey: ({ key }) => llmSettings.setApiKey(key),
    clearApiKey: () => llmSettings.clearApiKey(),
    testLlmConnection: ({ via }) => llmSettings.testConnection(via),
    getDreamGate: (ref) => jobs.dreamGate(ref),
    startDream: ({ target, via }) => jobs.startDream(target, { via }),
    estimateExtraction: ({ source }) => jobs.estimateExtraction(source),
    startExtraction: ({ source, via }) => jobs.startExtraction(source, { via }),
    cancelJob: ({ jobId }) => jobs.cancel(jobId),
    listJobs: () => jobs.listJobs(),
    getJob: ({ jobId, revealSecrets }) => jobs.viewJob(jobId, { revealSecrets }),
    applyJob: ({ jobId, decisions }) => jobs.apply(jobId, decisions),
    discardJob: ({ jobId }) => jobs.discard(jobId),
    getReviewInbox: () => inbox.list(),
    getBackgroundStatus: () => background.status(),
    updateBackgroundSettings: (patch) => background.updateSettings(patch),
    turnOffClaudeCodeAutoDream: ({ configRoot }) => background.turnOffClaudeCodeAutoDream(configRoot),
    getMemoryReview: ({ folder }) => memory.getReview(folder),
    readMemoryFile: ({ folder, relativePath, revealSecrets }) => memory.readFile(folder, relativePath, { revealSecrets }),
    saveMemoryFile: ({ folder, ...edit }) => memory.save(folder, edit),
    createMemoryFile: ({ folder, ...request }) => memory.create(folder, request),
    renameMemoryFile: ({ folder, ...request }) => memory.rename(folder, request),
    pruneMemoryFile: ({ folder, ...request }) => memory.prune(folder, request),
    undoMemoryChange: ({ folder, changeSetId }) => memory.undo(folder, changeSetId),
    planMemoryFix: ({ folder, fixes }) => memoryFixes.plan(folder, fixes),
    applyMemoryFix: ({ folder, fixes, bases }) => memoryFixes.apply(folder, { fixes, bases }),
    ...transcriptRequestHandlers(transcripts),
    ...catalogRequestHandlers(catalog, search),
    ...historyRequestHandlers(memoryHistory),
    ...archiveRequestHandlers(archive),
    rendererReady: () => Promise.resolve(null),
  };
}
