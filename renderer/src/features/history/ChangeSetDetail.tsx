import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { describeTotals } from '../../../../shared/history/changeSetFiles';
import type { ChangeSetSummary, RollbackPlan, RollbackResult, VersionPair } from '../../../../shared/history/historyModel';
import type { Result } from '../../../../shared/result';
import { api } from '../../api/connectApi';
import { ErrorAlert } from '../../components/ErrorAlert';
import { RelativeTime } from '../../components/RelativeTime';
import { useMutation } from '../../components/useMutation';
import { useRequest } from '../../components/useRequest';
import { useHomeStore } from '../../stores/homeStore';
import { DiffViewer } from './DiffViewer';
import { CauseBadge, EvidenceView } from './EvidenceView';
import { setLayout, showFileVersions, useHistoryStore } from './historyStore';
import { revertChangeSet } from './historyWrites';
import { RollbackDialog } from './RollbackDialog';
import { PendingState } from '../../components/PendingState';

interface PendingRollback {
  readonly title: string;
  readonly plan: RollbackPlan;
  readonly run: () => Promise<Result<RollbackResult>>;
}

export function LayoutToggle() {
  const layout = useHistoryStore((s) => s.layout);
  return (
    <div className="segmented" role="group" aria-label="Diff layout">
      <button type="button" aria-pressed={layout === 'side-by-side'} onClick={() => setLayout('side-by-side')}>
        Side by side
      </button>
      <button type="button" aria-pressed={layout === 'inline'} onClick={() => setLayout('inline')}>
        Inline
      </button>
    </div>
  );
}

function FileDiff({ pair, layout }: { readonly pair: VersionPair; readonly layout: 'side-by-side' | 'inline' }) {
  if (pair.binary) return <p className="muted">Not shown: binary or too large to compare.</p>;
  return <DiffViewer before={pair.beforeText} after={pair.afterText} layout={layout} label={`Diff of ${pair.path}`} />;
}

export interface ChangeSetDetailProps {
  readonly changeSet: ChangeSetSummary;
  /** Where the caller offers reverting the whole change set itself (a dream's "Revert all"), only files are offered here. */
  readonly wholeRevertElsewhere?: boolean;
}

/**
 * One change set: who made it and the evidence, every file's diff, and "Revert this change set" (or one
 * file of it) after a confirmation that shows what each file becomes or why it is refused.
 */
export function ChangeSetDetail({ changeSet, wholeRevertElsewhere = false }: ChangeSetDetailProps) {
  const { revision, layout } = useHistoryStore(useShallow((s) => ({ revision: s.revision, layout: s.layout })));
  const readOnly = useHomeStore((s) => s.home?.readOnly ?? true);
  const pairs = useRequest(`${changeSet.id}\0${revision}`, () => api.readChangeSetDiff({ id: changeSet.id }));
  const [pending, setPending] = useState<PendingRollback | null>(null);
  const planning = useMutation();
  // A version whose bytes are not known cannot be gone back to (or from).
  const revertable = changeSet.files.every((file) => file.certainty === 'exact' && (file.before !== null || file.kind === 'added'));

  const askRevert = async (paths?: readonly string[]) => {
    const which = { id: changeSet.id, ...(paths ? { paths: [...paths] } : {}) };
    const plan = await planning.run(() => api.planRevert(which));
    if (!plan.ok) return;
    setPending({
      title: paths ? `Revert ${paths.join(', ')}` : 'Revert this change set',
      plan: plan.value,
      run: () => revertChangeSet(which),
    });
  };

  return (
    <article className="change-set-detail" aria-label="Change set">
      <header className="change-set-head">
        <h2>
          <CauseBadge cause={changeSet.cause} /> {changeSet.summary}
        </h2>
        <p className="muted small">
          {changeSet.timeKnown ? '' : 'some time after '}
          <RelativeTime iso={changeSet.time} /> · {changeSet.folderLabel} · {describeTotals(changeSet.totals)}
          {changeSet.foundAtStartup ? ' · found when the app started' : ''}
          {changeSet.reconstructed ? ' · reconstructed from what Claude Code left behind, before history started' : ''}
        </p>
        <EvidenceView evidence={changeSet.evidence} />
        <div className="actions">
          {!changeSet.firstSight && !wholeRevertElsewhere && revertable ? (
            <button type="button" disabled={readOnly} onClick={() => void askRevert()}>
              Revert this change set
            </button>
          ) : null}
          <LayoutToggle />
        </div>
      </header>
      <ErrorAlert error={planning.error} />
      {pending ? (
        <RollbackDialog
          title={pending.title}
          plan={pending.plan}
          run={pending.run}
          onCancel={() => setPending(null)}
          onDone={() => {
            setPending(null);
            planning.clear();
          }}
        />
      ) : null}
      {pairs.status === 'loading' ? <PendingState label="Reading the diff" /> : null}
      {pairs.status === 'error' ? <p className="error">{pairs.message}</p> : null}
      {changeSet.files.map((file) => {
        const pair = pairs.status === 'done' ? pairs.value.find((p) => p.path === file.path) : undefined;
        return (
          <section key={file.path} className="change-file" aria-label={`File ${file.path}`}>
            <div className="change-file-head">
              <code>{file.path}</code>
              <span className={`badge kind-${file.kind}`}>{file.kind}</span>
              {file.certainty === 'exact' ? (
                <span className="muted small">
                  +{file.linesAdded} −{file.linesRemoved}
                </span>
              ) : (
                <span className="badge muted-badge" title="Only the fact of this change is known: its bytes were never recorded anywhere">
                  content not known
                </span>
              )}
              {file.gap ? <span className="muted small gap-note">{file.gap}</span> : null}
              {changeSet.folder ? (
                <button type="button" className="link" onClick={() => showFileVersions(changeSet.id, file.path)}>
                  All versions
                </button>
              ) : null}
              {!changeSet.firstSight && changeSet.files.length > 1 && file.certainty === 'exact' ? (
                <button type="button" className="link" disabled={readOnly} onClick={() => void askRevert([file.path])}>
                  Revert this file
                </button>
              ) : null}
            </div>
            {pair ? <FileDiff pair={pair} layout={layout} /> : null}
          </section>
        );
      })}
    </article>
  );
}
