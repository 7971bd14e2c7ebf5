import { useEffect, useState } from 'react';
import { MIN_ARCHIVE_CAP_BYTES } from '../../../../shared/archive/archiveCap';
import { formatByteSize, parseByteSize } from '../../../../shared/archive/byteSizes';
import type { ArchiveRemovalResult, ArchiveStatus } from '../../../../shared/model/archive';
import type { Result } from '../../../../shared/result';
import { api } from '../../api/connectApi';
import { useConnectionStore } from '../../api/connectionStore';
import { MutationStatus } from '../../components/MutationStatus';
import { PendingState } from '../../components/PendingState';
import { useMutation } from '../../components/useMutation';
import { ArchivedProjectsTable } from './ArchivedProjectsTable';
import { ArchiveFacts } from './ArchiveFacts';
import { ArchiveProgressLine } from './ArchiveProgressLine';
import { ArchivePruneForm } from './ArchivePruneForm';
import { ArchiveRemovalConfirm, type ArchiveRemoval } from './ArchiveRemovalConfirm';
import { deleteProjectArchive, loadArchiveStatus, pruneArchive, setArchiveSettings, useArchiveStore } from './archiveStore';
import { countOf } from '../../../../shared/text/plural';

function capText(status: ArchiveStatus | null): string {
  return status === null || status.maxBytes === null ? '' : formatByteSize(status.maxBytes);
}

const removedText = (value: ArchiveRemovalResult) =>
  `Removed ${countOf(value.sessions, 'session')} (${formatByteSize(value.compressedBytes)}).`;

/**
 * The transcript archive: what it holds beside Claude Code's `cleanupPeriodDays`, and the user's controls (off, size
 * cap, prune by date, delete a deleted project's archive). Destructive actions ask to be confirmed first.
 */
export function ArchiveSettingsSection({ readOnly }: { readonly readOnly: boolean }) {
  const status = useArchiveStore((s) => s.status);
  const progress = useArchiveStore((s) => s.progress);
  const loadError = useArchiveStore((s) => s.loadError);
  const shown = useArchiveStore((s) => s.shown);
  const [cap, setCap] = useState(() => capText(status));
  const [pending, setPending] = useState<ArchiveRemoval | null>(null);
  const writing = useMutation();
  const { busy } = writing;
  // A status shown as it is (a change, a write) replaces the typed cap; a quiet re-read keeps it.
  useEffect(() => setCap(capText(useArchiveStore.getState().status)), [shown]);

  const reconnections = useConnectionStore((s) => s.reconnections);
  useEffect(() => void loadArchiveStatus(), [reconnections]);

  async function run<T>(write: () => Promise<Result<T>>, done: (value: T) => string): Promise<void> {
    await writing.run(write, { done });
    setPending(null);
  }

  if (!status) return loadError ? <p className="error">{loadError}</p> : <PendingState label="Reading the transcript archive's state" />;
  const capBytes = cap.trim() === '' ? null : parseByteSize(cap);
  const capValid = cap.trim() === '' || (capBytes !== null && capBytes >= MIN_ARCHIVE_CAP_BYTES);
  const running = progress?.running ?? false;
  return (
    <section aria-label="Transcript archive">
      <h2>Transcript archive</h2>
      <p className="muted small">
        Claude Code deletes a session&apos;s transcript once it has not changed for cleanupPeriodDays. This app keeps a compressed copy of
        every transcript in its data folder, so sessions, search, the transcript viewer and history keep working after that (an archived
        session can no longer be resumed).
      </p>
      <ArchiveFacts status={status} />
      {progress ? <ArchiveProgressLine progress={progress} /> : null}
      <div className="dialog-buttons">
        <label>
          <input
            type="checkbox"
            checked={status.enabled}
            disabled={readOnly || busy}
            onChange={(event) =>
              void run(
                () => setArchiveSettings({ enabled: event.target.checked }),
                (next) => (next.enabled ? 'The archive is on.' : 'The archive is off; what it holds stays until you prune it.'),
              )
            }
          />{' '}
          Keep copies of transcripts
        </label>
        <button type="button" disabled={!status.enabled || running} onClick={() => void api.updateArchive({})}>
          Archive now
        </button>
        {running ? (
          <button type="button" onClick={() => void api.cancelArchiveUpdate({})}>
            Cancel
          </button>
        ) : null}
      </div>
      <form
        className="field"
        onSubmit={(event) => {
          event.preventDefault();
          void run(
            () => setArchiveSettings({ maxBytes: capBytes }),
            (next) => (next.maxBytes === null ? 'No size cap.' : `The archive keeps at most ${formatByteSize(next.maxBytes)}.`),
          );
        }}
      >
        <label htmlFor="archive-cap">
          Size cap <span className="muted">(e.g. 5 GB; empty for none; the sessions with the oldest activity go first)</span>
        </label>
        <input id="archive-cap" value={cap} placeholder="no cap" onChange={(event) => setCap(event.target.value)} spellCheck={false} />
        {!capValid ? <p className="error small">Give a size of at least 1 MB, such as 500 MB or 20 GB.</p> : null}
        <div className="dialog-buttons">
          <button type="submit" disabled={readOnly || busy || !capValid}>
            Save cap
          </button>
        </div>
      </form>
      <ArchivePruneForm disabled={readOnly || busy} onAsk={(before) => setPending({ kind: 'prune', before })} />
      <ArchivedProjectsTable
        projects={status.projects}
        disabled={readOnly || busy}
        onDelete={(project) => setPending({ kind: 'delete', project })}
      />
      {pending ? (
        <ArchiveRemovalConfirm
          removal={pending}
          busy={busy}
          onConfirm={() =>
            void run(() => (pending.kind === 'prune' ? pruneArchive(pending.before) : deleteProjectArchive(pending.project)), removedText)
          }
          onKeep={() => setPending(null)}
        />
      ) : null}
      <MutationStatus mutation={writing} small />
    </section>
  );
}
