import { useState } from 'react';
import type { DreamReviewItem, RollbackPlan } from '../../../../shared/history/historyModel';
import type { ProjectSummary } from '../../../../shared/model/home';
import { api } from '../../api/connectApi';
import { ErrorAlert } from '../../components/ErrorAlert';
import { RelativeTime } from '../../components/RelativeTime';
import { useMutation } from '../../components/useMutation';
import { useRequest } from '../../components/useRequest';
import { useHomeStore } from '../../stores/homeStore';
import { ChangeSetDetail } from './ChangeSetDetail';
import { useHistoryStore } from './historyStore';
import { keepDream, revertChangeSet } from './historyWrites';
import { RollbackDialog } from './RollbackDialog';
import './history.css';
import { PendingState } from '../../components/PendingState';

function reviewText(item: DreamReviewItem): string {
  if (!item.review) return 'Not reviewed';
  return item.review.decision === 'kept' ? 'Kept' : 'Reverted';
}

function DreamCard({ item, readOnly }: { readonly item: DreamReviewItem; readonly readOnly: boolean }) {
  const [open, setOpen] = useState(false);
  const [plan, setPlan] = useState<RollbackPlan | null>(null);
  // Keeping and planning the revert share one place to say what went wrong.
  const asking = useMutation();
  const { changeSet } = item;
  const keep = () => asking.run(() => keepDream({ id: changeSet.id }));
  const askRevert = async () => {
    const result = await asking.run(() => api.planRevert({ id: changeSet.id }));
    if (result.ok) setPlan(result.value);
  };
  return (
    <li className={`dream-card${item.review ? '' : ' unreviewed'}`} aria-label={`Dream ${changeSet.time}`}>
      <div className="dream-card-head">
        <strong>
          <RelativeTime iso={changeSet.time} />
        </strong>
        <span className="muted small">{new Date(changeSet.time).toLocaleString()}</span>
        <span className={`badge ${item.review ? 'muted-badge' : 'warn'}`}>{reviewText(item)}</span>
      </div>
      <dl className="facts">
        <dt>Sessions since the previous consolidation</dt>
        <dd>{item.sessionsSince === null ? '— (not known: history never saw the lock before)' : item.sessionsSince}</dd>
        <dt>Files touched</dt>
        <dd>
          {changeSet.totals.added} added, {changeSet.totals.modified} modified, {changeSet.totals.deleted} deleted · +
          {changeSet.totals.linesAdded} −{changeSet.totals.linesRemoved} lines
        </dd>
        <dt>Deleted</dt>
        <dd>{item.deleted.length === 0 ? 'nothing' : item.deleted.map((path) => <code key={path}>{path} </code>)}</dd>
      </dl>
      <div className="actions">
        <button type="button" disabled={readOnly || item.review !== null} onClick={() => void keep()}>
          Keep
        </button>
        <button type="button" disabled={readOnly || item.review?.decision === 'reverted'} onClick={() => void askRevert()}>
          Revert all
        </button>
        <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? 'Hide changes' : 'Show changes (revert per file)'}
        </button>
      </div>
      <ErrorAlert error={asking.error} />
      {plan ? (
        <RollbackDialog
          title="Revert this dream"
          plan={plan}
          run={() => revertChangeSet({ id: changeSet.id })}
          onCancel={() => setPlan(null)}
          onDone={() => setPlan(null)}
        />
      ) : null}
      {open ? <ChangeSetDetail changeSet={changeSet} wholeRevertElsewhere /> : null}
    </li>
  );
}

/**
 * Dreams, after the fact: every consolidation history detected in this project's memory (Claude Code's own,
 * found by its lock and what it changed), newest first, to keep or to revert, wholly or file by file.
 */
export function DreamsReview({ project }: { readonly project: ProjectSummary }) {
  const revision = useHistoryStore((s) => s.revision);
  const readOnly = useHomeStore((s) => s.home?.readOnly ?? true);
  const dreams = useRequest(`${project.configRoot}\0${project.slug}\0${revision}`, () =>
    api.listDreams({ project: { configRoot: project.configRoot, slug: project.slug } }),
  );
  const unreviewed = dreams.status === 'done' ? dreams.value.filter((d) => !d.review).length : 0;
  return (
    <section className="dreams-review" aria-label="Dreams, after the fact">
      <h2>Dreams, after the fact {unreviewed > 0 ? <span className="badge warn">{unreviewed} to review</span> : null}</h2>
      {dreams.status === 'loading' ? <PendingState label="Finding the dreams in history" /> : null}
      {dreams.status === 'error' ? <p className="error">{dreams.message}</p> : null}
      {dreams.status === 'done' && dreams.value.length === 0 ? (
        <p className="muted">
          No dream has changed this memory since history started recording it. Any dream from before, reconstructed from Claude Code&apos;s
          transcripts, is listed on the History page.
        </p>
      ) : null}
      {dreams.status === 'done' ? (
        <ul className="plain-list dream-list">
          {dreams.value.map((item) => (
            <DreamCard key={item.changeSet.id} item={item} readOnly={readOnly} />
          ))}
        </ul>
      ) : null}
    </section>
  );
}
