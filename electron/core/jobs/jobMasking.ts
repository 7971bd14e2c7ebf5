import type { FileProposal, JobRecord, JobRecordView, JobSummary } from '../../../shared/jobs/jobTypes';
import type { SecretMasker } from '../secrets/secretMasker';

/** Summaries as shown: the model's closing summary masked, all of them with one scan. */
export async function maskSummaries<T extends JobSummary>(masker: SecretMasker, summaries: readonly T[]): Promise<T[]> {
  const { texts, masked } = await masker.maskAll(summaries.map((summary) => summary.summary ?? ''));
  if (masked === 0) return [...summaries];
  return summaries.map((summary, index) => (summary.summary === null ? summary : { ...summary, summary: texts[index] }));
}

/** The texts of a proposal that are shown (its sides, its diff, its hunks), in a fixed order. */
function proposalTexts(proposal: FileProposal): string[] {
  return [proposal.before ?? '', proposal.after ?? '', proposal.diff, ...proposal.parts.flatMap((part) => [part.before, part.after])];
}

function withTexts(proposal: FileProposal, texts: readonly string[]): FileProposal {
  let next = 3;
  return {
    ...proposal,
    before: proposal.before === null ? null : texts[0],
    after: proposal.after === null ? null : texts[1],
    diff: texts[2],
    parts: proposal.parts.map((part) => ({ ...part, before: texts[next++], after: texts[next++] })),
  };
}

/**
 * A job record as the getJob request shows it: secrets masked in the summary and in every text of every proposal,
 * unless revealed (the desktop app, on an explicit click). The stored record keeps the real text: applying uses it.
 */
export async function maskRecord(masker: SecretMasker, record: JobRecord, revealSecrets: boolean): Promise<JobRecordView> {
  if (revealSecrets) return { ...record, secretsMasked: 0, maskedProposals: [] };
  const groups = record.proposals.map(proposalTexts);
  const { texts, masked } = await masker.maskAll([record.summary ?? '', ...groups.flat()]);
  if (masked === 0) return { ...record, secretsMasked: 0, maskedProposals: [] };
  let at = 1;
  const maskedProposals: string[] = [];
  const proposals = record.proposals.map((proposal, index) => {
    const own = texts.slice(at, at + groups[index].length);
    at += groups[index].length;
    if (own.some((text, i) => text !== groups[index][i])) maskedProposals.push(proposal.path);
    return withTexts(proposal, own);
  });
  return {
    ...record,
    summary: record.summary === null ? null : texts[0],
    proposals,
    secretsMasked: masked,
    maskedProposals,
  };
}
