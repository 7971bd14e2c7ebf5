import { describe, expect, it } from 'vitest';
import type { FileProposal } from '../../../../shared/jobs/jobTypes';
import { changesFile, chosenText, decisionsFor, toggleHunk, UNDECIDED } from '../../../../shared/jobs/proposalChoices';
import { toProposal } from '../../../../electron/core/jobs/proposalDiff';

const modified: FileProposal = toProposal({
  path: 'MEMORY.md',
  base: { kind: 'text', content: 'a\nb\nc\nd\ne\n', hash: 'f'.repeat(64), bytes: 10 },
  after: 'A\nb\nc\nd\nE\n',
});
const added: FileProposal = toProposal({ path: 'new.md', base: null, after: 'new\n' });

describe('choosing what to apply of a proposal', () => {
  it('moves between accepting, some hunks and rejecting as hunks are toggled', () => {
    let choice = toggleHunk(modified, UNDECIDED, 1);
    expect(choice).toEqual({ mode: 'hunks', hunks: [1] });
    expect(chosenText(modified, choice)).toBe('a\nb\nc\nd\nE\n');
    choice = toggleHunk(modified, choice, 0);
    expect(choice).toEqual({ mode: 'accept' });
    choice = toggleHunk(modified, choice, 0);
    expect(choice).toEqual({ mode: 'hunks', hunks: [1] });
    choice = toggleHunk(modified, choice, 1);
    expect(choice).toEqual({ mode: 'reject' });
    expect(changesFile(modified, choice)).toBe(false);
  });

  it('sends one decision per file, undecided files as rejected', () => {
    expect(
      decisionsFor([modified, added], {
        'MEMORY.md': { mode: 'edit', content: 'mine\n' },
      }),
    ).toEqual([
      { path: 'MEMORY.md', decision: 'edit', content: 'mine\n' },
      { path: 'new.md', decision: 'reject' },
    ]);
    expect(decisionsFor([modified, added], { 'MEMORY.md': { mode: 'hunks', hunks: [0] }, 'new.md': { mode: 'accept' } })).toEqual([
      { path: 'MEMORY.md', decision: 'hunks', hunks: [0] },
      { path: 'new.md', decision: 'accept' },
    ]);
  });

  it('shows a rejected new file as not created', () => {
    expect(chosenText(added, { mode: 'reject' })).toBeNull();
    expect(chosenText(added, { mode: 'accept' })).toBe('new\n');
  });
});
