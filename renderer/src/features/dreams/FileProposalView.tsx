import { useState } from 'react';
import type { FileProposal } from '../../../../shared/jobs/jobTypes';
import { changesFile, chosenText, toggleHunk, type FileChoice } from '../../../../shared/jobs/proposalChoices';
import { EvidenceBadge, EvidencePanel, type TranscriptRef } from './EvidencePanel';
import { ProposalDiff } from './ProposalDiff';
import { KIND_TEXT } from './proposalTexts';

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

/** One proposed file: its diff (or the person's edit), the decision on it, and the evidence beside it. */
export function FileProposalView({
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
