import type { JobRecord, ProposalEvidence, ProposalKind } from '../../../shared/jobs/jobTypes';

/**
 * One cited source of a proposal: a transcript line (`sessionId`, `agentId` for a sub-agent's transcript, `file`
 * null) or a line of a memory file as it was before the job (`sessionId` null, `file` relative to the memory
 * folder). `text` is the quote; `verified` says whether that line holds it, `problem` why not.
 */
export interface EvidenceJson {
  readonly sessionId: string | null;
  readonly agentId: string | null;
  readonly file: string | null;
  readonly line: number;
  readonly text: string;
  readonly verified: boolean;
  readonly problem: string | null;
}

/** One element of `proposals` in `ccmem dream --json` / `ccmem extract --json`: a stable schema. */
export interface ProposalJson {
  readonly path: string;
  readonly kind: ProposalKind;
  readonly diff: string;
  /** Whether the validator let the change be staged; refused changes carry the reason. */
  readonly accepted: boolean;
  readonly rejectedReason: string | null;
  /** What the change cites; empty when it cites nothing (and always for refused changes). */
  readonly evidence: readonly EvidenceJson[];
}

function toEvidenceJson(evidence: ProposalEvidence): EvidenceJson {
  const { sessionId, agentId, file, line, text, verified, problem } = evidence;
  return { sessionId, agentId, file, line, text, verified, problem };
}

/** `ccmem dream --json` and `ccmem extract --json`: exactly these keys. */
export interface JobJson {
  readonly jobId: string;
  readonly summary: string | null;
  readonly usage: { readonly input: number; readonly output: number };
  readonly proposals: readonly ProposalJson[];
}

export function toJobJson(record: JobRecord): JobJson {
  return {
    jobId: record.id,
    summary: record.summary,
    usage: { input: record.usage.input, output: record.usage.output },
    proposals: [
      ...record.proposals.map((p) => ({
        path: p.path,
        kind: p.kind,
        diff: p.diff,
        accepted: true,
        rejectedReason: null,
        evidence: (p.evidence ?? []).map(toEvidenceJson),
      })),
      ...record.refused.map((r) => ({ path: r.path, kind: r.kind, diff: '', accepted: false, rejectedReason: r.reason, evidence: [] })),
    ],
  };
}
