import type { EventName, EventPayloads } from '../../shared/contract/events';
import type { EngineServices } from './engineServices';
import { DisposableStore } from './events';

export type EventSink = <E extends EventName>(event: E, payload: EventPayloads[E]) => void;

/** Forwards every engine service event to a shell's sink (a window or a socket); returns the unsubscribe. */
export function forwardEngineEvents(
  { home, jobs, inbox, background, memory, agentWatch, transcripts, catalog, search, memoryHistory, archive }: EngineServices,
  sink: EventSink,
): () => void {
  const subscriptions = new DisposableStore();
  for (const unsubscribe of [
    home.onDidChangeHome((snapshot) => sink('homeChanged', snapshot)),
    home.onDidStreamHome((snapshot) => sink('homeChanged', snapshot)),
    jobs.onDidProgress((progress) => sink('jobProgress', progress)),
    jobs.onDidFinish((summary) => sink('jobFinished', summary)),
    inbox.onDidChange((change) => sink('reviewInboxChanged', change)),
    background.onDidChangeStatus((status) => sink('backgroundStatusChanged', status)),
    memory.onDidChangeMemory((change) => sink('memoryChanged', change)),
    memory.onDidProgress((progress) => sink('memoryReviewProgress', progress)),
    transcripts.onDidChangeTranscript(({ configRoot, slug, sessionId, generation, bytes }) =>
      sink('transcriptChanged', { configRoot, slug, sessionId, generation, bytes }),
    ),
    catalog.onDidProgress((progress) => sink('catalogProgress', progress)),
    catalog.onDidUpdateTimeline((update) => sink('sessionUpdated', update)),
    search.onDidFindHits((hits) => sink('searchHits', hits)),
    search.onDidFinish((done) => sink('searchDone', done)),
    memoryHistory.onDidChange(({ folders, changeSetIds }) => sink('historyChanged', { folders, changeSetIds })),
    archive.onDidProgress((progress) => sink('archiveProgress', progress)),
    archive.onDidChange((status) => sink('archiveChanged', status)),
    memoryHistory.onDidProgress((status) => sink('historyReconstruction', status)),
    ...(agentWatch ? [agentWatch.onDidChange((folders) => sink('agentMemoriesChanged', { folders }))] : []),
  ])
    subscriptions.add(unsubscribe);
  return () => subscriptions.dispose();
}
