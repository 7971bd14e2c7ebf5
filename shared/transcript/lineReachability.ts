import type { Branch, ConversationTree } from './conversationTree';
import type { IndexedLine } from './indexedLine';

/** Why a user or assistant line is on no branch a reader can open. */
export type UnreachableReason =
  /** A later line reused its uuid; Claude Code keeps the later one (shown with bookkeeping lines). */
  | 'duplicate-uuid'
  /** It has no uuid, so nothing can link to it (shown raw where it stands in the file). */
  | 'no-uuid';

/** Where a user or assistant line of a file off the branch shown can be read. */
export type LineFate =
  /** On another branch: the view whose `leafUuid` is this shows it (a fork's alternative, another root). */
  | { readonly kind: 'branch'; readonly leafUuid: string }
  /** In a sub-agent run written inline in the session (Claude Code 1.0), starting at this uuid. */
  | { readonly kind: 'sub-agent'; readonly rootUuid: string }
  | { readonly kind: 'unreachable'; readonly reason: UnreachableReason };

export interface UnreachableLine {
  readonly line: number;
  readonly reason: UnreachableReason;
}

/** The fates every line of their kind shares, made once. */
const NO_UUID: LineFate = Object.freeze({ kind: 'unreachable', reason: 'no-uuid' });
const DUPLICATE_UUID: LineFate = Object.freeze({ kind: 'unreachable', reason: 'duplicate-uuid' });

function isMessage(line: IndexedLine): boolean {
  return line.unreadable === null && (line.type === 'user' || line.type === 'assistant');
}

/**
 * Accounts for every user and assistant line of a file against the branch shown (of the main conversation, or of
 * a sub-agent's own file when `sidechainIsMain`): on it, on another branch (named by the leaf that opens it), in an
 * inline sub-agent run, or unreachable with the reason. Nothing is silently gone. The map holds the lines off the
 * branch: a line it does not name is on it (most lines of a big file, which a map entry each cost ~20 ms and their
 * garbage on 500 MB).
 */
export function lineFates(
  lines: readonly IndexedLine[],
  tree: ConversationTree,
  branch: Branch | null,
  sidechainIsMain = false,
): Map<number, LineFate> {
  const onBranch = new Uint8Array(tree.size);
  for (const node of branch?.nodes ?? []) onBranch[node] = 1;
  const fates = new Map<number, LineFate>();
  // The tree's nodes are lines of the file in file order, one a uuid, so a line's node (if it has one) is found by
  // walking both in step: a uuid lookup per line cost a map of every uuid, ~100 ms with the rest on 500 MB.
  let next = 0;
  for (const line of lines) {
    if (!isMessage(line)) continue;
    if (line.uuid === null) {
      fates.set(line.line, NO_UUID);
      continue;
    }
    while (next < tree.size && tree.nodes[next].line < line.line) next++;
    if (next >= tree.size || tree.nodes[next].line !== line.line) {
      fates.set(line.line, DUPLICATE_UUID);
      continue;
    }
    const node = next;
    if (onBranch[node] === 1) continue;
    const root = tree.rootOf(node);
    if (tree.nodes[root].isSidechain && !sidechainIsMain && onBranch[root] !== 1) {
      fates.set(line.line, { kind: 'sub-agent', rootUuid: tree.nodes[root].uuid as string });
    } else {
      // The newest end below the line: the branch that ends there goes through it.
      fates.set(line.line, { kind: 'branch', leafUuid: tree.nodes[tree.newestTerminalOf(node)].uuid as string });
    }
  }
  return fates;
}
