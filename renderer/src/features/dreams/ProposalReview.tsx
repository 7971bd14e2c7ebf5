import { useEffect, useState } from 'react';
import type { ApplyOutcome, FileProposal, JobRecordView } from '../../../../shared/jobs/jobTypes';
import { changesFile, chosenText, decisionsFor, toggleHunk, UNDECIDED, type FileChoice } from '../../../../shared/jobs/proposalChoices';
import { api } from '../../api/connectApi';
import { isStale, useInboxStore } from './inboxStore';
import { EvidenceBadge, EvidencePanel, type TranscriptRef } from './EvidencePanel';
import { jobDecided } from './jobsStore';
import { ProposalDiff } from './ProposalDiff';
import { countOf } from '../../components/plural';

export interface ProposalReviewProps {
  readonly record: JobRecordView;
  readonly readOnly: boolean;
}

const KIND_TEXT = { add: 'new file', modify: 'changed', delete: 'deleted' } as const;

function choiceText(proposal: FileProposal, choice: FileChoice): string {
  switch (choice.mode) {
    case 'undecided':
      return 'not decided (kept as it is)';
    case 'accept':
      return 'approved';
    case 'reject':
      return 'rejected';
    case 'hunks':
      return `${choice.hunks.length} of the changes approved`;
    case 'edit':
      return changesFile(proposal, choice) ? 'approved with your edits' : 'edited back to the original (kept as it is)';
  }
}

function OutcomeView({ outcome }: { readonly outcome: ApplyOutcome }) {
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

function FileProposalView({
  proposal,
  choice,
  decidable,
  stale,
  transcripts,
  editable,
  onChoose,
}: {
  readonly proposal: FileProposal;
  readonly choice: FileChoice;
  readonly decidable: boolean;
  /** The file changed on disk since the job read it: applying would be refused as a conflict. */
  readonly stale: boolean;
  readonly transcripts: TranscriptRef | null;
  /** False while a secret in it is masked: the edit would write the masks. */
  readonly editable: boolean;
  readonly onChoose: (choice: FileChoice) => void;
}) {
  const [draft, setDraft] = useState<string | null>(null);
  return (
    <section className="proposal" aria-label={`Proposal ${proposal.path}`}>
      <header className="proposal-header">
        <span className={`badge kind-${proposal.kind}`}>{KIND_TEXT[proposal.kind]}</span>
        <code className="proposal-path">{proposal.path}</code>
        <EvidenceBadge proposal={proposal} />
        <span className="muted" aria-label="Decision">
          {choiceText(proposal, choice)}
        </span>
        {decidable ? (
          <span className="actions inline">
            <button type="button" aria-pressed={choice.mode === 'accept'} onClick={() => onChoose({ mode: 'accept' })}>
              Approve
            </button>
            <button type="button" aria-pressed={choice.mode === 'reject'} onClick={() => onChoose({ mode: 'reject' })}>
              Reject
            </button>
            <button
              type="button"
              disabled={!editable}
              title={editable ? undefined : 'It holds a masked secret: show the secrets first (desktop app) to edit it'}
              onClick={() =>
                setDraft(
                  chosenText(proposal, choice.mode === 'undecided' || choice.mode === 'reject' ? { mode: 'accept' } : choice) ??
                    proposal.before ??
                    '',
                )
              }
            >
              Edit
            </button>
          </span>
        ) : null}
      </header>
      {stale ? (
        <p className="warning" aria-label="Stale">
          This file changed on disk after the job read it: applying this change would be refused. Reject it, or run the job again.
        </p>
      ) : null}
      <div className="proposal-body">
        <div className="proposal-change">
          {draft !== null ? (
            <div className="field">
              <label htmlFor={`edit-${proposal.path}`}>Edit what will be written to {proposal.path}</label>
              <textarea
                id={`edit-${proposal.path}`}
                rows={14}
                value={draft}
                onChange={(event) => setDraft(event.target.value)}
                spellCheck={false}
              />
              <div className="dialog-buttons">
                <button
                  type="button"
                  className="primary"
                  onClick={() => {
                    onChoose({ mode: 'edit', content: draft });
                    setDraft(null);
                  }}
                >
                  Use this text
                </button>
                <button type="button" onClick={() => setDraft(null)}>
                  Cancel edit
                </button>
              </div>
            </div>
          ) : choice.mode === 'edit' ? (
            <pre className="raw-text" aria-label={`Edited ${proposal.path}`}>
              {choice.content}
            </pre>
          ) : (
            <ProposalDiff
              path={proposal.path}
              parts={proposal.parts}
              choice={choice}
              onToggleHunk={decidable && proposal.kind === 'modify' ? (hunk) => onChoose(toggleHunk(proposal, choice, hunk)) : null}
            />
          )}
        </div>
        <EvidencePanel proposal={proposal} transcripts={transcripts} />
      </div>
    </section>
  );
}

/** A finished job's proposed change set: approve or reject files and hunks, edit, then apply. */
export function ProposalReview({ record, readOnly }: ProposalReviewProps) {
  const [choices, setChoices] = useState<Record<string, FileChoice>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const inbox = useInboxStore((s) => s.entries);
  useEffect(() => {
    setChoices({});
    setError(null);
  }, [record.id]);
  const decidable = !readOnly && record.outcome === null && record.status !== 'running' && record.proposals.length > 0;
  const choiceOf = (path: string) => choices[path] ?? UNDECIDED;
  const approvedCount = record.proposals.filter((p) => changesFile(p, choiceOf(p.path))).length;
  const transcripts =
    record.target.target.kind === 'project' ? { configRoot: record.target.target.configRoot, slug: record.target.target.slug } : null;

  async function run(action: () => Promise<{ ok: boolean; error?: { message: string } }>): Promise<void> {
    setBusy(true);
    setError(null);
    const result = await action();
    setBusy(false);
    if (!result.ok) setError(result.error?.message ?? 'Failed');
    await jobDecided();
  }

  return (
    <div aria-label="Proposed changes">
      {record.outcome ? <OutcomeView outcome={record.outcome} /> : null}
      {record.proposals.length === 0 ? <p className="muted">No changes were proposed.</p> : null}
      {decidable ? (
        <div className="actions">
          <button
            type="button"
            onClick={() => setChoices(Object.fromEntries(record.proposals.map((p) => [p.path, { mode: 'accept' } as const])))}
          >
            Approve all
          </button>
          <button type="button" disabled={busy} onClick={() => void run(() => api.discardJob({ jobId: record.id }))}>
            Reject all
          </button>
          <button
            type="button"
            className="primary"
            disabled={busy || approvedCount === 0}
            onClick={() => void run(() => api.applyJob({ jobId: record.id, decisions: decisionsFor(record.proposals, choices) }))}
          >
            Apply {approvedCount} approved file{approvedCount === 1 ? '' : 's'}
          </button>
        </div>
      ) : null}
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
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
