import { useEffect, useState } from 'react';
import type { JobRecordView } from '../../../../shared/jobs/jobTypes';
import { changesFile, decisionsFor, UNDECIDED, type FileChoice } from '../../../../shared/jobs/proposalChoices';
import { ErrorAlert } from '../../components/ErrorAlert';
import { countOf } from '../../../../shared/text/plural';
import { useMutation } from '../../components/useMutation';
import { ApplyOutcomeView } from './ApplyOutcomeView';
import { FileProposalView } from './FileProposalView';
import { isStale, useInboxStore } from './inboxStore';
import { applyJob, discardJob } from './jobsStore';

export interface ProposalReviewProps {
  readonly record: JobRecordView;
  readonly readOnly: boolean;
}

/** A finished job's proposed change set: approve or reject files and hunks, edit, then apply. */
export function ProposalReview({ record, readOnly }: ProposalReviewProps) {
  const [choices, setChoices] = useState<Record<string, FileChoice>>({});
  const deciding = useMutation();
  const { busy, clear } = deciding;
  const inbox = useInboxStore((s) => s.entries);
  useEffect(() => {
    setChoices({});
    clear();
  }, [record.id, clear]);
  const decidable = !readOnly && record.outcome === null && record.status !== 'running' && record.proposals.length > 0;
  const choiceOf = (path: string) => choices[path] ?? UNDECIDED;
  const approvedCount = record.proposals.filter((p) => changesFile(p, choiceOf(p.path))).length;
  const transcripts =
    record.target.target.kind === 'project' ? { configRoot: record.target.target.configRoot, slug: record.target.target.slug } : null;

  return (
    <div aria-label="Proposed changes">
      {record.outcome ? <ApplyOutcomeView outcome={record.outcome} /> : null}
      {record.proposals.length === 0 ? <p className="muted">No changes were proposed.</p> : null}
      {decidable ? (
        <div className="actions">
          <button
            type="button"
            onClick={() => setChoices(Object.fromEntries(record.proposals.map((p) => [p.path, { mode: 'accept' } as const])))}
          >
            Approve all
          </button>
          <button type="button" disabled={busy} onClick={() => void deciding.run(() => discardJob({ jobId: record.id }))}>
            Reject all
          </button>
          <button
            type="button"
            className="primary"
            disabled={busy || approvedCount === 0}
            onClick={() => void deciding.run(() => applyJob({ jobId: record.id, decisions: decisionsFor(record.proposals, choices) }))}
          >
            Apply {countOf(approvedCount, 'approved file')}
          </button>
        </div>
      ) : null}
      <ErrorAlert error={deciding.error} />
      {record.proposals.map((proposal) => (
        <FileProposalView
          key={proposal.path}
          proposal={proposal}
          choice={choiceOf(proposal.path)}
          decidable={decidable}
          stale={decidable && isStale(inbox, record.id, proposal.path)}
          transcripts={transcripts}
          editable={!record.maskedProposals.includes(proposal.path)}
          onChoose={(choice) => setChoices((current) => ({ ...current, [proposal.path]: choice }))}
        />
      ))}
      {record.refused.length > 0 ? (
        <details className="refused">
          <summary>{countOf(record.refusedCount, 'change')} the model asked for and the validator refused</summary>
          <ul className="plain-list" aria-label="Refused changes">
            {record.refused.map((refused, index) => (
              <li key={index}>
                <code>{refused.path}</code> <span className="muted">({refused.kind})</span>: {refused.reason}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}
