import type { SnapshotPlan } from '../../../../shared/model/agents';
import { COMMAND_TITLES, operationText } from './snapshotTexts';

export interface SnapshotPlanDialogProps {
  readonly plan: SnapshotPlan;
  readonly busy: boolean;
  readonly error: string | null;
  /** `overwriteNewer`: the person chose to overwrite a newer snapshot after the warning. */
  readonly onConfirm: (overwriteNewer: boolean) => void;
  readonly onCancel: () => void;
  /** Opens the file-by-file merge with these files chosen, instead of overwriting them. */
  readonly onReviewMerge: (files: readonly string[]) => void;
}

/** A teammate's newer snapshot: whose update would be lost, and the way to take it in first. */
function NewerSnapshotWarning({
  plan,
  onReviewMerge,
}: {
  readonly plan: SnapshotPlan;
  readonly onReviewMerge: (files: readonly string[]) => void;
}) {
  const newer = plan.newerSnapshot;
  if (!newer) return null;
  return (
    <div className="banner newer-snapshot" role="alert" aria-label="The snapshot is newer">
      <p>
        The committed snapshot was updated <code>{newer.snapshotUpdatedAt}</code>, after this agent’s memory last synced from it (
        {newer.syncedFrom ? <code>{newer.syncedFrom}</code> : 'never'}): a teammate’s update you have not taken in. Creating it now would
        overwrite their {newer.files.length === 1 ? 'version' : 'versions'} of {newer.files.join(', ')}.
      </p>
      <p>Review their changes and merge the files you want first; marking as synced then says you have seen them.</p>
      <button type="button" className="primary" onClick={() => onReviewMerge(newer.files)}>
        Review the merge first
      </button>
    </div>
  );
}

/** Shows exactly what an action would change (or why it is refused) before anything is written. */
export function SnapshotPlanDialog({ plan, busy, error, onConfirm, onCancel, onReviewMerge }: SnapshotPlanDialogProps) {
  const title = COMMAND_TITLES[plan.command];
  return (
    <div
      className="dialog"
      role="dialog"
      aria-modal="false"
      aria-label={title}
      onKeyDown={(event) => event.key === 'Escape' && !busy && onCancel()}
    >
      <h3>{title}</h3>
      {plan.refusal ? (
        <>
          <p className="error">{plan.refusal.message}</p>
          {plan.refusal.secrets ? (
            <ul aria-label="Secrets found">
              {plan.refusal.secrets.map((secret) => (
                <li key={`${secret.name}:${secret.line}:${secret.kind}`}>
                  <code>{secret.name}</code> line {secret.line}: {secret.kind}
                </li>
              ))}
            </ul>
          ) : null}
        </>
      ) : plan.operations.length === 0 ? (
        <p className="muted">Nothing to change: it is already so.</p>
      ) : (
        <ul aria-label="Planned changes">
          {plan.operations.map((operation) => (
            <li key={`${operation.kind}:${'to' in operation ? operation.to : operation.from}:${operation.name}`}>
              {operationText(operation, plan)}
            </li>
          ))}
        </ul>
      )}
      <NewerSnapshotWarning plan={plan} onReviewMerge={onReviewMerge} />
      {error ? <p className="error">{error}</p> : null}
      <div className="dialog-buttons">
        {plan.refusal || plan.operations.length === 0 ? null : plan.newerSnapshot ? (
          <button type="button" className="danger" disabled={busy} onClick={() => onConfirm(true)}>
            {busy ? 'Working…' : 'Overwrite the snapshot anyway'}
          </button>
        ) : (
          <button type="button" className="primary" disabled={busy} onClick={() => onConfirm(false)}>
            {busy ? 'Working…' : 'Confirm'}
          </button>
        )}
        <button type="button" onClick={onCancel} disabled={busy}>
          {plan.refusal || plan.operations.length === 0 ? 'Close' : 'Cancel'}
        </button>
      </div>
    </div>
  );
}
