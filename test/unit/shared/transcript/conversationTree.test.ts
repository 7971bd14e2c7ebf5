import { describe, expect, it } from 'vitest';
import { ConversationTree } from '../../../../shared/transcript/conversationTree';
import { assistantChunk, entry, indexLines, toolResult } from '../../../fixtures/indexLines';

function liveBranchUuids(records: readonly Record<string, unknown>[]): (string | null)[] {
  const tree = new ConversationTree(indexLines(records));
  const leaf = tree.liveLeaf({ sidechain: false });
  return tree.branchTo(leaf).nodes.map((node) => tree.nodes[node].uuid);
}

describe('ConversationTree', () => {
  it('follows the newest leaf at a fork and offers the other child as an alternative', () => {
    const records = [
      entry('user', 'u1', null),
      entry('assistant', 'a1', 'u1'),
      entry('user', 'old', 'a1', { message: { role: 'user', content: 'first try' } }),
      entry('assistant', 'old-a', 'old'),
      entry('user', 'new', 'a1', { message: { role: 'user', content: 'edited prompt' } }),
      entry('assistant', 'new-a', 'new'),
    ];
    const tree = new ConversationTree(indexLines(records));
    const branch = tree.branchTo(tree.liveLeaf({ sidechain: false }));
    expect(branch.nodes.map((node) => tree.nodes[node].uuid)).toEqual(['u1', 'a1', 'new', 'new-a']);
    expect(branch.forks).toHaveLength(1);
    expect(branch.forks[0].position).toBe(1);
    const [alternative] = branch.forks[0].alternatives;
    expect(tree.nodes[alternative.start].uuid).toBe('old');
    expect(tree.nodes[alternative.leaf].uuid).toBe('old-a');
    expect(alternative.size).toBe(2);
    expect(tree.branchTo(alternative.leaf).nodes.map((node) => tree.nodes[node].uuid)).toEqual(['u1', 'a1', 'old', 'old-a']);
  });

  it('ends the branch at trailing system lines after the last turn', () => {
    expect(
      liveBranchUuids([entry('user', 'u', null), entry('assistant', 'a', 'u'), entry('system', 'turn', 'a', { subtype: 'turn_duration' })]),
    ).toEqual(['u', 'a', 'turn']);
  });

  it('turns a dangling parent of the first line into a root and counts it', () => {
    const tree = new ConversationTree(indexLines([entry('user', 'u', 'gone'), entry('assistant', 'a', 'u')]));
    expect(tree.stats.danglingParents).toBe(1);
    expect(tree.roots().map((root) => tree.nodes[root].uuid)).toEqual(['u']);
    expect(tree.missingParent[0]).toBe('gone');
    expect(liveBranchUuids([entry('user', 'u', 'gone'), entry('assistant', 'a', 'u')])).toEqual(['u', 'a']);
  });

  it('hangs a later dangling link off the line before it, so the history before it stays on the branch', () => {
    // A compaction whose logicalParentUuid, and a progress line whose parentUuid, name uuids in no line of the file.
    const records = [
      entry('user', 'u1', null),
      entry('assistant', 'a1', 'u1'),
      entry('system', 'boundary', null, { subtype: 'compact_boundary', logicalParentUuid: 'lost-before-compaction' }),
      entry('user', 'summary', 'boundary', { isCompactSummary: true }),
      entry('progress', 'p', 'lost-progress-parent', { data: { type: 'hook_progress' } }),
      entry('user', 'u2', 'p'),
      entry('assistant', 'a2', 'u2'),
    ];
    const tree = new ConversationTree(indexLines(records));
    expect(liveBranchUuids(records)).toEqual(['u1', 'a1', 'boundary', 'summary', 'u2', 'a2']);
    expect(tree.stats.danglingParents).toBe(2);
    const boundary = tree.indexOfUuid('boundary') as number;
    const u2 = tree.indexOfUuid('u2') as number;
    expect([tree.parentLink[boundary], tree.missingParent[boundary]]).toEqual(['previous-line', 'lost-before-compaction']);
    expect([tree.parentLink[u2], tree.missingParent[u2], tree.nodes[tree.parent[u2]].uuid]).toEqual([
      'previous-line',
      'lost-progress-parent',
      'summary',
    ]);
  });

  it('falls back to the line before on the same side: a sidechain line never joins the main conversation', () => {
    const records = [entry('user', 'u', null), entry('user', 'side', 'gone', { isSidechain: true }), entry('assistant', 'a', 'u')];
    const tree = new ConversationTree(indexLines(records));
    expect(tree.roots().map((root) => tree.nodes[root].uuid)).toEqual(['u', 'side']);
  });

  it('cuts parent cycles so every node stays reachable and nothing loops', () => {
    const records = [entry('user', 'x', 'z'), entry('assistant', 'y', 'x'), entry('user', 'z', 'y'), entry('user', 'self', 'self')];
    const tree = new ConversationTree(indexLines(records));
    expect(tree.stats.cycles).toBe(1);
    // A line naming itself is a dangling link: it hangs off the line before it.
    expect(tree.stats.danglingParents).toBe(1);
    expect(tree.roots().map((root) => tree.nodes[root].uuid)).toEqual(['x']);
    expect(tree.branchTo(tree.liveLeaf({ sidechain: false })).nodes.map((node) => tree.nodes[node].uuid)).toEqual(['x', 'y', 'z', 'self']);
  });

  it('lets a repeated uuid win by its later line, as Claude Code does, and counts it', () => {
    const tree = new ConversationTree(
      indexLines([
        entry('user', 'u', null, { message: { role: 'user', content: 'first copy' } }),
        entry('assistant', 'a', 'u'),
        entry('user', 'u', null),
      ]),
    );
    expect(tree.stats.duplicateUuids).toBe(1);
    expect(tree.nodes.map((node) => [node.uuid, node.line])).toEqual([
      ['a', 2],
      ['u', 3],
    ]);
  });

  it('bridges legacy progress entries out of the chain', () => {
    const records = [
      entry('user', 'u', null),
      assistantChunk('call', 'u', 'm1', { type: 'tool_use', id: 'toolu_1', name: 'Bash' }),
      entry('progress', 'p1', 'call', { data: { type: 'bash_progress' } }),
      entry('progress', 'p2', 'p1', { data: { type: 'bash_progress' } }),
      toolResult('r', 'p2', 'toolu_1'),
      entry('assistant', 'a', 'r'),
    ];
    const tree = new ConversationTree(indexLines(records));
    expect(tree.stats.progressBridged).toBe(2);
    expect(tree.nodes.map((node) => node.uuid)).toEqual(['u', 'call', 'r', 'a']);
    expect(tree.nodes[tree.parent[2]].uuid).toBe('call');
    expect(liveBranchUuids(records)).toEqual(['u', 'call', 'r', 'a']);
  });

  it('links a compaction boundary to the history before it through logicalParentUuid', () => {
    const records = [
      entry('user', 'u', null),
      entry('assistant', 'a', 'u'),
      entry('system', 'boundary', null, { subtype: 'compact_boundary', logicalParentUuid: 'a' }),
      entry('user', 'summary', 'boundary', { isCompactSummary: true }),
      entry('user', 'u2', 'summary'),
    ];
    const tree = new ConversationTree(indexLines(records));
    expect(tree.parentLink[tree.indexOfUuid('boundary') as number]).toBe('compaction');
    expect(liveBranchUuids(records)).toEqual(['u', 'a', 'boundary', 'summary', 'u2']);
  });

  /**
   * Two parallel tool calls as Claude Code 2.1.128 writes them (a572bd87 line 261-264): the second tool_use hangs off
   * the first, each result off its own call; the next turn hangs off `nextParent`. Returns the live branch's uuids.
   */
  function parallelCallsBranch(nextParent: string): string[] {
    const records = [
      entry('user', 'u', null),
      assistantChunk('call1', 'u', 'msg', { type: 'tool_use', id: 't1', name: 'Read' }),
      assistantChunk('call2', 'call1', 'msg', { type: 'tool_use', id: 't2', name: 'Read' }),
      toolResult('r1', 'call1', 't1'),
      toolResult('r2', 'call2', 't2'),
      entry('assistant', 'next', nextParent),
    ];
    const tree = new ConversationTree(indexLines(records));
    const branch = tree.branchTo(tree.liveLeaf({ sidechain: false }));
    expect(branch.forks).toEqual([]);
    return branch.nodes.map((node) => tree.nodes[node].uuid as string);
  }

  it('splices parallel tool calls and their results back in instead of showing them as forks', () => {
    expect(parallelCallsBranch('r2')).toEqual(['u', 'call1', 'call2', 'r1', 'r2', 'next']);
  });

  it('splices back a parallel call the walk missed, with its result, when the next turn hangs off the first call’s result', () => {
    // The path is u, call1, r1, next: the missed call and its result follow the group's last call on it.
    expect(parallelCallsBranch('r1')).toEqual(['u', 'call1', 'call2', 'r2', 'r1', 'next']);
  });

  it('keeps sidechain roots (Claude Code 1.0 inline sub-agents) off the main branch and finds their own leaf', () => {
    const records = [
      entry('user', 'u', null),
      assistantChunk('task', 'u', 'm1', { type: 'tool_use', id: 'toolu_task', name: 'Task' }),
      entry('user', 's1', null, { isSidechain: true }),
      entry('assistant', 's2', 's1', { isSidechain: true }),
      toolResult('r', 'task', 'toolu_task'),
    ];
    const tree = new ConversationTree(indexLines(records));
    expect(tree.branchTo(tree.liveLeaf({ sidechain: false })).nodes.map((node) => tree.nodes[node].uuid)).toEqual(['u', 'task', 'r']);
    const sideRoot = tree.indexOfUuid('s1') as number;
    expect(tree.nodes[tree.liveLeaf({ sidechain: true, within: sideRoot })].uuid).toBe('s2');
  });

  it('has nothing to show for a file of metadata lines only', () => {
    const tree = new ConversationTree(
      indexLines([
        { type: 'file-history-snapshot', messageId: 'm' },
        { type: 'ai-title', aiTitle: 't' },
      ]),
    );
    expect(tree.size).toBe(0);
    expect(tree.liveLeaf({ sidechain: false })).toBe(-1);
  });
});
