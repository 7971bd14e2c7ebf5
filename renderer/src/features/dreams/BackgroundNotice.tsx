import type { BackgroundStatus } from '../../../../shared/jobs/backgroundJobs';
import { RelativeTime } from '../../components/RelativeTime';

const KIND_TEXT = { dream: 'Reviewed dream', extraction: 'Automatic extraction replay' } as const;

/** What background jobs are doing: one running, some waiting (for the budget or their turn), and recent problems. */
export function BackgroundNotice({ status }: { readonly status: BackgroundStatus }) {
  const { budget, waiting, problems } = status;
  if (!status.active && waiting.length === 0 && problems.length === 0) return null;
  return (
    <div aria-label="Background jobs" role="status">
      {status.runningJobId ? <p className="muted">A background job is running now.</p> : null}
      {budget.exhausted ? (
        <p className="warning">
          Today&apos;s token budget for background jobs is spent ({budget.spent.toLocaleString('en')} of {budget.limit.toLocaleString('en')}{' '}
          tokens): {waiting.length > 0 ? 'the jobs below wait' : 'new jobs wait'} until{' '}
          {budget.resumesAt ? new Date(budget.resumesAt).toLocaleString() : 'tomorrow'}.
        </p>
      ) : null}
      {waiting.length > 0 ? (
        <ul className="plain-list" aria-label="Waiting jobs">
          {waiting.map((job, index) => (
            <li key={index}>
              {KIND_TEXT[job.kind]} of {job.label}: {job.reason === 'budget' ? 'waiting for tomorrow’s budget' : 'waiting for its turn'}{' '}
              (due <RelativeTime iso={job.since} />)
            </li>
          ))}
        </ul>
      ) : null}
      {problems.length > 0 ? (
        <ul className="plain-list" aria-label="Background job problems">
          {problems.map((problem, index) => (
            <li key={index} className="error">
              <RelativeTime iso={problem.at} />: {problem.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
