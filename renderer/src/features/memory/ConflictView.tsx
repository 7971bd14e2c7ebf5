import type { MemoryConflictDetails } from '../../../../shared/memory/memoryReview';

export interface ConflictViewProps {
  readonly mine: string;
  readonly conflict: MemoryConflictDetails;
  readonly onUseDisk: () => void;
  readonly onKeepMine: (() => void) | null;
  /** What keeping mine means here; by default it overwrites the disk version (shown as a danger). */
  readonly keepMineLabel?: string;
}

/** The file changed on disk while it was being edited: both versions side by side; nothing is overwritten unless asked. */
export function ConflictView({ mine, conflict, onUseDisk, onKeepMine, keepMineLabel }: ConflictViewProps) {
  return (
    <section className="conflict" aria-label="Conflict">
      <p role="alert" className="error">
        {conflict.currentHash === null
          ? `${conflict.relativePath} was deleted on disk since you opened it.`
          : `${conflict.relativePath} changed on disk since you opened it. Nothing was overwritten.`}
      </p>
      <div className="conflict-sides">
        <div>
          <h3>Your version</h3>
          <pre className="raw-text" aria-label="Your version">
            {mine}
          </pre>
        </div>
        <div>
          <h3>On disk now</h3>
          <pre className="raw-text" aria-label="On disk now">
            {conflict.currentText ?? (conflict.currentHash === null ? '(deleted)' : '(too large to show)')}
          </pre>
        </div>
      </div>
      <div className="actions">
        <button type="button" onClick={onUseDisk}>
          Discard mine, use the disk version
        </button>
        {onKeepMine ? (
          <button type="button" className={keepMineLabel ? 'primary' : 'danger'} onClick={onKeepMine}>
            {keepMineLabel ?? 'Replace the disk version with mine'}
          </button>
        ) : null}
      </div>
    </section>
  );
}
