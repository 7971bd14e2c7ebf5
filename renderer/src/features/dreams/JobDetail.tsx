import { useEffect, useState } from 'react';
import type { JobSummary } from '../../../../shared/jobs/jobTypes';
import { api } from '../../api/connectApi';
import { SecretsNotice, useCanRevealSecrets } from '../../components/SecretsNotice';
import { useRequest } from '../../components/useRequest';
import { formatCost, JobProgressView } from './JobProgressView';
import { useJobsStore } from './jobsStore';
import { ProposalReview } from './ProposalReview';

const STOP_TEXT = {
  'turn-cap': 'it used all its turns',
  'token-cap': 'it reached the token cap',
  'cost-cap': 'the next call would have passed the spending cap',
} as const;

export interface JobDetailProps {
  readonly job: JobSummary;
  readonly readOnly: boolean;
}

/** One job: its live progress while it runs, then its summary and proposed changes. */
export function JobDetail({ job, readOnly }: JobDetailProps) {
  const progress = useJobsStore((s) => s.progress[job.id]);
  const canReveal = useCanRevealSecrets();
  // Secrets in the summary and proposals are masked until an explicit click reveals them (desktop only).
  const [revealed, setRevealed] = useState(false);
  useEffect(() => setRevealed(false), [job.id]);
  const record = useRequest(
    job.status === 'running' ? null : `${job.id}\0${job.status}\0${job.outcome?.at ?? ''}\0${String(revealed)}`,
    () => api.getJob({ jobId: job.id, revealSecrets: revealed }),
  );
  const summary = record.status === 'done' ? record.value.summary : job.summary;
  return (
    <section className="job-detail" aria-label="Job">
      <h2>
        {job.kind === 'dream' ? 'Dream' : 'Extraction replay'} of {job.target.label}{' '}
        <span className={`badge status-${job.status}`}>{job.status}</span>
      </h2>
      <p className="muted small">
        Job {job.id} · {job.model} {job.via === 'claude-code' ? 'through Claude Code' : 'through the API'} ·{' '}
        {(job.usage.input + job.usage.output).toLocaleString('en')} tokens ·{' '}
        {job.via === 'claude-code' && job.costUsd === null ? 'no dollar cost (Claude subscription)' : formatCost(job.costUsd)} · prompt{' '}
        {job.promptHash.slice(0, 12)}
      </p>
      {job.status === 'running' && progress ? <JobProgressView progress={progress} /> : null}
      {job.status === 'running' && !progress ? <p className="muted">Starting…</p> : null}
      {job.error ? <p className="error">Stopped: {job.error}</p> : null}
      {job.stopReason ? (
        <p className="warning">Stopped early because {STOP_TEXT[job.stopReason]}; the proposal may be incomplete.</p>
      ) : null}
      {record.status === 'done' ? (
        <SecretsNotice
          masked={record.value.secretsMasked}
          revealed={revealed}
          onReveal={canReveal ? () => setRevealed(true) : null}
          onHide={() => setRevealed(false)}
        />
      ) : null}
      {summary ? (
        <div aria-label="Model summary" className="raw-text model-summary">
          {summary}
        </div>
      ) : null}
      {record.status === 'error' ? <p className="error">{record.message}</p> : null}
      {record.status === 'done' ? <ProposalReview record={record.value} readOnly={readOnly} /> : null}
    </section>
  );
}
