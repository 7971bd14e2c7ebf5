import type { Branch, ConversationTree } from './conversationTree';
import type { IndexedLine } from './indexedLine';

/** Why a user or assistant line is on no branch a reader can open. */
export type UnreachableReason =
  /** A later line reused its uuid; Claude Code keeps the later one (shown with bookkeeping lines). */
  | 'duplicate-uuid'
  /** It has no uuid, so nothing can link to it (shown raw where it stands in the file). */
  | 'no-uuid';

/** Where a user or assistant line of a file can be read. */
export type LineFate =
  /** On the branch shown. */
  | { readonly kind: 'live' }
  /** On another branch: the view whose `leafUuid` is this shows it (a fork's alternative, another root). */
  | { readonly kind: 'branch'; readonly leafUuid: string }
  /** In a sub-agent run written inline in the session (Claude Code 1.0), starting at this uuid. */
  | { readonly kind: 'sub-agent'; readonly rootUuid: string }
  | { readonly kind: 'unreachable'; readonly reason: UnreachableReason };

export interface UnreachableLine {
  readonly line: number;
  readonly reason: UnreachableReason;
}

function isMessage(line: IndexedLine): boolean {
  return line.unreadable === null && (line.type === 'user' || line.type === 'assistant');
}

/**
 * Accounts for every user and assistant line of a file against the branch shown (of the main conversation, or of
 * a sub-agent's own file when `sidechainIsMain`): on it, on another branch (named by the leaf that opens it), in an
 * inline sub-agent run, or unreachable with the reason. Nothing is silently gone.
 */
export function lineFates(
  lines: readonly IndexedLine[],
  tree: ConversationTree,
  branch: Branch | null,
  sidechainIsMain = false,
): Map<number, LineFate> {
  const onBranch = new Set(branch?.nodes ?? []);
  const fates = new Map<number, LineFate>();
  for (const line of lines) {
    if (!isMessage(line)) continue;
    if (line.uuid === null) {
      fates.set(line.line, { kind: 'unreachable', reason: 'no-uuid' });
      continue;
    }
    const node = tree.indexOfUuid(line.uuid);
    if (node === undefined || tree.nodes[node].line !== line.line) {
      fates.set(line.line, { kind: 'unreachable', reason: 'duplicate-uuid' });
      continue;
    }
    if (onBranch.has(node)) {
      fates.set(line.line, { kind: 'live' });
      continue;
    }
    const root = tree.rootOf(node);
    if (tree.nodes[root].isSidechain && !sidechainIsMain && !onBranch.has(root)) {
      fates.set(line.line, { kind: 'sub-agent', rootUuid: tree.nodes[root].uuid as string });
    } else {
      // The newest end below the line: the branch that ends there goes through it.
      fates.set(line.line, { kind: 'branch', leafUuid: tree.nodes[tree.newestTerminalOf(node)].uuid as string });
    }
  }
  return fates;
}
