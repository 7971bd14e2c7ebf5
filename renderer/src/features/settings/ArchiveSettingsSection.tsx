import { useEffect, useState } from 'react';
import { formatByteSize, parseByteSize } from '../../../../shared/archive/byteSizes';
import { MIN_ARCHIVE_CAP_BYTES } from '../../../../shared/archive/archiveCap';
import type { ArchivedProjectSummary, ArchiveProgress, ArchiveRemovalResult, ArchiveStatus } from '../../../../shared/model/archive';
import type { Result } from '../../../../shared/result';
import { api } from '../../api/connectApi';

type Message = { readonly text: string; readonly error: boolean } | null;
/** A destructive action waiting for the user to confirm it. */
type Pending =
  { readonly kind: 'prune'; readonly before: string } | { readonly kind: 'delete'; readonly project: ArchivedProjectSummary } | null;

function day(iso: string | null): string {
  return iso === null ? '—' : iso.slice(0, 10);
}

function ProgressLine({ progress }: { readonly progress: ArchiveProgress }) {
  if (!progress.running) return null;
  return (
    <p className="muted small" role="status" aria-label="Archiving">
      Archiving… {progress.filesDone} of {progress.filesTotal} files, {formatByteSize(progress.bytesDone)} of{' '}
      {formatByteSize(progress.bytesTotal)} <progress max={Math.max(1, progress.bytesTotal)} value={progress.bytesDone} />
    </p>
  );
}

/**
 * The transcript archive: what it holds beside Claude Code's `cleanupPeriodDays`, and the user's controls (off, size
 * cap, prune by date, delete a deleted project's archive). Destructive actions ask to be confirmed first.
 */
