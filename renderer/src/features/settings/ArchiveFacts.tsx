import { formatByteSize } from '../../../../shared/archive/byteSizes';
import type { ArchiveStatus } from '../../../../shared/model/archive';
import { day } from './archiveDay';
import { countOf } from '../../../../shared/text/plural';

/** What the archive holds beside Claude Code's cleanupPeriodDays, and what is wrong with it, if anything. */
export function ArchiveFacts({ status }: { readonly status: ArchiveStatus }) {
  return (
    <>
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
          {countOf(status.sessions, 'session')} ({status.deletedSessions} deleted by Claude Code), {countOf(status.files, 'transcript')},{' '}
          {countOf(status.fileHistoryBackups, 'memory file backup')}
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
    </>
  );
}
