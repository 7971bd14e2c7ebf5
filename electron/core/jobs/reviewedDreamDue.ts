import type { ProjectSummary } from '../../../shared/model/home';
import { gateOpensForReviewedDream } from './dreamGate';
import type { JobService } from './JobService';
import type { ReviewInbox } from './ReviewInbox';

export type ReviewedDreamDue =
  | { readonly due: true; readonly lastConsolidatedMs: number }
  | { readonly due: false; readonly lastConsolidatedMs: number; readonly reason: string };

/**
 * Whether a reviewed dream of this project should run now, read on disk: Claude Code's gate would fire (see
 * `gateOpensForReviewedDream`) and no proposals for the same memory wait for review, since a second set over the
 * same files would only conflict with the first. The app's scheduler and `ccmem dream --due` share this rule.
 */
export async function reviewedDreamDue(
  project: ProjectSummary,
  services: { readonly jobs: JobService; readonly inbox: ReviewInbox },
  options: { readonly ignoreAutoDreamOff?: boolean } = {},
): Promise<ReviewedDreamDue> {
  const gate = await services.jobs.dreamGate(project);
  const lastConsolidatedMs = gate.lastConsolidatedAt === null ? 0 : Date.parse(gate.lastConsolidatedAt);
  if (!gateOpensForReviewedDream(gate, options)) {
    const reasons = gate.reasons.filter((reason) => !reason.startsWith('autoDreamEnabled is not set'));
    return { due: false, lastConsolidatedMs, reason: reasons.join('; ') || 'the gate is shut' };
  }
  if (await services.inbox.hasPendingFor(project.memoryDir))
    return { due: false, lastConsolidatedMs, reason: 'proposals of an earlier job for this memory wait for review' };
  return { due: true, lastConsolidatedMs };
}
