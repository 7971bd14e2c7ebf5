import type { FileProposal, ProposalEvidence } from '../../../../shared/jobs/jobTypes';
import { openTranscript } from '../../stores/navigationStore';

/** The project whose transcripts a job's citations point into; null for an agent memory (it has none). */
export interface TranscriptRef {
  readonly configRoot: string;
  readonly slug: string;
}

/** How far a proposal's citations hold, in a word the review header shows. */
export type EvidenceState = 'unrecorded' | 'uncited' | 'unverified' | 'verified';

export function evidenceState(proposal: FileProposal): EvidenceState {
  if (proposal.evidence === undefined) return 'unrecorded';
  if (proposal.evidence.length === 0) return 'uncited';
  return proposal.evidence.every((e) => e.verified) ? 'verified' : 'unverified';
}

const STATE_TEXT: Readonly<Record<EvidenceState, string>> = {
  unrecorded: 'no citations recorded',
  uncited: 'cites nothing',
  unverified: 'citations not found',
  verified: 'citations checked',
};

export function EvidenceBadge({ proposal }: { readonly proposal: FileProposal }) {
  const state = evidenceState(proposal);
  return (
    <span className={`badge evidence-${state}`} aria-label="Evidence check">
      {STATE_TEXT[state]}
    </span>
  );
}

function placeText(evidence: ProposalEvidence): string {
  if (evidence.sessionId === null) return `${evidence.file ?? 'unknown source'}, line ${evidence.line}`;
  const agent = evidence.agentId ? `sub-agent ${evidence.agentId} of ` : '';
  return `${agent}session ${evidence.sessionId.slice(0, 8)}, line ${evidence.line}`;
}

function Citation({ evidence, transcripts }: { readonly evidence: ProposalEvidence; readonly transcripts: TranscriptRef | null }) {
  const sessionId = evidence.sessionId;
  return (
    <li className={evidence.verified ? 'citation' : 'citation unverified'} aria-label={`Citation ${placeText(evidence)}`}>
      <div className="citation-place">
        <span>{placeText(evidence)}</span>
        {sessionId !== null && transcripts ? (
          <button
            type="button"
            className="link"
            onClick={() =>
              openTranscript({
                configRoot: transcripts.configRoot,
                slug: transcripts.slug,
                sessionId,
                line: evidence.line,
                agentId: evidence.agentId,
              })
            }
          >
            Open the transcript at that line
          </button>
        ) : null}
      </div>
      <blockquote className="citation-quote">{evidence.text}</blockquote>
      {evidence.lineText !== null ? (
        <pre className="citation-line" aria-label="The cited line">
          {evidence.lineText}
        </pre>
      ) : null}
      {evidence.verified ? null : <p className="warning small">Not found: {evidence.problem ?? 'the line does not say this'}.</p>}
    </li>
  );
}

/**
 * What a proposed change rests on, shown beside its diff: each cited line as it really reads, whether it holds the
 * quoted words, and a way into the transcript at that line. A change that cites nothing says so plainly.
 */
export function EvidencePanel({ proposal, transcripts }: { readonly proposal: FileProposal; readonly transcripts: TranscriptRef | null }) {
  const state = evidenceState(proposal);
  return (
    <aside className="evidence-panel" aria-label={`Evidence for ${proposal.path}`}>
      <h4>Evidence</h4>
      {state === 'unrecorded' ? <p className="muted small">This job was run before jobs cited their sources.</p> : null}
      {state === 'uncited' ? (
        <p className="warning small">
          The model cited nothing for this change: check it against the transcripts yourself before approving.
        </p>
      ) : null}
      {state === 'unverified' ? (
        <p className="warning small">Some cited lines do not say what the model quoted: read them before approving.</p>
      ) : null}
      {proposal.evidence && proposal.evidence.length > 0 ? (
        <ul className="plain-list citations">
          {proposal.evidence.map((evidence, index) => (
            <Citation key={index} evidence={evidence} transcripts={transcripts} />
          ))}
        </ul>
      ) : null}
    </aside>
  );
}
