import { useMemo } from 'react';
import type { MemoryFolderRef } from '../../../../shared/memory/memoryFolderRef';
import type { ProjectSummary } from '../../../../shared/model/home';
import { navigate } from '../../stores/navigationStore';
import { MemoryReviewPage } from './MemoryReviewPage';

/** Opens the transcript of the session that wrote a memory. */
function openSession(sessionId: string): void {
  navigate({ page: 'transcript', transcript: { sessionId, line: null, agentId: null, find: null } });
}

/**
 * A project's auto memory (its team memory included) in the Memory review. Sessions started in a sub-folder of a
 * repository use the root's memory folder, as Claude Code does: the page says whose folder it shows.
 */
export function MemoryPage({ project }: { readonly project: ProjectSummary }) {
  const folder = useMemo<MemoryFolderRef>(
    () => ({ kind: 'project', configRoot: project.configRoot, slug: project.slug }),
    [project.configRoot, project.slug],
  );
  const shared =
    project.memoryOwner !== null
      ? `Sessions here were started in a sub-folder of a repository: Claude Code keeps their memory in the repository root's folder (${project.memoryOwner}), shown here.`
      : project.memorySharedWith.length > 0
        ? `Sessions started in sub-folders of this repository use this memory too: ${project.memorySharedWith.join(', ')}.`
        : null;
  return (
    <>
      {shared ? (
        <p className="notice small" role="note" aria-label="Shared memory">
          {shared}
        </p>
      ) : null}
      <MemoryReviewPage folder={folder} onOpenSession={openSession} />
    </>
  );
}
