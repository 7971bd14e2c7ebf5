import type { BranchStart } from '../../../shared/transcript/conversationTree';
import { entryPreview } from '../../../shared/transcript/entryText';
import type { BranchChoice, ForkPoint } from '../../../shared/transcript/transcriptOutline';
import type { ConversationScope, ResolvedView, TranscriptDocument } from './TranscriptDocument';

/** Fork and root previews are read for at most this many choices; the rest show without one. */
const MAX_PREVIEWS = 300;

/** The branches a reader can switch to from some starts: each with its first entry's preview, size and leaf. */
async function choices(
  document: TranscriptDocument,
  view: ResolvedView,
  starts: readonly BranchStart[],
  current: number | null,
): Promise<BranchChoice[]> {
  const tree = view.tree;
  const withPreview = starts.slice(0, MAX_PREVIEWS).map((start) => tree.nodes[start.start].line);
  const entries = await document.readEntries(withPreview);
  return starts.map((start) => {
    const first = tree.nodes[start.start];
    const entry = entries.get(first.line);
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
  const onBranch = new Set(branchNodes);
  const points: ForkPoint[] = [];
  for (const fork of view.branch.forks) {
    const node = branchNodes[fork.position];
    const currentChild = tree.children(node).find((child) => onBranch.has(child)) ?? null;
    const starts: BranchStart[] = [...fork.alternatives];
    if (currentChild !== null) starts.push({ start: currentChild, leaf: view.branch.leaf, size: tree.subtreeSizeOf(currentChild) });
    starts.sort((a, b) => a.start - b.start);
    const row = view.rows.rowOfLine.get(tree.nodes[node].line);
    if (row === undefined) continue;
    points.push({ row, choices: await choices(document, view, starts, currentChild) });
  }
  return points;
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
  return choices(document, view, roots, null);
}
