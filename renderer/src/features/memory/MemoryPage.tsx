import { useMemo } from 'react';
import type { MemoryFolderRef } from '../../../../shared/memory/memoryFolderRef';
import type { ProjectSummary } from '../../../../shared/model/home';
import { navigate } from '../../stores/navigationStore';
import { MemoryReviewPage } from './MemoryReviewPage';

/** Opens the transcript of the session that wrote a memory. */
function openSession(sessionId: string): void {
  navigate({ page: 'transcript', transcript: { sessionId, line: null, agentId: null } });
}

/** A project's auto memory (its team memory included) in the Memory review. */
export function MemoryPage({ project }: { readonly project: ProjectSummary }) {
  const folder = useMemo<MemoryFolderRef>(
    () => ({ kind: 'project', configRoot: project.configRoot, slug: project.slug }),
    [project.configRoot, project.slug],
  );
  return <MemoryReviewPage folder={folder} onOpenSession={openSession} />;
}
