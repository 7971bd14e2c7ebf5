import type { RequestHandlers } from '../../../../shared/contract/api';
import type { archiveRequestSchemas } from '../../../../shared/archive/archiveRequestSchemas';
import type { ArchiveService } from './ArchiveService';

type ArchiveHandlers = Pick<RequestHandlers, keyof typeof archiveRequestSchemas>;

/** The engine's side of the transcript archive's requests (spread into `createRequestHandlers`). */
export function archiveRequestHandlers(archive: ArchiveService): ArchiveHandlers {
  return {
    getArchiveStatus: () => archive.status(),
    updateArchive: () => archive.update(),
    cancelArchiveUpdate: () => {
      archive.cancel();
      return Promise.resolve(null);
    },
    setArchiveSettings: (patch) => archive.setSettings(patch),
    pruneArchive: ({ before }) => archive.prune(new Date(before)),
    deleteProjectArchive: ({ configRoot, slug }) => archive.deleteProject(configRoot, slug),
  };
}
