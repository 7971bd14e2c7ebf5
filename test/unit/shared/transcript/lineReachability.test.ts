import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConversationTree } from '../../../../shared/transcript/conversationTree';
import { lineFates } from '../../../../shared/transcript/lineReachability';
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

describe('lineFates', () => {
  it('accounts for every user and assistant line: shown, on a branch that opens with it, in a sub-agent run, or unreachable with a reason', () => {
    fc.assert(
      fc.property(fc.array(lineArbitrary, { maxLength: 30 }), (generated) => {
        const lines = indexLines(generated.map(toRecord));
        const tree = new ConversationTree(lines);
        const leaf = tree.liveLeaf({ sidechain: false });
        const branch = leaf >= 0 ? tree.branchTo(leaf) : null;
        const fates = lineFates(lines, tree, branch);
        const rows = branch
          ? buildTranscriptRows(lines, tree, branch, { showMeta: true, showMetadata: true, includeOffChain: true, foldToolResults: true })
          : null;
        for (const line of lines) {
          if (line.type !== 'user' && line.type !== 'assistant') continue;
          const fate = fates.get(line.line);
          if (fate === undefined) {
            // On the branch shown, and among its rows.
            expect(rows?.rowOfLine.has(line.line), `line ${line.line} has no fate and is not shown`).toBe(true);
            continue;
          }
          switch (fate.kind) {
            case 'branch': {
              // The view named by the leaf shows the line.
              const named = tree.indexOfUuid(fate.leafUuid);
              expect(named).toBeDefined();
              const shown = tree.branchTo(named!).nodes.map((node) => tree.nodes[node].line);
              expect(shown).toContain(line.line);
              break;
            }
            case 'sub-agent': {
              const root = tree.indexOfUuid(fate.rootUuid)!;
              const node = tree.indexOfUuid(line.uuid!)!;
              expect(tree.nodes[root].isSidechain).toBe(true);
              expect(tree.rootOf(node)).toBe(root);
              break;
            }
            case 'unreachable':
              if (fate.reason === 'no-uuid') expect(line.uuid).toBeNull();
              else {
                // A later line took its uuid.
                expect(tree.nodes[tree.indexOfUuid(line.uuid!)!].line).toBeGreaterThan(line.line);
              }
              break;
          }
        }
      }),
      { numRuns: 400 },
    );
  });

  it('names the other branches of a real-shaped fork and a duplicated line', () => {
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
    const fates = lineFates(lines, tree, tree.branchTo(tree.liveLeaf({ sidechain: false })));
    // Lines 1, 2, 5 and 7 are on the branch shown.
    expect([...fates.entries()]).toEqual([
      [3, { kind: 'branch', leafUuid: 'old-a' }],
      [4, { kind: 'branch', leafUuid: 'old-a' }],
      [6, { kind: 'unreachable', reason: 'duplicate-uuid' }],
      [8, { kind: 'unreachable', reason: 'no-uuid' }],
    ]);
  });
});
