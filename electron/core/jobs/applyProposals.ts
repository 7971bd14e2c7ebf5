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
import { ABSENT, contentHash } from '../fs/contentHash';
import type { SafeWriter } from '../fs/safeWriter';
import type { HistoryStore, NewHistoryEntry } from '../history/HistoryStore';
import { readConsolidationLockStatus } from '../lock/consolidationLockStatus';
import {
  releaseConsolidationLockAfterDream,
  rollbackConsolidationLock,
  tryAcquireConsolidationLock,
  type HeldConsolidationLock,
} from '../lock/consolidationLock';
import { MAX_PROPOSED_FILE_BYTES } from './writePolicy';

/** What the user approved for one file: the exact text to write, or null to delete it. */
interface ApprovedChange {
  readonly proposal: FileProposal;
  readonly kind: ProposalKind;
  readonly content: string | null;
}

export interface ApplyDependencies {
  readonly writer: SafeWriter;
  readonly history: HistoryStore;
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

/** The file as it is now; a missing folder on the way (a new subfolder, a new memory) means the file is absent. */
async function readCurrentOrAbsent(writer: SafeWriter, root: string, path: string): Promise<{ hash: string | null; bytes: Buffer | null }> {
  try {
    return await writer.readCurrent(root, path);
  } catch (error) {
    if (error instanceof CodedError && error.code === 'NOT_FOUND') return { hash: null, bytes: null };
    throw error;
  }
}

function describeFailure(error: unknown): string {
  if (error instanceof CodedError) return error.code === 'CONFLICT' ? 'changed on disk since the job started' : error.message;
  return error instanceof Error ? error.message : String(error);
}

/**
 * Applies approved proposals under `.consolidate-lock` (project memory; agent memory has no lock in Claude
 * Code): each file is written only if it still has the hash it had when the job started, atomically through
 * the safe writer; every applied file lands in one history change set with the job's cause. The lock is
 * released the way a successful dream leaves it, or rolled back when nothing was applied, the job was an
 * extraction, or anything failed.
 */
export async function applyProposals(
  record: JobRecord,
  decisions: readonly ProposalDecision[],
  deps: ApplyDependencies,
): Promise<ApplyOutcome> {
  const { approved, rejected } = approvedChanges(record.proposals, decisions);
  const at = deps.now().toISOString();
  if (approved.length === 0) return { at, applied: [], conflicts: [], rejected, changeSetId: null };
  const root = record.target.memoryDir;
  let lock: HeldConsolidationLock | null = null;
  if (record.target.target.kind === 'project') {
    lock = await tryAcquireConsolidationLock(root);
    if (!lock) {
      const status = await readConsolidationLockStatus(root);
      throw new CodedError(
        'LOCK_HELD',
        `Claude Code is consolidating this memory (process ${status.holderPid ?? '?'}); apply again when it is done`,
        {
          holderPid: status.holderPid,
        },
      );
    }
  }
  const changeSetId = deps.history.newChangeSetId();
  const entries: NewHistoryEntry[] = [];
  const applied: AppliedFile[] = [];
  const conflicts: ConflictedFile[] = [];
  const summary = `${record.kind === 'dream' ? 'Dream' : 'Extraction replay'} ${record.id}${record.summary ? `: ${record.summary.split('\n')[0].slice(0, 160)}` : ''}`;
  let failed = true;
  try {
    for (const change of approved) {
      const { proposal } = change;
      const base = proposal.baseHash ?? ABSENT;
      try {
        const current = await readCurrentOrAbsent(deps.writer, root, proposal.path);
        if ((current.hash ?? ABSENT) !== base) {
          conflicts.push({ path: proposal.path, reason: 'changed on disk since the job started' });
          continue;
        }
        // History holds both versions before the file changes, so nothing is ever lost.
        if (current.bytes) await deps.history.putBlob(current.bytes);
        const bytes = change.content === null ? null : Buffer.from(change.content, 'utf8');
        if (bytes) {
          await deps.history.putBlob(bytes);
          await deps.writer.write(root, proposal.path, bytes, base);
        } else {
          await deps.writer.remove(root, proposal.path, base);
        }
        entries.push({
          folder: root,
          path: proposal.path,
          before: proposal.baseHash,
          after: bytes ? contentHash(bytes) : null,
          size: bytes ? bytes.length : null,
          cause: record.kind,
          changeSetId,
          summary,
        });
        applied.push({ path: proposal.path, kind: change.kind });
      } catch (error) {
        if (error instanceof CodedError) conflicts.push({ path: proposal.path, reason: describeFailure(error) });
        else throw error;
      }
    }
    failed = false;
  } finally {
    if (entries.length > 0) await deps.history.append(entries);
    if (lock && failed) {
      // The error that got us here matters more than a failed rollback, which Claude Code also only tolerates.
      await rollbackConsolidationLock(lock).catch(() => undefined);
    } else if (lock) {
      if (applied.length > 0 && record.kind === 'dream') await releaseConsolidationLockAfterDream(lock);
      else await rollbackConsolidationLock(lock);
    }
  }
  return { at, applied, conflicts, rejected, changeSetId: entries.length > 0 ? changeSetId : null };
}
