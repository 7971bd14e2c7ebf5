import type { ApplyOutcome } from '../../../../shared/jobs/jobTypes';
import { KIND_TEXT } from './proposalTexts';

/** What an apply wrote, where history keeps the versions it replaced, and what it refused or left out. */
export function ApplyOutcomeView({ outcome }: { readonly outcome: ApplyOutcome }) {
  return (
    <div className="dialog" role="status" aria-label="Apply result">
      <p>
        {outcome.applied.length === 0 ? 'Nothing was written.' : `Applied ${outcome.applied.length} file(s).`}
        {outcome.changeSetId ? (
          <>
            {' '}
            History change set <code>{outcome.changeSetId}</code> holds the previous versions (revertable).
          </>
        ) : null}
      </p>
      {outcome.applied.length > 0 ? (
        <ul className="plain-list" aria-label="Applied files">
          {outcome.applied.map((file) => (
            <li key={file.path}>
              <code>{file.path}</code> <span className="muted">({KIND_TEXT[file.kind]})</span>
            </li>
          ))}
        </ul>
      ) : null}
      {outcome.conflicts.length > 0 ? (
        <ul className="plain-list" aria-label="Conflicts">
          {outcome.conflicts.map((conflict) => (
            <li key={conflict.path} className="error">
              <code>{conflict.path}</code>: {conflict.reason}; not applied
            </li>
          ))}
        </ul>
      ) : null}
      {outcome.rejected.length > 0 ? <p className="muted">Rejected: {outcome.rejected.join(', ')}</p> : null}
    </div>
  );
}
