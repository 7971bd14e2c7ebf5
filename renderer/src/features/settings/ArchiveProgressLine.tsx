import { formatByteSize } from '../../../../shared/archive/byteSizes';
import type { ArchiveProgress } from '../../../../shared/model/archive';
import { countOf } from '../../../../shared/text/plural';

/** How far an archiving run has come, while one runs. */
export function ArchiveProgressLine({ progress }: { readonly progress: ArchiveProgress }) {
  if (!progress.running) return null;
  return (
    <p className="muted small" role="status" aria-label="Archiving">
      Archiving… {progress.filesDone} of {countOf(progress.filesTotal, 'file')}, {formatByteSize(progress.bytesDone)} of{' '}
      {formatByteSize(progress.bytesTotal)} <progress max={Math.max(1, progress.bytesTotal)} value={progress.bytesDone} />
    </p>
  );
}