export function ArchiveSettingsSection({ readOnly }: { readonly readOnly: boolean }) {
  const [status, setStatus] = useState<ArchiveStatus | null>(null);
  const [progress, setProgress] = useState<ArchiveProgress | null>(null);
  const [cap, setCap] = useState('');
  const [before, setBefore] = useState('');
  const [pending, setPending] = useState<Pending>(null);
  const [message, setMessage] = useState<Message>(null);
  const [busy, setBusy] = useState(false);

  function show(next: ArchiveStatus): void {
    setStatus(next);
    setProgress(next.progress);
    setCap(next.maxBytes === null ? '' : formatByteSize(next.maxBytes));
  }

  useEffect(() => {
    void api
      .getArchiveStatus({})
      .then((result) => (result.ok ? show(result.value) : setMessage({ text: result.error.message, error: true })));
    const stopChange = api.onArchiveChanged(show);
    const stopProgress = api.onArchiveProgress(setProgress);
    return () => {
      stopChange();
      stopProgress();
    };
  }, []);

  async function run<T>(
    action: () => Promise<Result<T>>,
    done: (value: T) => string,
    next: (value: T) => ArchiveStatus | null,
  ): Promise<void> {
    setBusy(true);
    const result = await action();
    setBusy(false);
    setPending(null);
    if (!result.ok) {
      setMessage({ text: result.error.message, error: true });
      return;
    }
    const status = next(result.value);
    if (status) show(status);
    setMessage({ text: done(result.value), error: false });
  }

  const removed = (value: ArchiveRemovalResult) =>
    `Removed ${value.sessions} ${value.sessions === 1 ? 'session' : 'sessions'} (${formatByteSize(value.compressedBytes)}).`;

  if (!status) return message ? <p className="error">{message.text}</p> : <p className="muted">Loading…</p>;
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
      {status.warnings.length > 0 ? (
        <ul className="warnings" aria-label="Archive warnings">
          {status.warnings.map((warning) => (
            <li key={warning} className="warning">
              {warning}
            </li>
          ))}
        </ul>
      ) : null}
      <dl className="facts" aria-label="Archive facts">
        <dt>Claude Code deletes after</dt>
        <dd aria-label="Cleanup period">
          {status.cleanupPeriodDays} days{' '}
          <span className="muted small">
            (
            {status.cleanup
              .map((setting) =>
                setting.cleanupPeriodDays === null ? `not set in ${setting.settingsPath}` : `cleanupPeriodDays in ${setting.settingsPath}`,
              )
              .join('; ')}
            )
          </span>
        </dd>
        <dt>Archive</dt>
        <dd aria-label="Archive state">{status.enabled ? 'on' : 'off'}</dd>
        <dt>Holds</dt>
        <dd aria-label="Archive contents">
          {status.sessions} sessions ({status.deletedSessions} deleted by Claude Code), {status.files} transcripts,{' '}
          {status.fileHistoryBackups} memory file backups
        </dd>
        <dt>Size</dt>
        <dd aria-label="Archive size">
          {formatByteSize(status.compressedBytes)} on disk ({formatByteSize(status.bytes)} before compression)
          {status.maxBytes !== null ? `, at most ${formatByteSize(status.maxBytes)}` : ''}
        </dd>
        <dt>Oldest session</dt>
        <dd>{day(status.oldest)}</dd>
        <dt>Folder</dt>
        <dd>
          <code>{status.dir}</code>
        </dd>
      </dl>
      {progress ? <ProgressLine progress={progress} /> : null}
      <div className="dialog-buttons">
        <label>
          <input
            type="checkbox"
            checked={status.enabled}
            disabled={readOnly || busy}
            onChange={(event) =>
              void run(
                () => api.setArchiveSettings({ enabled: event.target.checked }),
                (next) => (next.enabled ? 'The archive is on.' : 'The archive is off; what it holds stays until you prune it.'),
                (next) => next,
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
            () => api.setArchiveSettings({ maxBytes: capBytes }),
            (next) => (next.maxBytes === null ? 'No size cap.' : `The archive keeps at most ${formatByteSize(next.maxBytes)}.`),
            (next) => next,
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
      <form
        className="field"
        onSubmit={(event) => {
          event.preventDefault();
          if (before !== '') setPending({ kind: 'prune', before });
        }}
      >
        <label htmlFor="archive-prune">Remove archived sessions last active before</label>
        <input id="archive-prune" type="date" value={before} onChange={(event) => setBefore(event.target.value)} />
        <div className="dialog-buttons">
          <button type="submit" disabled={readOnly || busy || before === ''}>
            Prune…
          </button>
        </div>
      </form>
      {status.projects.length > 0 ? (
        <table className="data-table" aria-label="Archived projects">
          <thead>
            <tr>
              <th>Project</th>
              <th>Sessions</th>
              <th>Deleted by Claude Code</th>
              <th>Size</th>
              <th>Last activity</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {status.projects.map((project) => (
              <tr key={`${project.configRoot}\0${project.slug}`} aria-label={project.slug}>
                <td>
                  <code>{project.slug}</code>
                </td>
                <td>{project.sessions}</td>
                <td>{project.deletedSessions}</td>
                <td>{formatByteSize(project.compressedBytes)}</td>
                <td>{day(project.newest)}</td>
                <td>
                  <button
                    type="button"
                    disabled={readOnly || busy || project.transcriptsOnDisk}
                    title={
                      project.transcriptsOnDisk
                        ? 'Claude Code still has transcripts of this project; delete the project first'
                        : 'For a project you deleted on purpose'
                    }
                    onClick={() => setPending({ kind: 'delete', project })}
                  >
                    Delete archive…
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {pending ? (
        <div className="dialog" role="alertdialog" aria-label="Confirm">
          <p>
            {pending.kind === 'prune'
              ? `Remove every archived session last active before ${pending.before}? Copies of transcripts Claude Code already deleted cannot be recovered.`
              : `Delete the archive of ${pending.project.slug}: ${pending.project.sessions} sessions, ${formatByteSize(pending.project.compressedBytes)}? They cannot be recovered.`}
          </p>
          <div className="dialog-buttons">
            <button
              type="button"
              disabled={busy}
              onClick={() =>
                void (pending.kind === 'prune'
                  ? run(
                      () => api.pruneArchive({ before: `${pending.before}T00:00:00.000Z` }),
                      removed,
                      (value) => value.status,
                    )
                  : run(
                      () => api.deleteProjectArchive({ configRoot: pending.project.configRoot, slug: pending.project.slug }),
                      removed,
                      (value) => value.status,
                    ))
              }
            >
              {pending.kind === 'prune' ? 'Prune' : 'Delete'}
            </button>
            <button type="button" onClick={() => setPending(null)}>
              Keep
            </button>
          </div>
        </div>
      ) : null}
      {message ? (
        <p className={message.error ? 'error small' : 'muted small'} role="status">
          {message.text}
        </p>
      ) : null}
    </section>
  );
}
