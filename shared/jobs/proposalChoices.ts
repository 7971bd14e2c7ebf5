import { applyHunkSelection, hunkCount } from './diffParts';
import type { FileProposal, ProposalDecision } from './jobTypes';

/** What the user has chosen for one proposed file so far; `undecided` is applied as a rejection. */
export type FileChoice =
  | { readonly mode: 'undecided' }
  | { readonly mode: 'accept' }
  | { readonly mode: 'reject' }
  | { readonly mode: 'hunks'; readonly hunks: readonly number[] }
  | { readonly mode: 'edit'; readonly content: string };

export const UNDECIDED: FileChoice = { mode: 'undecided' };

/** Whether a hunk's new side is taken under this choice. */
export function hunkTaken(choice: FileChoice, hunk: number): boolean {
  if (choice.mode === 'accept') return true;
  return choice.mode === 'hunks' && choice.hunks.includes(hunk);
}

/**
 * Takes or leaves one hunk of a changed file. Taking every hunk is accepting the file, taking none is
 * rejecting it; an edited file goes back to hunk selection.
 */
export function toggleHunk(proposal: FileProposal, choice: FileChoice, hunk: number): FileChoice {
  const count = hunkCount(proposal.parts);
  const taken = new Set(Array.from({ length: count }, (_, i) => i).filter((i) => hunkTaken(choice, i)));
  if (taken.has(hunk)) taken.delete(hunk);
  else taken.add(hunk);
  if (taken.size === count) return { mode: 'accept' };
  if (taken.size === 0) return { mode: 'reject' };
  return { mode: 'hunks', hunks: [...taken].sort((a, b) => a - b) };
}

/** The file as it would be written under this choice (null: deleted, or not created). */
export function chosenText(proposal: FileProposal, choice: FileChoice): string | null {
  switch (choice.mode) {
    case 'accept':
      return proposal.after;
    case 'hunks':
      return applyHunkSelection(proposal.parts, choice.hunks);
    case 'edit':
      return choice.content;
    case 'reject':
    case 'undecided':
      return proposal.before;
  }
}

/** Whether this choice changes the file at all. */
export function changesFile(proposal: FileProposal, choice: FileChoice): boolean {
  return chosenText(proposal, choice) !== proposal.before;
}

/** The decisions to send when applying: every file gets one, undecided files are rejected. */
export function decisionsFor(proposals: readonly FileProposal[], choices: Readonly<Record<string, FileChoice>>): ProposalDecision[] {
  return proposals.map((proposal): ProposalDecision => {
    const choice = choices[proposal.path] ?? UNDECIDED;
    switch (choice.mode) {
      case 'accept':
        return { path: proposal.path, decision: 'accept' };
      case 'hunks':
        return { path: proposal.path, decision: 'hunks', hunks: choice.hunks };
      case 'edit':
        return { path: proposal.path, decision: 'edit', content: choice.content };
      case 'reject':
      case 'undecided':
        return { path: proposal.path, decision: 'reject' };
    }
  });
}
