import { applyHunkSelection, hunkCount } from '../../../shared/jobs/diffParts';
import type {
  AppliedFile,
  ApplyOutcome,
  ConflictedFile,
  FileProposal,
  JobRecord,
  ProposalDecision,
  ProposalKind,
} from '../../../shared/jobs/jobTypes';
import { CodedError } from '../../../shared/result';
import type { ChangeSetWriter, FileChange } from '../changes/changeSetWriter';
import type { WriteRoot } from '../changes/writeRoot';
import { readConsolidationLockStatus } from '../lock/consolidationLockStatus';
import {
  releaseConsolidationLockAfterDream,
  rollbackConsolidationLock,
  tryAcquireConsolidationLock,
  type HeldConsolidationLock,
} from '../lock/consolidationLock';
import { MAX_PROPOSED_FILE_BYTES, refuseByRule } from './writePolicy';

/** What the user approved for one file: the exact text to write, or null to delete it. */
interface ApprovedChange {
  readonly proposal: FileProposal;
  readonly kind: ProposalKind;
  readonly content: string | null;
}

export interface ApplyDependencies {
  readonly writer: ChangeSetWriter;
  /** The job's memory folder as the writer guards it (`record.target.memoryDir`). */
  readonly root: WriteRoot;
  readonly now: () => Date;
}

/** Turns the user's decisions into the exact changes to make; anything not approved is rejected. */
function approvedChanges(
  proposals: readonly FileProposal[],
  decisions: readonly ProposalDecision[],
): { approved: ApprovedChange[]; rejected: string[] } {
  const byPath = new Map<string, ProposalDecision>();
  for (const decision of decisions) {
    if (!proposals.some((p) => p.path === decision.path))
      throw new CodedError('INVALID_INPUT', `The job proposes nothing for ${decision.path}`);
    if (byPath.has(decision.path)) throw new CodedError('INVALID_INPUT', `Two decisions for ${decision.path}`);
    byPath.set(decision.path, decision);
  }
  const approved: ApprovedChange[] = [];
  const rejected: string[] = [];
  for (const proposal of proposals) {
    const decision = byPath.get(proposal.path);
    let content: string | null;
    switch (decision?.decision) {
      case undefined:
      case 'reject':
        rejected.push(proposal.path);
        continue;
      case 'accept':
        content = proposal.after;
        break;
      case 'hunks': {
        if (proposal.kind !== 'modify')
          throw new CodedError(
            'INVALID_INPUT',
            `${proposal.path} is ${proposal.kind === 'add' ? 'a new file' : 'a deletion'}: take it whole or not at all`,
          );
        const count = hunkCount(proposal.parts);
        if (decision.hunks.some((h) => !Number.isInteger(h) || h < 0 || h >= count))
          throw new CodedError('INVALID_INPUT', `${proposal.path} has hunks 0 to ${count - 1}`);
        content = applyHunkSelection(proposal.parts, decision.hunks);
        break;
      }
      case 'edit':
        if (Buffer.byteLength(decision.content) > MAX_PROPOSED_FILE_BYTES)
          throw new CodedError('INVALID_INPUT', `${proposal.path}: the edited text is over 250 KB`);
        content = decision.content;
        break;
    }
    if (content === proposal.before) {
      rejected.push(proposal.path);
      continue;
    }
    const kind: ProposalKind = content === null ? 'delete' : proposal.before === null ? 'add' : 'modify';
    approved.push({ proposal, kind, content });
  }
  return { approved, rejected };
}

function describeFailure(error: CodedError): string {
  return error.code === 'CONFLICT' ? 'changed on disk since the job started' : error.message;
}

/**
 * Applies approved proposals under `.consolidate-lock` (project memory; agent memory has no lock in Claude
 * Code) through the change-set writer, file by file: each is written only if it still has the hash it had when
 * the job started, and a file that is refused, changed meanwhile or fails for any other reason is reported with
 * its reason while the others go on. Every applied file lands in one history change set with the job's cause.
 * The lock is released the way a successful dream leaves it when a dream applied anything, and rolled back
 * otherwise (nothing applied, an extraction, or an error before the writes).
 */
export async function applyProposals(
  record: JobRecord,
  decisions: readonly ProposalDecision[],
  deps: ApplyDependencies,
): Promise<ApplyOutcome> {
  const { approved, rejected } = approvedChanges(record.proposals, decisions);
  const at = deps.now().toISOString();
  if (approved.length === 0) return { at, applied: [], conflicts: [], rejected, changeSetId: null };
  const { root } = deps;
  if (root.dir !== record.target.memoryDir) throw new CodedError('INVALID_INPUT', 'The job was made for another memory folder');
  // Before the lock is taken, which would write into the folder wherever it leads.
  await deps.writer.checkRoot(root);
  const conflicts: ConflictedFile[] = [];
  const changes: FileChange[] = [];
  for (const { proposal, content } of approved) {
    // A hand edit or chosen hunks can make a change the model never staged: the same rules hold for it.
    const refusal = refuseByRule(proposal.path, content === null ? 'delete' : 'write', content, root.dir);
    if (refusal !== null) conflicts.push({ path: proposal.path, reason: refusal });
    else changes.push({ path: proposal.path, base: proposal.baseHash, after: content });
  }
  if (changes.length === 0) return { at, applied: [], conflicts, rejected, changeSetId: null };
  let lock: HeldConsolidationLock | null = null;
  if (record.target.target.kind === 'project') {
    lock = await tryAcquireConsolidationLock(root.dir);
    if (!lock) {
      const status = await readConsolidationLockStatus(root.dir);
      throw new CodedError(
        'LOCK_HELD',
        `Claude Code is consolidating this memory (process ${status.holderPid ?? '?'}); apply again when it is done`,
        {
          holderPid: status.holderPid,
        },
      );
    }
  }
  const summary = `${record.kind === 'dream' ? 'Dream' : 'Extraction replay'} ${record.id}${record.summary ? `: ${record.summary.split('\n')[0].slice(0, 160)}` : ''}`;
  let applied: AppliedFile[] = [];
  let changeSetId: string | null = null;
  let failed = true;
  try {
    const outcome = await deps.writer.apply({ root, changes, cause: record.kind, summary, failures: 'skip' });
    const written = new Set(outcome.written.map((file) => file.path));
    applied = approved
      .filter((change) => written.has(change.proposal.path))
      .map((change) => ({ path: change.proposal.path, kind: change.kind }));
    conflicts.push(...outcome.failed.map((file) => ({ path: file.path, reason: describeFailure(file.error) })));
    changeSetId = outcome.changeSetId;
    failed = false;
  } finally {
    if (lock && failed) {
      // The error that got us here matters more than a failed rollback, which Claude Code also only tolerates.
      await rollbackConsolidationLock(lock).catch(() => undefined);
    } else if (lock) {
      if (applied.length > 0 && record.kind === 'dream') await releaseConsolidationLockAfterDream(lock);
      else await rollbackConsolidationLock(lock);
    }
  }
  return { at, applied, conflicts, rejected, changeSetId };
}
