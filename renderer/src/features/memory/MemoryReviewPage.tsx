import { useEffect, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { SEVERITY_ORDER, type FindingCode, type FindingSeverity } from '../../../../shared/memory/findingCodes';
import { sameMemoryFolder, type MemoryFolderRef } from '../../../../shared/memory/memoryFolderRef';
import type { IndexView, MemoryReview } from '../../../../shared/memory/memoryReview';
import { countOf } from '../../../../shared/text/plural';
import { useMutation } from '../../components/useMutation';
import { WarningList } from '../../components/WarningList';
import { useNavigationStore } from '../../stores/navigationStore';
import { BulkActions } from './BulkActions';
import { FileDetail } from './FileDetail';
import { FindingsPanel } from './FindingsPanel';
import { FixDialog } from './FixDialog';
import { IndexDetail } from './IndexDetail';
import { FindingBadge } from './MemoryBadges';
import { MemoryFilterBar } from './MemoryFilterBar';
import { MemoryReviewLoading } from './MemoryReviewLoading';
import { filterFiles } from './memoryFilters';
import { offerUndo, openFolder, reviewPageOf, selectFile, setMode, useMemoryReviewStore } from './memoryReviewStore';
import { undoChange } from './memoryWrites';
import { ModelViewPanel } from './ModelViewPanel';
import { NewMemoryForm } from './NewMemoryForm';
import { TopicFileList } from './TopicFileList';
import './memoryReview.css';
import { MiddleTruncate } from '../../components/MiddleTruncate';

export interface MemoryReviewPageProps {
  /** A project's auto memory or an agent's memory folder (the Agents page passes its own ref). */
  readonly folder: MemoryFolderRef;
  readonly heading?: string;
  /** Opens the session that wrote a memory; without it the session id is only shown. */
  readonly onOpenSession?: (sessionId: string) => void;
}

const HIGHLIGHT_MS = 8000;
const SEVERITY_NOUNS: Readonly<Record<FindingSeverity, string>> = { error: 'error', warn: 'warning', info: 'note' };
const SEVERITY_PLURALS: Readonly<Record<FindingSeverity, string>> = { error: 'errors', warn: 'warnings', info: 'notes' };

function UndoBanner() {
  const { undo, folder } = useMemoryReviewStore(useShallow((s) => ({ undo: s.undo, folder: s.folder })));
  const undoing = useMutation();
  if (!undo || !folder) return null;
  const run = () => undoing.run(() => undoChange({ folder, changeSetId: undo.changeSetId }));
  return (
    <div className="undo-banner" role="status">
      <span>{undo.message}</span>
      <button type="button" onClick={() => void run()}>
        Undo
      </button>
      <button type="button" className="link" aria-label="Dismiss" onClick={() => offerUndo(null)}>
        ×
      </button>
      {undoing.error ? <span className="error"> {undoing.error}</span> : null}
    </div>
  );
}

/**
 * The indexes of the folder, above its topic files: each opens with the cut drawn and its editor. Each carries its
 * findings' badges as a topic file's row does, so a folder's count of errors can be traced to the index that has them.
 */
function IndexEntries({
  review,
  selected,
  severityOf,
}: {
  readonly review: MemoryReview;
  readonly selected: string | null;
  readonly severityOf: (path: string, code: FindingCode) => FindingSeverity;
}) {
  const indexes = [review.index, review.teamIndex].filter((index): index is IndexView => index !== null);
  if (indexes.length === 0) return null;
  const codesOf = (path: string) => [...new Set(review.findings.filter((f) => f.file === path).map((f) => f.code))];
  return (
    <div className="index-entries" role="group" aria-label="Indexes">
      {indexes.map((index) => {
        const cut = index.loaded.wasLineTruncated || index.loaded.wasByteTruncated;
        return (
          <button
            key={index.relativePath}
            type="button"
            className={selected === index.relativePath ? 'index-entry selected' : 'index-entry'}
            aria-pressed={selected === index.relativePath}
            onClick={() => selectFile(index.relativePath)}
          >
            <code>{index.relativePath}</code>{' '}
            <span className="muted small">
              {countOf(index.loaded.lineCount, 'line')}
              {cut ? ' · cut when loaded' : ''}
            </span>
            {codesOf(index.relativePath).map((code) => (
              <FindingBadge key={code} code={code} severity={severityOf(index.relativePath, code)} />
            ))}
          </button>
        );
      })}
    </div>
  );
}

/** Reviews one memory folder: the topic files with their findings, what the model sees, and safe edits. */
export function MemoryReviewPage({ folder, heading = 'Memory', onOpenSession }: MemoryReviewPageProps) {
  useEffect(() => openFolder(folder), [folder]);
  const selected = useNavigationStore((s) => s.file);
  const { storedReview, error, mode, filters, changed, fix } = useMemoryReviewStore(
    useShallow((s) => ({
      storedReview: s.review,
      error: s.error,
      mode: s.mode,
      filters: s.filters[reviewPageOf(folder)],
      changed: s.changed,
      fix: s.fix,
    })),
  );
  // Until this folder's review has loaded, the last one shown (another project's, another agent's) is not it.
  const review = storedReview && sameMemoryFolder(storedReview.folder, folder) ? storedReview : null;
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    // Re-render once highlights expire, so "changed just now" does not stay forever.
    const pending = Object.values(changed).filter((at) => at + HIGHLIGHT_MS > Date.now());
    if (pending.length === 0) return;
    const timer = setTimeout(() => setNow(Date.now()), Math.min(...pending) + HIGHLIGHT_MS - Date.now() + 50);
    return () => clearTimeout(timer);
  }, [changed, now]);
  const files = useMemo(() => (review ? filterFiles(review.files, filters, Date.now()) : []), [review, filters]);
  const severities = useMemo(() => {
    const map = new Map<string, FindingSeverity>();
    for (const f of review?.findings ?? []) {
      const key = `${f.file ?? ''}\0${f.code}`;
      const known = map.get(key);
      if (!known || SEVERITY_ORDER[f.severity] < SEVERITY_ORDER[known]) map.set(key, f.severity);
    }
    return (path: string, code: FindingCode): FindingSeverity => map.get(`${path}\0${code}`) ?? 'info';
  }, [review]);
  const changedPaths = useMemo(
    () =>
      new Set(
        Object.entries(changed)
          .filter(([, at]) => now - at < HIGHLIGHT_MS || Date.now() - at < HIGHLIGHT_MS)
          .map(([path]) => path),
      ),
    [changed, now],
  );
  if (error && !review) return <p className="error">Cannot read this memory: {error}</p>;
  if (!review) return <MemoryReviewLoading folder={folder} />;
  const entry = selected ? (review.files.find((f) => f.relativePath === selected) ?? null) : null;
  const index = [review.index, review.teamIndex].find((i) => i !== null && i.relativePath === selected) ?? null;
  const counts = { error: 0, warn: 0, info: 0 };
  for (const f of review.findings) counts[f.severity]++;
  const filePaths = new Set([
    ...review.files.map((f) => f.relativePath),
    ...[review.index, review.teamIndex].flatMap((i) => (i ? [i.relativePath] : [])),
  ]);
  return (
    <section className="memory-review" aria-label="Memory">
      <header className="page-header">
        <h1>{heading}</h1>
        <p className="muted">
          <MiddleTruncate code text={review.memoryDir} />
        </p>
      </header>
      {review.readOnlyReason ? (
        <p className="banner" role="note">
          {review.readOnlyReason}
        </p>
      ) : null}
      <UndoBanner />
      <WarningList warnings={review.warnings} />
      {!review.exists ? (
        <p className="muted">No memory yet: Claude Code has not saved anything here.</p>
      ) : (
        <p className="summary-line">
          {countOf(review.files.length, 'topic file')} ·{' '}
          {Object.entries(counts)
            .sort(([a], [b]) => SEVERITY_ORDER[a as 'error'] - SEVERITY_ORDER[b as 'error'])
            .map(([severity, count]) =>
              countOf(count, SEVERITY_NOUNS[severity as FindingSeverity], SEVERITY_PLURALS[severity as FindingSeverity]),
            )
            .join(' · ')}
        </p>
      )}
      <div className="review-columns">
        <div className="review-list">
          <div className="list-toolbar">
            <MemoryFilterBar filters={filters} showScope={review.folder.kind === 'project'} />
            <button
              type="button"
              className="primary"
              disabled={review.readOnlyReason !== null}
              onClick={() => (selectFile(null), setMode('create'))}
            >
              New memory
            </button>
          </div>
          <div className="list-status">
            <p className="muted small">
              Showing {files.length} of {review.files.length}
            </p>
            <BulkActions review={review} files={files} filters={filters} />
          </div>
          <IndexEntries review={review} selected={selected} severityOf={severities} />
          {files.length > 0 ? (
            <TopicFileList
              files={files}
              selected={selected}
              changed={changedPaths}
              onSelect={selectFile}
              onOpenSession={onOpenSession ?? null}
              severityOf={severities}
            />
          ) : (
            <p className="muted" role="note">
              {review.files.length > 0
                ? 'No topic file matches these filters.'
                : review.index
                  ? 'No topic files: all this memory holds is in its index above.'
                  : 'No memories yet.'}
            </p>
          )}
        </div>
        <div className="review-detail">
          {mode === 'create' ? (
            <NewMemoryForm folder={review.folder} allowTeam={review.folder.kind === 'project'} />
          ) : index ? (
            <IndexDetail key={index.relativePath} folder={review.folder} review={review} index={index} />
          ) : entry ? (
            <FileDetail key={entry.relativePath} folder={review.folder} review={review} entry={entry} />
          ) : selected ? (
            <p className="muted" role="status">
              <code>{selected}</code> is not in this memory folder (any more).
            </p>
          ) : (
            <p className="muted">Choose a memory to read it, see what the model gets of it, and edit or prune it.</p>
          )}
        </div>
      </div>
      {review.exists ? <ModelViewPanel review={review} onSelect={selectFile} /> : null}
      {review.findings.length > 0 ? <FindingsPanel review={review} files={filePaths} onSelect={selectFile} /> : null}
      {fix ? <FixDialog key={JSON.stringify(fix.fixes)} folder={review.folder} preview={fix} selected={selected} /> : null}
    </section>
  );
}
