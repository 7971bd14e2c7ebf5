import type { Branch, ConversationTree } from './conversationTree';
import type { IndexedLine } from './indexedLine';
import { CHAIN_TYPES, isRequestRecord, isToolHook, METADATA_TYPES } from './transcriptEntry';

export interface RowOptions {
  /** Show `isMeta` lines (skill bodies, caveats, injected context). */
  readonly showMeta: boolean;
  /** Show bookkeeping lines (titles, modes, snapshots, progress mirrors, shadowed duplicates, API request records). */
  readonly showMetadata: boolean;
  /** Place the lines outside the conversation chain (unknown types, unreadable lines, metadata) among the rows. */
  readonly includeOffChain: boolean;
  /** Show tool results inside their call's row instead of as rows of their own. */
  readonly foldToolResults: boolean;
}

export interface TranscriptRows {
  /** The line number shown in each row, in reading order. */
  readonly lines: readonly number[];
  /** The row that shows (or stands in for) a line of the branch: folded tool results map to their call's row. */
  readonly rowOfLine: ReadonlyMap<number, number>;
  /** Tool results folded into their call's row, by `tool_use_id`. */
  readonly resultLineOf: ReadonlyMap<string, number>;
  /** PreToolUse/PostToolUse hook results folded into their call's row, by `tool_use_id`. */
  readonly hookLinesOf: ReadonlyMap<string, readonly number[]>;
  /** Rows of the compaction boundaries on the branch. */
  readonly compactionRows: readonly number[];
}

/** Whether a line belongs among the off-chain lines a view shows, given its options. */
function isShownOffChain(line: IndexedLine, tree: ConversationTree, options: RowOptions): boolean {
  if (line.unreadable !== null) return true;
  if (line.type === 'progress' || line.type === 'summary' || METADATA_TYPES.has(line.type)) return options.showMetadata;
  if (CHAIN_TYPES.has(line.type) && line.uuid !== null) {
    // A chain line is off the tree only when a later line reused its uuid.
    const winner = tree.indexOfUuid(line.uuid);
    return winner !== undefined && tree.nodes[winner].line !== line.line && options.showMetadata;
  }
  // Unknown types (and chain types without a uuid) are always shown raw: nothing is silently dropped.
  return true;
}

/** Largest index in `sorted` whose value is below `value`, or -1. */
function lastBelow(sorted: readonly number[], value: number): number {
  let low = 0;
  let high = sorted.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if (sorted[mid] < value) {
      found = mid;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return found;
}

/**
 * Turns a branch into the rows a reader sees: tool results and tool hooks fold into the row of their call, `isMeta`
 * lines and API request records hide unless asked for, and lines outside the chain are placed after the nearest branch line before them in the file.
 */
export function buildTranscriptRows(
  allLines: readonly IndexedLine[],
  tree: ConversationTree,
  branch: Branch,
  options: RowOptions,
): TranscriptRows {
  const branchLines = branch.nodes.map((node) => tree.nodes[node]);
  const callLineOf = new Map<string, number>();
  for (const line of branchLines) for (const use of line.toolUses) callLineOf.set(use.id, line.line);
  const resultLineOf = new Map<string, number>();
  const hookLinesOf = new Map<string, number[]>();
  const folded: { line: number; callLine: number }[] = [];
  const hidden: number[] = [];
  const chain: number[] = [];
  for (const line of branchLines) {
    const isResultOnly = line.type === 'user' && line.toolResultIds.length > 0 && !line.hasOwnContent;
    const hookCall = isToolHook(line) ? callLineOf.get(line.attachmentToolUseId as string) : undefined;
    if (options.foldToolResults && isResultOnly && line.toolResultIds.every((id) => callLineOf.has(id))) {
      for (const id of line.toolResultIds) resultLineOf.set(id, line.line);
      folded.push({ line: line.line, callLine: callLineOf.get(line.toolResultIds[0]) as number });
    } else if (options.foldToolResults && hookCall !== undefined) {
      const id = line.attachmentToolUseId as string;
      hookLinesOf.set(id, [...(hookLinesOf.get(id) ?? []), line.line]);
      folded.push({ line: line.line, callLine: hookCall });
    } else if ((line.isMeta && !options.showMeta) || (isRequestRecord(line) && !options.showMetadata)) {
      hidden.push(line.line);
    } else {
      chain.push(line.line);
    }
  }

  let lines: number[] = chain;
  if (options.includeOffChain) {
    const sortedChain = [...chain].sort((a, b) => a - b);
    const positionOfLine = new Map(chain.map((line, position) => [line, position]));
    const before: number[] = [];
    const after = new Map<number, number[]>();
    // Tree nodes and lines are both in file order: walk them side by side to tell the off-chain lines apart.
    let node = 0;
    for (const line of allLines) {
      while (node < tree.nodes.length && tree.nodes[node].line < line.line) node++;
      if ((node < tree.nodes.length && tree.nodes[node].line === line.line) || !isShownOffChain(line, tree, options)) continue;
      const anchor = lastBelow(sortedChain, line.line);
      if (anchor < 0) {
        before.push(line.line);
        continue;
      }
      const position = positionOfLine.get(sortedChain[anchor]) as number;
      const list = after.get(position);
      if (list) list.push(line.line);
      else after.set(position, [line.line]);
    }
    lines = [...before];
    chain.forEach((line, position) => {
      lines.push(line);
      const extra = after.get(position);
      if (extra) lines.push(...extra);
    });
  }

  const rowOfLine = new Map<number, number>();
  lines.forEach((line, row) => rowOfLine.set(line, row));
  for (const { line, callLine } of folded) {
    const callRow = rowOfLine.get(callLine);
    if (callRow !== undefined) rowOfLine.set(line, callRow);
  }
  // A hidden line stands at the next shown branch line (or the end).
  const hiddenSet = new Set(hidden);
  let next = lines.length > 0 ? lines.length - 1 : 0;
  for (let i = branchLines.length - 1; i >= 0; i--) {
    const line = branchLines[i].line;
    if (hiddenSet.has(line)) rowOfLine.set(line, next);
    else if (rowOfLine.has(line)) next = rowOfLine.get(line) as number;
  }

  const compactionRows = branchLines
    .filter((line) => line.subtype === 'compact_boundary' && !hiddenSet.has(line.line))
    .map((line) => rowOfLine.get(line.line) as number);
  return { lines, rowOfLine, resultLineOf, hookLinesOf, compactionRows };
}
