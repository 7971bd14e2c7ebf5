import type { JobRecord, ProposalKind } from '../../../shared/jobs/jobTypes';

/** One element of `proposals` in `ccmem dream --json` / `ccmem extract --json`: a stable schema. */
export interface ProposalJson {
  readonly path: string;
  readonly kind: ProposalKind;
  readonly diff: string;
  /** Whether the validator let the change be staged; refused changes carry the reason. */
  readonly accepted: boolean;
  readonly rejectedReason: string | null;
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
      ...record.proposals.map((p) => ({ path: p.path, kind: p.kind, diff: p.diff, accepted: true, rejectedReason: null })),
      ...record.refused.map((r) => ({ path: r.path, kind: r.kind, diff: '', accepted: false, rejectedReason: r.reason })),
    ],
  };
}
