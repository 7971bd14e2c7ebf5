import type { MemoryFolderRef } from '../../../../shared/memory/memoryFolderRef';
import type { MemoryFileContent } from '../../../../shared/memory/memoryReview';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useMutation } from '../../components/useMutation';
import { setMode } from './memoryReviewStore';
import { pruneMemory } from './memoryWrites';

export interface PruneConfirmProps {
  readonly folder: MemoryFolderRef;
  readonly file: MemoryFileContent;
  readonly title: string;
}

/** Asks before pruning a memory and its pointer; both stay in history, so the undo offer brings them back. */
export function PruneConfirm({ folder, file, title }: PruneConfirmProps) {
  const pruning = useMutation();
  const prune = () => pruning.run(() => pruneMemory({ folder, relativePath: file.relativePath, baseHash: file.hash }, title));
  return (
    <div className="inline-form" role="group" aria-label="Prune memory">
      <p>
        Prune <strong>{title}</strong> and its pointer in MEMORY.md? Both are kept in history, so you can undo it.
      </p>
      <button type="button" className="danger" onClick={() => void prune()}>
        Prune
      </button>
      <button type="button" onClick={() => setMode('view')}>
        Cancel
      </button>
      <ErrorAlert error={pruning.error} />
    </div>
  );
}
