import { describe, expect, it } from 'vitest';
import { ConversationTree } from '../../../../shared/transcript/conversationTree';
import { buildTranscriptRows, type RowOptions } from '../../../../shared/transcript/transcriptRows';
import { assistantChunk, entry, indexLines, toolResult } from '../../../fixtures/indexLines';

const records = [
  { type: 'permission-mode', permissionMode: 'default' },
  entry('user', 'u', null),
  entry('user', 'meta', 'u', { isMeta: true }),
  assistantChunk('call', 'meta', 'm1', { type: 'tool_use', id: 'toolu_1', name: 'Bash' }),
  '{"type":"user","broken',
  toolResult('result', 'call', 'toolu_1'),
  { type: 'shiny-new-type', anything: 1 },
  entry('assistant', 'answer', 'result'),
  { type: 'ai-title', aiTitle: 'Title' },
];

function rows(options: Partial<RowOptions>) {
  const lines = indexLines(records);
  const tree = new ConversationTree(lines);
  const branch = tree.branchTo(tree.liveLeaf({ sidechain: false }));
  return buildTranscriptRows(lines, tree, branch, {
    showMeta: false,
    showMetadata: false,
    includeOffChain: true,
    foldToolResults: true,
    ...options,
  });
}

describe('buildTranscriptRows', () => {
  it('folds tool results into their call, hides meta lines and keeps unknown and unreadable lines in file position', () => {
    const shown = rows({});
    // Lines: 2 prompt, 4 call (+ its result on line 6), 5 unreadable, 7 unknown type, 8 answer.
    expect(shown.lines).toEqual([2, 4, 5, 7, 8]);
    expect(shown.rowOfLine.get(6)).toBe(1);
    expect(shown.resultLineOf.get('toolu_1')).toBe(6);
    // The hidden meta line stands at the next shown row.
    expect(shown.rowOfLine.get(3)).toBe(1);
  });

  it('shows meta lines, bookkeeping lines and unfolded results when asked', () => {
    expect(rows({ showMeta: true }).lines).toEqual([2, 3, 4, 5, 7, 8]);
    expect(rows({ showMetadata: true }).lines).toEqual([1, 2, 4, 5, 7, 8, 9]);
    expect(rows({ foldToolResults: false }).lines).toEqual([2, 4, 5, 6, 7, 8]);
  });

  it('leaves the off-chain lines out of a sub-agent run inside the session file', () => {
    expect(rows({ includeOffChain: false }).lines).toEqual([2, 4, 8]);
  });
});
