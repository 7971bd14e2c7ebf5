import { useEffect } from 'react';
import { memoryFolderKey, type MemoryFolderRef } from '../../../../shared/memory/memoryFolderRef';
import { PendingState } from '../../components/PendingState';
import { countOf, plural } from '../../../../shared/text/plural';
import { forgetReviewProgress, useMemoryReviewProgress } from './memoryReviewProgressStore';

/**
 * The first read of a memory folder, step by step: topic files read of all, the findings over the folder, and the
 * list being laid out once the engine has answered.
 */
export function MemoryReviewLoading({ folder }: { readonly folder: MemoryFolderRef }) {
  const key = memoryFolderKey(folder);
  const progress = useMemoryReviewProgress((s) => s.byFolder[key] ?? null);
  // What an earlier review of this folder reported says nothing about this one.
  useEffect(() => forgetReviewProgress(folder), [key]);
  if (progress === null) return <PendingState label="Opening the memory folder" />;
  switch (progress.step) {
    case 'reading':
      return (
        <PendingState
          label="Reading memory files"
          done={progress.done}
          total={progress.total}
          unit={plural(progress.total, 'topic file')}
        />
      );
    case 'checking':
      return <PendingState label="Checking the memory files for problems" />;
    case 'done':
      return <PendingState label={`Laying out ${countOf(progress.total, 'topic file')}`} />;
  }
}
