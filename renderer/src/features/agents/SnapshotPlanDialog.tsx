import type { SnapshotPlan } from '../../../../shared/model/agents';
import { COMMAND_TITLES, operationText } from './snapshotTexts';

export interface SnapshotPlanDialogProps {
  readonly plan: SnapshotPlan;
  readonly busy: boolean;
  readonly error: string | null;
  readonly onConfirm: () => void;
  readonly onCancel: () => void;
}

/** Shows exactly what an action would change (or why it is refused) before anything is written. */
export function SnapshotPlanDialog({ plan, busy, error, onConfirm, onCancel }: SnapshotPlanDialogProps) {
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
      {error ? <p className="error">{error}</p> : null}
      <div className="dialog-buttons">
        {plan.refusal || plan.operations.length === 0 ? null : (
          <button type="button" className="primary" disabled={busy} onClick={onConfirm}>
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
