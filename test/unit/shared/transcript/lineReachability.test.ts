import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConversationTree } from '../../../../shared/transcript/conversationTree';
import { unreachableLines } from '../../../../shared/transcript/lineReachability';
import { buildTranscriptRows } from '../../../../shared/transcript/transcriptRows';
import { entry, indexLines } from '../../../fixtures/indexLines';

const UUIDS = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];

/** A line of a transcript as Claude Code may leave it: forks, repeats, dangling links, sidechains, progress, no uuid. */
const lineArbitrary = fc.record({
  type: fc.constantFrom('user', 'assistant', 'system', 'attachment', 'progress', 'summary'),
  uuid: fc.option(fc.constantFrom(...UUIDS), { nil: null, freq: 8 }),
  parentUuid: fc.option(fc.constantFrom(...UUIDS, 'missing-1', 'missing-2'), { nil: null, freq: 3 }),
  logicalParentUuid: fc.option(fc.constantFrom(...UUIDS, 'missing-3'), { nil: null, freq: 1 }),
  isSidechain: fc.boolean(),
  minute: fc.nat({ max: 59 }),
});

type LineShape = typeof lineArbitrary extends fc.Arbitrary<infer T> ? T : never;

function toRecord(line: LineShape): Record<string, unknown> {
  const record: Record<string, unknown> = {
    type: line.type,
    parentUuid: line.parentUuid,
    isSidechain: line.isSidechain,
    timestamp: `2026-05-01T10:${String(line.minute).padStart(2, '0')}:00.000Z`,
  };
  if (line.uuid !== null) record.uuid = line.uuid;
  if (line.logicalParentUuid !== null) {
    record.subtype = 'compact_boundary';
    record.logicalParentUuid = line.logicalParentUuid;
  }
  return record;
}

describe('unreachableLines', () => {
  it('accounts for every user and assistant line: shown, on a branch that opens with it, in a sub-agent run, or unreachable with a reason', () => {
    fc.assert(
      fc.property(fc.array(lineArbitrary, { maxLength: 30 }), (generated) => {
        const lines = indexLines(generated.map(toRecord));
        const tree = new ConversationTree(lines);
        const leaf = tree.liveLeaf({ sidechain: false });
        const branch = leaf >= 0 ? tree.branchTo(leaf) : null;
        const unreachable = new Map(unreachableLines(lines, tree).map((found) => [found.line, found.reason]));
        const rows = branch
          ? buildTranscriptRows(lines, tree, branch, { showMeta: true, showMetadata: true, includeOffChain: true, foldToolResults: true })
          : null;
        for (const line of lines) {
          if (line.type !== 'user' && line.type !== 'assistant') continue;
          const reason = unreachable.get(line.line);
          if (reason === 'no-uuid') {
            expect(line.uuid).toBeNull();
            continue;
          }
          if (reason === 'duplicate-uuid') {
            // A later line took its uuid.
            expect(tree.nodes[tree.indexOfUuid(line.uuid!)!].line).toBeGreaterThan(line.line);
            continue;
          }
          expect(reason, `line ${line.line}`).toBeUndefined();
          if (rows?.rowOfLine.has(line.line)) continue;
          // Off the branch shown: a node of the tree, on the branch to the newest end below it, or in an inline run.
          const node = tree.indexOfUuid(line.uuid!);
          expect(node, `line ${line.line} is in no list and no node`).toBeDefined();
          expect(tree.nodes[node!].line).toBe(line.line);
          const root = tree.rootOf(node!);
          if (tree.nodes[root].isSidechain) continue;
          const shown = tree.branchTo(tree.newestTerminalOf(node!)).nodes.map((n) => tree.nodes[n].line);
          expect(shown).toContain(line.line);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('names a duplicated line and a line without a uuid, and no line of a fork’s other branch', () => {
    const records = [
      entry('user', 'u1', null),
      entry('assistant', 'a1', 'u1'),
      entry('user', 'old', 'a1'),
      entry('assistant', 'old-a', 'old'),
      entry('user', 'new', 'a1'),
      entry('assistant', 'new-a', 'new'),
      entry('user', 'new-a', 'new'),
      { type: 'assistant', parentUuid: 'new', message: { role: 'assistant', content: [] } },
    ];
    const lines = indexLines(records);
    const tree = new ConversationTree(lines);
    // Lines 1, 2, 5 and 7 are on the live branch; 3 and 4 on the branch the fork's other way leads to.
    expect(unreachableLines(lines, tree)).toEqual([
      { line: 6, reason: 'duplicate-uuid' },
      { line: 8, reason: 'no-uuid' },
    ]);
  });
});
