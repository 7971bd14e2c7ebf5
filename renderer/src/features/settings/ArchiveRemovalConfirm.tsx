import { formatByteSize } from '../../../../shared/archive/byteSizes';
import type { ArchivedProjectSummary } from '../../../../shared/model/archive';
import { countOf } from '../../../../shared/text/plural';

/** A removal from the archive waiting for the person to confirm it: a prune by date, or a deleted project's archive. */
export type ArchiveRemoval =
  { readonly kind: 'prune'; readonly before: string } | { readonly kind: 'delete'; readonly project: ArchivedProjectSummary };

export interface ArchiveRemovalConfirmProps {
  readonly removal: ArchiveRemoval;
  readonly busy: boolean;
  readonly onConfirm: () => void;
  readonly onKeep: () => void;
}

/** Asks before removing anything from the archive: copies of transcripts Claude Code deleted cannot come back. */
export function ArchiveRemovalConfirm({ removal, busy, onConfirm, onKeep }: ArchiveRemovalConfirmProps) {
  return (
    <div className="dialog" role="alertdialog" aria-label="Confirm">
      <p>
        {removal.kind === 'prune'
          ? `Remove every archived session last active before ${removal.before}? Copies of transcripts Claude Code already deleted cannot be recovered.`
          : `Delete the archive of ${removal.project.slug}: ${countOf(removal.project.sessions, 'session')}, ${formatByteSize(removal.project.compressedBytes)}? They cannot be recovered.`}
      </p>
      <div className="dialog-buttons">
        <button type="button" disabled={busy} onClick={onConfirm}>
          {removal.kind === 'prune' ? 'Prune' : 'Delete'}
        </button>
        <button type="button" onClick={onKeep}>
          Keep
        </button>
      </div>
    </div>
  );
}
