import type { ConversationTree } from './conversationTree';
import type { IndexedLine } from './indexedLine';

/** Why a user or assistant line is on no branch a reader can open. */
export type UnreachableReason =
  /** A later line reused its uuid; Claude Code keeps the later one (shown with bookkeeping lines). */
  | 'duplicate-uuid'
  /** It has no uuid, so nothing can link to it (shown raw where it stands in the file). */
  | 'no-uuid';

export interface UnreachableLine {
  readonly line: number;
  readonly reason: UnreachableReason;
}

function isMessage(line: IndexedLine): boolean {
  return line.unreadable === null && (line.type === 'user' || line.type === 'assistant');
}

/**
 * The user and assistant lines of a file that no branch a reader can open shows, in file order, with the reason. Every
 * other one is a node of the tree, so a branch shows it: the live one, the branch to the newest end below it (a fork's
 * alternative, another root), or an inline sub-agent run. Nothing is silently gone. Which lines are unreachable does
 * not hang on the branch shown, so a document works them out once (and keeps them with its saved index).
 */
export function unreachableLines(lines: readonly IndexedLine[], tree: ConversationTree): UnreachableLine[] {
  const out: UnreachableLine[] = [];
  // The tree's nodes are lines of the file in file order, one a uuid, so a line's node (if it has one) is found by
  // walking both in step: a uuid lookup per line cost a map of every uuid, ~100 ms with the rest on 500 MB.
  let next = 0;
  for (const line of lines) {
    if (!isMessage(line)) continue;
    if (line.uuid === null) {
      out.push({ line: line.line, reason: 'no-uuid' });
      continue;
    }
    while (next < tree.size && tree.nodes[next].line < line.line) next++;
    if (next >= tree.size || tree.nodes[next].line !== line.line) out.push({ line: line.line, reason: 'duplicate-uuid' });
  }
  return out;
}
