import type { RollbackPlan, RollbackResult } from '../../../../shared/history/historyModel';
import type { Result } from '../../../../shared/result';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useMutation } from '../../components/useMutation';

export interface RollbackDialogProps {
  readonly title: string;
  /** Computes the plan without writing (called when the dialog opens). */
  readonly plan: RollbackPlan;
  /** The write (a store's action, which tells the history views). */
  readonly run: () => Promise<Result<RollbackResult>>;
  readonly onDone: () => void;
  readonly onCancel: () => void;
}

function short(hash: string | null): string {
  return hash === null ? 'absent' : hash.slice(0, 10);
}

/**
 * Confirms a restore or revert: what each file becomes, or why it is refused. Nothing is written until the
 * person confirms, and a refused plan cannot be confirmed.
 */
export function RollbackDialog({ title, plan, run, onDone, onCancel }: RollbackDialogProps) {
  const writing = useMutation();
  const { busy } = writing;
  const refused = plan.conflicts.length > 0;
  const confirm = async () => {
    if ((await writing.run(run)).ok) onDone();
  };
  return (
    <div className="dialog" role="dialog" aria-label={title} onKeyDown={(event) => event.key === 'Escape' && !busy && onCancel()}>
      <h3>{title}</h3>
      {refused ? (
        <>
          <p className="error">Refused: it would overwrite a newer change. Nothing will be written.</p>
          <ul className="plain-list" aria-label="Conflicts">
            {plan.conflicts.map((conflict) => (
              <li key={conflict.path}>
                <code>{conflict.path}</code> {conflict.reason}
              </li>
            ))}
          </ul>
        </>
      ) : plan.writes.length === 0 ? (
        <p className="muted">Nothing to do: the files already are that way.</p>
      ) : (
        <ul className="plain-list" aria-label="Files to write">
          {plan.writes.map((write) => (
            <li key={write.path}>
              <code>{write.path}</code>{' '}
              {write.target === null
                ? 'will be deleted (its content stays in history)'
                : write.expected === null
                  ? 'will be recreated'
                  : 'will be put back'}{' '}
              · +{write.linesAdded} −{write.linesRemoved}{' '}
              <span className="muted small">
                ({short(write.expected)} → {short(write.target)})
              </span>
            </li>
          ))}
        </ul>
      )}
      <ErrorAlert error={writing.error} />
      <div className="dialog-buttons">
        <button type="button" className="primary" disabled={busy || refused || plan.writes.length === 0} onClick={() => void confirm()}>
          {busy ? 'Writing…' : 'Confirm'}
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </div>
  );
}
