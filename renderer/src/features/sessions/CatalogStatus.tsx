import { useShallow } from 'zustand/react/shallow';
import { useHomeStore } from '../../stores/homeStore';
import { cancelCatalogBuild, refreshSessionCatalog, useSessionCatalogStore } from './sessionCatalogStore';
import { formatBytes } from './formatNumbers';
import { countOf } from '../../../../shared/text/plural';

/** The catalog build's progress bar with a cancel button (not on a read-only server: others wait for it), or a refresh button when idle. */
export function CatalogStatus() {
  const readOnly = useHomeStore((s) => s.home?.readOnly ?? false);
  const { building, progress, error, listed, listingTotal } = useSessionCatalogStore(
    useShallow((s) => ({
      building: s.building,
      progress: s.progress,
      error: s.error,
      listed: s.sessions.length,
      listingTotal: s.listingTotal,
    })),
  );
  // The listing's later pages, still on their way: the timeline shows the newest sessions meanwhile.
  const listing =
    listingTotal === null ? null : (
      <span className="muted small" aria-label="Listing sessions">
        Listing sessions: {listed} of {listingTotal}
      </span>
    );
  if (building && progress?.running) {
    const fraction =
      progress.bytesTotal > 0 ? progress.bytesDone / progress.bytesTotal : progress.total > 0 ? progress.done / progress.total : 0;
    return (
      <div className="catalog-status" role="status" aria-label="Catalog progress">
        {listing}
        <progress max={1} value={Math.min(1, fraction)} aria-label="Reading transcripts" />
        <span className="muted small">
          Reading transcripts: {progress.done} of {countOf(progress.total, 'file')}, {formatBytes(progress.bytesDone)} of{' '}
          {formatBytes(progress.bytesTotal)}
        </span>
        {readOnly ? null : (
          <button type="button" onClick={() => void cancelCatalogBuild()}>
            Cancel
          </button>
        )}
      </div>
    );
  }
  return (
    <div className="catalog-status" role="status" aria-label="Catalog progress">
      {listing}
      {progress?.cancelled ? <span className="muted small">Reading was cancelled; the list may be incomplete.</span> : null}
      {error ? <span className="error small">{error}</span> : null}
      <button type="button" onClick={() => void refreshSessionCatalog()}>
        Refresh
      </button>
    </div>
  );
}
