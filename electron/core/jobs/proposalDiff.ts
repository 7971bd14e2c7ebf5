import { createTwoFilesPatch, diffLines } from 'diff';
import type { DiffPart } from '../../../shared/jobs/diffParts';
import type { FileProposal, ProposalKind } from '../../../shared/jobs/jobTypes';
import type { StagedChange } from './StagingOverlay';

/** Beyond this many changed lines a file is shown as one hunk: a line diff would cost more than it helps. */
const MAX_EDIT_LENGTH = 4000;

/** Splits a change into unchanged runs and hunks; joining every part's side gives back each text exactly. */
export function diffParts(before: string, after: string): DiffPart[] {
  const changes = diffLines(before, after, { maxEditLength: MAX_EDIT_LENGTH });
  if (!changes) return before === after ? [{ kind: 'same', before, after }] : [{ kind: 'change', before, after }];
  const parts: DiffPart[] = [];
  for (const change of changes) {
    const last = parts[parts.length - 1];
    if (!change.added && !change.removed) {
      parts.push({ kind: 'same', before: change.value, after: change.value });
    } else if (last?.kind === 'change') {
      // A removal followed by an addition is one hunk: the old lines and what replaces them.
      parts[parts.length - 1] = {
        kind: 'change',
        before: last.before + (change.removed ? change.value : ''),
        after: last.after + (change.added ? change.value : ''),
      };
    } else {
      parts.push({ kind: 'change', before: change.removed ? change.value : '', after: change.added ? change.value : '' });
    }
  }
  return parts;
}

/** A unified diff of one file, with /dev/null on the side that does not exist. */
export function unifiedDiff(path: string, before: string | null, after: string | null): string {
  return createTwoFilesPatch(
    before === null ? '/dev/null' : `a/${path}`,
    after === null ? '/dev/null' : `b/${path}`,
    before ?? '',
    after ?? '',
  );
}

/** Turns a staged change into a proposal with its hunks and unified diff. */
export function toProposal(change: StagedChange): FileProposal {
  const before = change.base?.kind === 'text' ? change.base.content : null;
  const kind: ProposalKind = before === null ? 'add' : change.after === null ? 'delete' : 'modify';
  const baseHash = change.base && change.base.kind !== 'symlink' ? change.base.hash : null;
  return {
    path: change.path,
    kind,
    baseHash,
    before,
    after: change.after,
    parts: diffParts(before ?? '', change.after ?? ''),
    diff: unifiedDiff(change.path, before, change.after),
  };
}
