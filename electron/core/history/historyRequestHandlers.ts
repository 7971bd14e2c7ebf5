import type { RequestHandlers } from '../../../shared/contract/api';
import type { historyRequestSchemas } from '../../../shared/history/historyRequestSchemas';
import type { HistoryService } from './HistoryService';

type HistoryHandlers = Pick<RequestHandlers, keyof typeof historyRequestSchemas>;

function archiveBytes(base64: string): Uint8Array {
  return Buffer.from(base64, 'base64');
}

/** The engine's side of the memory history requests (spread into `createRequestHandlers`). */
export function historyRequestHandlers(history: HistoryService): HistoryHandlers {
  return {
    getHistoryStatus: () => history.status(),
    listHistory: (query) => history.listChangeSets(query),
    getChangeSet: ({ id }) => history.getChangeSet(id),
    readChangeSetDiff: ({ id }) => history.changeSetPairs(id),
    listFileVersions: ({ folder, path }) => history.listFileVersions(folder, path),
    readVersionPair: ({ folder, path, before, after }) => history.readVersionPair(folder, path, before, after),
    listDreams: ({ project }) => history.listDreams(project),
    countUnreviewedDreams: () => history.unreviewedDreamCounts(),
    keepDream: ({ id }) => history.keepDream(id),
    planRestore: ({ folder, path, version, expected }) => history.planRestore(folder, path, version, expected),
    restoreVersion: ({ folder, path, version, expected }) => history.restore(folder, path, version, expected),
    planRevert: ({ id, paths }) => history.planRevert(id, paths),
    revertChangeSet: ({ id, paths }) => history.revert(id, paths),
    exportMemoryBackup: ({ folder, asOf }) => history.exportBackup(folder, asOf),
    previewMemoryImport: ({ folder, archive }) => history.previewImport(folder, archiveBytes(archive)),
    applyMemoryImport: ({ folder, archive, expected }) => history.applyImport(folder, archiveBytes(archive), expected),
    blameFile: ({ folder, path }) => history.blame(folder, path),
    getFileOrigin: ({ folder, path }) => history.origin(folder, path),
    listSessionMemoryWrites: ({ sessionIds }) => history.sessionMemoryWrites(sessionIds),
  };
}
