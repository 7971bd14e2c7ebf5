import type { BranchStart } from '../../../shared/transcript/conversationTree';
import { entryPreview } from '../../../shared/transcript/entryText';
import type { TranscriptEntry } from '../../../shared/transcript/transcriptEntry';
import type { BranchChoice, ForkPoint } from '../../../shared/transcript/transcriptOutline';
import type { ConversationScope, ResolvedView, TranscriptDocument } from './TranscriptDocument';

/** Fork and root previews are read for at most this many choices; the rest show without one. */
const MAX_PREVIEWS = 300;

/**
 * The first entries of some lists of starts, for their previews (at most MAX_PREVIEWS a list), read together: a file
 * with many forks read them one fork after the other, the engine waiting on each read.
 */
function readPreviews(document: TranscriptDocument, view: ResolvedView, lists: readonly (readonly BranchStart[])[]) {
  return document.readEntries(lists.flatMap((starts) => starts.slice(0, MAX_PREVIEWS).map((start) => view.tree.nodes[start.start].line)));
}

/** The branches a reader can switch to from some starts: each with its first entry's preview, size and leaf. */
function choices(
  view: ResolvedView,
  starts: readonly BranchStart[],
  current: number | null,
  previews: ReadonlyMap<number, TranscriptEntry>,
): BranchChoice[] {
  const tree = view.tree;
  return starts.map((start, index) => {
    const first = tree.nodes[start.start];
    const entry = index < MAX_PREVIEWS ? previews.get(first.line) : undefined;
    return {
      leafUuid: tree.nodes[start.leaf].uuid as string,
      firstLine: first.line,
      timestamp: first.timestamp,
      entryCount: start.size,
      preview: entry ? entryPreview(entry) : '',
      current: start.start === current,
    };
  });
}

/** Every fork on the shown branch, at its row, with the branch taken there and the alternatives. */
export async function forkPoints(document: TranscriptDocument, view: ResolvedView): Promise<ForkPoint[]> {
  if (!view.branch) return [];
  const tree = view.tree;
  const branchNodes = view.branch.nodes;
  // A mark per node, not a set of the branch's nodes: 75,000 of them on 500 MB took a set 6–11 ms to fill.
  const onBranch = new Uint8Array(tree.size);
  for (const node of branchNodes) onBranch[node] = 1;
  const forks: { row: number; starts: BranchStart[]; currentChild: number | null }[] = [];
  for (const fork of view.branch.forks) {
    const node = branchNodes[fork.position];
    const currentChild = tree.children(node).find((child) => onBranch[child] === 1) ?? null;
    const starts: BranchStart[] = [...fork.alternatives];
    if (currentChild !== null) starts.push({ start: currentChild, leaf: view.branch.leaf, size: tree.subtreeSizeOf(currentChild) });
    starts.sort((a, b) => a.start - b.start);
    const row = view.rows.rowOfLine.get(tree.nodes[node].line);
    if (row !== undefined) forks.push({ row, starts, currentChild });
  }
  const previews = await readPreviews(
    document,
    view,
    forks.map((fork) => fork.starts),
  );
  return forks.map((fork) => ({ row: fork.row, choices: choices(view, fork.starts, fork.currentChild, previews) }));
}

/** The conversations of the file that the shown branch is not part of (other roots of the scope's side). */
export async function otherRoots(document: TranscriptDocument, view: ResolvedView, scope: ConversationScope): Promise<BranchChoice[]> {
  if (scope.kind === 'inline-agent') return [];
  const tree = view.tree;
  const shownRoot = view.branch && view.branch.nodes.length > 0 ? tree.rootOf(view.branch.nodes[0]) : -1;
  const roots = tree
    .roots()
    .filter((root) => root !== shownRoot && (scope.kind === 'agent-file' || !tree.nodes[root].isSidechain))
    .map((root) => ({ start: root, leaf: tree.newestTerminalOf(root), size: tree.subtreeSizeOf(root) }));
  return choices(view, roots, null, await readPreviews(document, view, [roots]));
}
