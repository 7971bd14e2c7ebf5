import type { JobSummary } from '../../../../shared/jobs/jobTypes';
import { RelativeTime } from '../../components/RelativeTime';
import { formatCost } from './JobProgressView';
import { selectJob } from './jobsStore';

export interface JobRecordsTableProps {
  readonly jobs: readonly JobSummary[];
  readonly selectedId: string | null;
}

/** Every job kept in the app data folder: what ran, on which memory, what it cost and what became of it. */
export function JobRecordsTable({ jobs, selectedId }: JobRecordsTableProps) {
  if (jobs.length === 0) return <p className="muted">No jobs yet.</p>;
  return (
    <div className="table-scroll">
      <table className="data-table" aria-label="Job records">
        <thead>
          <tr>
            <th>Started</th>
            <th>Job</th>
            <th>Memory</th>
            <th>Status</th>
            <th>Model</th>
            <th>Tokens</th>
            <th>Cost</th>
            <th>Proposed</th>
          </tr>
        </thead>
        <tbody>
          {jobs.map((job) => (
            <tr key={job.id} className={job.id === selectedId ? 'selected-row' : undefined}>
              <td>
                <RelativeTime iso={job.createdAt} />
              </td>
              <td>
                <button type="button" className="link" onClick={() => selectJob(job.id)} aria-label={`Open job ${job.id}`}>
                  {job.kind === 'dream' ? 'Dream' : 'Extraction replay'}
                </button>
                {job.trigger === 'user' ? null : (
                  <span className="muted small"> ({job.trigger === 'schedule' ? 'scheduled' : 'automatic'})</span>
                )}
              </td>
              <td className="break">{job.target.label}</td>
              <td>
                <span className={`badge status-${job.status}`}>{job.status}</span>
              </td>
              <td>{job.model}</td>
              <td>{(job.usage.input + job.usage.output).toLocaleString('en')}</td>
              <td>{formatCost(job.costUsd)}</td>
              <td>
                {job.proposalCount}
                {job.refusedCount > 0 ? <span className="muted"> (+{job.refusedCount} refused)</span> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
