import type { IndexedLine } from './indexedLine';
import { CHAIN_TYPES, isToolHook } from './transcriptEntry';

/**
 * Where a node's parent link came from: its `parentUuid`, a compaction boundary's `logicalParentUuid`, the line
 * before it in the file (its own link names a uuid that is in no line of the file), or none (a root).
 */
export type ParentLink = 'parent' | 'compaction' | 'previous-line' | 'none';

export interface TreeStats {
  /** Chain lines whose uuid a later line reused (the later one wins, as in Claude Code). */
  readonly duplicateUuids: number;
  /**
   * Parent links to a uuid that is in no line of the file. Such a node hangs off the chain line before it in the
   * file (same sidechain side), so the history before it is not lost; only the first one becomes a root.
   */
  readonly danglingParents: number;
  /** Parent cycles found and cut. */
  readonly cycles: number;
  /** Legacy `progress` lines bridged out of the chain. */
  readonly progressBridged: number;
}

/** One alternative at a fork, or one root the shown branch does not reach. */
export interface BranchStart {
  /** Index into `nodes` of the first node of the alternative. */
  readonly start: number;
  /** The node to show as the alternative's end (its newest terminal). */
  readonly leaf: number;
  /** Nodes in the alternative's subtree. */
  readonly size: number;
}

export interface ForkAt {
  /** Position in the branch list of the node whose children split. */
  readonly position: number;
  /** The child subtrees that the shown branch does not go through. */
  readonly alternatives: readonly BranchStart[];
}

export interface Branch {
  /** Node indices in reading order: the path from the root to the leaf, with parallel-tool siblings spliced in. */
  readonly nodes: readonly number[];
  readonly leaf: number;
  readonly forks: readonly ForkAt[];
}

function timeOf(timestamp: string | null): number {
  if (timestamp === null) return Number.NEGATIVE_INFINITY;
  const ms = Date.parse(timestamp);
  return Number.isNaN(ms) ? Number.NEGATIVE_INFINITY : ms;
}

/**
 * The links of a tree: which lines are its nodes and how they hang together. Computing them is most of a tree's cost
 * (a map of every uuid, the bridges, the timestamps); a saved line index keeps them so a reopened file skips it.
 */
export interface TreeLinks {
  /** Each node's position in the lines the tree was built from. */
  readonly nodePositions: Int32Array;
  readonly parent: Int32Array;
  readonly parentLink: readonly ParentLink[];
  readonly missingParent: readonly (string | null)[];
  /** Each node's timestamp in ms (-Infinity when missing or unparsable). */
  readonly time: Float64Array;
  readonly stats: TreeStats;
}

/** A tree's links with what is derived from them (children, roots, subtree facts): all a saved tree needs. */
export interface TreeArrays extends TreeLinks {
  readonly childrenStart: Int32Array;
  readonly childList: Int32Array;
  readonly root: Int32Array;
  readonly newestTerminal: Int32Array;
  readonly subtreeSize: Int32Array;
}

/** Works out the nodes and their parent links (see `ConversationTree`). */
function linkLines(lines: readonly IndexedLine[]): { links: TreeLinks; byUuid: Map<string, number> } {
  const bridge = new Map<string, string | null>();
  const winners = new Map<string, number>();
  let duplicateUuids = 0;
  for (let position = 0; position < lines.length; position++) {
    const line = lines[position];
    if (line.uuid === null || line.unreadable !== null) continue;
    if (line.type === 'progress') {
      bridge.set(line.uuid, line.parentUuid);
    } else if (CHAIN_TYPES.has(line.type)) {
      if (winners.has(line.uuid)) duplicateUuids++;
      winners.set(line.uuid, position);
    }
  }
  // Lines are in file order, so positions sort nodes the same way.
  const nodePositions = Int32Array.from(winners.values()).sort();
  const nodes = Array.from(nodePositions, (position) => lines[position]);
  const byUuid = new Map(nodes.map((node, index) => [node.uuid as string, index]));

  // A parent that is a progress entry is replaced by that entry's own (bridged) parent, as Claude Code does.
  const resolveBridge = (uuid: string | null): string | null => {
    if (uuid === null || !bridge.has(uuid)) return uuid;
    const seen = new Set<string>();
    let current: string | null = uuid;
    while (current !== null && bridge.has(current)) {
      if (seen.has(current)) return null;
      seen.add(current);
      current = bridge.get(current) ?? null;
    }
    return current;
  };

  const count = nodes.length;
  const parent = new Int32Array(count).fill(-1);
  const parentLink: ParentLink[] = new Array<ParentLink>(count).fill('none');
  const missingParent: (string | null)[] = new Array<string | null>(count).fill(null);
  // The nearest earlier node on each side (main conversation, sidechain): where a dangling link falls back to.
  const previousOnSide = [-1, -1];
  let danglingParents = 0;
  for (let i = 0; i < count; i++) {
    const node = nodes[i];
    const side = node.isSidechain ? 1 : 0;
    const previous = previousOnSide[side];
    previousOnSide[side] = i;
    let link: ParentLink = 'parent';
    let target = resolveBridge(node.parentUuid);
    if (target === null && node.logicalParentUuid !== null) {
      target = resolveBridge(node.logicalParentUuid);
      link = 'compaction';
    }
    if (target === null) continue;
    const index = byUuid.get(target);
    if (index === undefined || index === i) {
      // Claude Code's own walk ends here; other viewers and Claude Code's resume show what came before, so do we.
      danglingParents++;
      missingParent[i] = target;
      if (previous >= 0) {
        parent[i] = previous;
        parentLink[i] = 'previous-line';
      }
      continue;
    }
    parent[i] = index;
    parentLink[i] = link;
  }

  const cycles = cutCycles(parent, parentLink);
  const time = new Float64Array(count);
  for (let i = 0; i < count; i++) time[i] = timeOf(nodes[i].timestamp);
  const stats = { duplicateUuids, danglingParents, cycles, progressBridged: bridge.size };
  return { links: { nodePositions, parent, parentLink, missingParent, time, stats }, byUuid };
}

/** Cuts every parent cycle at its earliest line, which becomes a root; returns how many were cut. */
function cutCycles(parent: Int32Array, parentLink: ParentLink[]): number {
  const state = new Uint8Array(parent.length); // 0 new, 1 on the current walk, 2 known to reach a root
  let cycles = 0;
  for (let start = 0; start < parent.length; start++) {
    if (state[start] !== 0) continue;
    const walk: number[] = [];
    let current = start;
    while (current >= 0 && state[current] === 0) {
      state[current] = 1;
      walk.push(current);
      current = parent[current];
    }
    if (current >= 0 && state[current] === 1) {
      // `current` is on this walk: the nodes from it to the end of the walk form the cycle.
      const cycle = walk.slice(walk.indexOf(current));
      const earliest = cycle.reduce((a, b) => Math.min(a, b));
      parent[earliest] = -1;
      parentLink[earliest] = 'none';
      cycles++;
    }
    for (const node of walk) state[node] = 2;
  }
  return cycles;
}

/**
 * The conversation DAG of one transcript file (claude-code-state.md §2.1, §2.8, §3): chain entries linked by
 * `parentUuid`, legacy `progress` entries bridged out, compaction boundaries linked to the history before them
 * through `logicalParentUuid`, dangling parents linked to the line before them in the file and cycles cut, so
 * every node is in exactly one tree. Branch selection follows Claude Code: the newest user/assistant leaf, then the path to its root, then the
 * parallel tool calls a single-parent walk would miss.
 */
export class ConversationTree {
  /** The chain lines, in file order; node index ↔ line. */
  readonly nodes: readonly IndexedLine[];
  readonly parent: Int32Array;
  readonly parentLink: readonly ParentLink[];
  /** The uuid a node's own link named when it is in no line of the file (`previous-line` links and dangling roots). */
  readonly missingParent: readonly (string | null)[];
  readonly stats: TreeStats;
  private readonly childrenStart: Int32Array;
  private readonly childList: Int32Array;
  private readonly time: Float64Array;
  /** The newest terminal node in each node's subtree. */
  private readonly newestTerminal: Int32Array;
  private readonly subtreeSize: Int32Array;
  private readonly root: Int32Array;
  private readonly links: TreeLinks;
  /** Built on first use: a tree restored from saved arrays answers a page without it. */
  private byUuid: Map<string, number> | null;

  /**
   * `saved`: what a tree over these very lines had (from a saved index), so neither the links nor what is derived from
   * them need working out again.
   */
  constructor(lines: readonly IndexedLine[], saved?: TreeArrays) {
    let links: TreeLinks | null = saved ?? null;
    this.byUuid = null;
    if (links === null) {
      const linked = linkLines(lines);
      links = linked.links;
      this.byUuid = linked.byUuid;
    }
    this.links = links;
    const { parent } = links;
    this.nodes = Array.from(links.nodePositions, (position) => lines[position]);
    this.parent = parent;
    this.parentLink = links.parentLink;
    this.missingParent = links.missingParent;
    this.stats = links.stats;
    this.time = links.time;
    if (saved) {
      this.childrenStart = saved.childrenStart;
      this.childList = saved.childList;
      this.root = saved.root;
      this.newestTerminal = saved.newestTerminal;
      this.subtreeSize = saved.subtreeSize;
      return;
    }
    const count = this.nodes.length;

    // Children in file order, as a compact adjacency list.
    const childCount = new Int32Array(count + 1);
    for (let i = 0; i < count; i++) if (parent[i] >= 0) childCount[parent[i] + 1]++;
    for (let i = 0; i < count; i++) childCount[i + 1] += childCount[i];
    this.childrenStart = childCount;
    const fill = childCount.slice(0, count);
    const childList = new Int32Array(Math.max(0, childCount[count]));
    for (let i = 0; i < count; i++) if (parent[i] >= 0) childList[fill[parent[i]]++] = i;
    this.childList = childList;

    // Subtree facts bottom-up: children come after their parent in a topological order built from the roots.
    const order = this.topologicalOrder();
    const root = new Int32Array(count);
    for (const i of order) root[i] = parent[i] < 0 ? i : root[parent[i]];
    this.root = root;
    const newestTerminal = new Int32Array(count).fill(-1);
    const subtreeSize = new Int32Array(count).fill(1);
    for (let k = order.length - 1; k >= 0; k--) {
      const i = order[k];
      if (newestTerminal[i] < 0) newestTerminal[i] = i;
      const p = parent[i];
      if (p < 0) continue;
      subtreeSize[p] += subtreeSize[i];
      const candidate = newestTerminal[i];
      if (newestTerminal[p] < 0 || this.isNewer(candidate, newestTerminal[p])) newestTerminal[p] = candidate;
    }
    this.newestTerminal = newestTerminal;
    this.subtreeSize = subtreeSize;
  }

  /** Everything the tree is made of besides its lines, for saving with them. */
  arrays(): TreeArrays {
    const { childrenStart, childList, root, newestTerminal, subtreeSize } = this;
    return { ...this.links, childrenStart, childList, root, newestTerminal, subtreeSize };
  }

  private topologicalOrder(): number[] {
    const order: number[] = [];
    for (let i = 0; i < this.nodes.length; i++) {
      if (this.parent[i] >= 0) continue;
      const stack = [i];
      while (stack.length > 0) {
        const node = stack.pop() as number;
        order.push(node);
        for (let c = this.childrenStart[node]; c < this.childrenStart[node + 1]; c++) stack.push(this.childList[c]);
      }
    }
    return order;
  }

  /** Later timestamp wins; equal (or missing) timestamps fall back to file order. */
  private isNewer(a: number, b: number): boolean {
    if (this.time[a] !== this.time[b]) return this.time[a] > this.time[b];
    return a > b;
  }

  get size(): number {
    return this.nodes.length;
  }

  indexOfUuid(uuid: string): number | undefined {
    this.byUuid ??= new Map(this.nodes.map((node, index) => [node.uuid as string, index]));
    return this.byUuid.get(uuid);
  }

  /** The node of the line with this number, or undefined when that line is not in the tree. */
  nodeOfLine(line: number): number | undefined {
    let low = 0;
    let high = this.nodes.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const value = this.nodes[mid].line;
      if (value === line) return mid;
      if (value < line) low = mid + 1;
      else high = mid - 1;
    }
    return undefined;
  }

  children(node: number): number[] {
    const out: number[] = [];
    for (let c = this.childrenStart[node]; c < this.childrenStart[node + 1]; c++) out.push(this.childList[c]);
    return out;
  }

  roots(): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.nodes.length; i++) if (this.parent[i] < 0) out.push(i);
    return out;
  }

  rootOf(node: number): number {
    return this.root[node];
  }

  newestTerminalOf(node: number): number {
    return this.newestTerminal[node];
  }

  subtreeSizeOf(node: number): number {
    return this.subtreeSize[node];
  }

  /**
   * Claude Code's resume leaf: for every terminal node, its nearest user/assistant ancestor-or-self; the newest of
   * those wins. `sidechain` picks the main conversation (false) or a sub-agent's (true); `within` limits the
   * search to one root's tree. Returns -1 when there is none.
   */
  liveLeaf(options: { readonly sidechain: boolean; readonly within?: number }): number {
    let best = -1;
    for (let i = 0; i < this.nodes.length; i++) {
      if (this.childrenStart[i] !== this.childrenStart[i + 1]) continue;
      let current = i;
      while (current >= 0 && this.nodes[current].type !== 'user' && this.nodes[current].type !== 'assistant')
        current = this.parent[current];
      if (current < 0 || this.nodes[current].isSidechain !== options.sidechain) continue;
      if (options.within !== undefined && this.rootOf(current) !== options.within) continue;
      if (best < 0 || this.isNewer(current, best)) best = current;
    }
    return best;
  }

  /** The branch that ends at `leaf`'s newest terminal (so trailing system lines after the last turn show too). */
  branchTo(leaf: number): Branch {
    const end = this.newestTerminal[leaf];
    const path: number[] = [];
    for (let current = end; current >= 0; current = this.parent[current]) path.push(current);
    path.reverse();
    const nodes = this.spliceParallelSiblings(path);
    // Flags by node, not a set: a big transcript's branch is most of its lines.
    const onBranch = new Uint8Array(this.nodes.length);
    for (const node of nodes) onBranch[node] = 1;
    const forks: ForkAt[] = [];
    nodes.forEach((node, position) => {
      const alternatives: BranchStart[] = [];
      for (let c = this.childrenStart[node]; c < this.childrenStart[node + 1]; c++) {
        const child = this.childList[c];
        if (onBranch[child] === 1) continue;
        alternatives.push({ start: child, leaf: this.newestTerminal[child], size: this.subtreeSize[child] });
      }
      if (alternatives.length > 0) forks.push({ position, alternatives });
    });
    return { nodes, leaf: end, forks };
  }

  /**
   * Parallel tool calls are written as one assistant line per `tool_use` (same `message.id`), each result hanging
   * off its own call, so a single-parent walk keeps one of them. Like Claude Code's
   * `recoverOrphanedParallelToolResults`, put the missed siblings and their results right after the group's
   * last member on the path.
   */
  private spliceParallelSiblings(path: readonly number[]): number[] {
    const seen = new Uint8Array(this.nodes.length);
    for (const node of path) seen[node] = 1;
    // Each message id's last call on the path is where its missed siblings and results go. Only the calls on the path
    // and the assistant lines off it are looked at: on a big transcript almost every line is on the path, and grouping
    // every line by message id made a map as big as the transcript, for the few calls a walk misses.
    // The path's calls and their message ids, each id read once (a big transcript's line index decodes it on every read).
    const calls: number[] = [];
    const callIds: string[] = [];
    for (const node of path) {
      if (this.nodes[node].type !== 'assistant') continue;
      const messageId = this.nodes[node].messageId;
      if (messageId === null) continue;
      calls.push(node);
      callIds.push(messageId);
    }
    const anchorOf = new Map<string, number>();
    calls.forEach((node, index) => anchorOf.set(callIds[index], node));
    const recoveredOf = new Map<number, { readonly siblings: number[]; readonly results: number[] }>();
    const recoveredFor = (anchor: number) => {
      let recovered = recoveredOf.get(anchor);
      if (!recovered) recoveredOf.set(anchor, (recovered = { siblings: [], results: [] }));
      return recovered;
    };
    /** A group member's results that the path missed. */
    const collectResults = (member: number, anchor: number): void => {
      for (let c = this.childrenStart[member]; c < this.childrenStart[member + 1]; c++) {
        const child = this.childList[c];
        const node = this.nodes[child];
        if (seen[child] === 0 && node.type === 'user' && node.toolResultIds.length > 0) recoveredFor(anchor).results.push(child);
      }
    };
    calls.forEach((node, index) => {
      const anchor = anchorOf.get(callIds[index]) as number;
      // Only within the anchor's own tree: another conversation in the file may repeat a message id.
      if (this.root[node] === this.root[anchor]) collectResults(node, anchor);
    });
    for (let i = 0; i < this.nodes.length; i++) {
      if (seen[i] === 1 || this.nodes[i].type !== 'assistant') continue;
      const messageId = this.nodes[i].messageId;
      const anchor = messageId === null ? undefined : anchorOf.get(messageId);
      if (anchor === undefined || this.root[i] !== this.root[anchor]) continue;
      recoveredFor(anchor).siblings.push(i);
      collectResults(i, anchor);
    }
    const inserts = new Map<number, number[]>();
    const byTime = (a: number, b: number) => (this.time[a] !== this.time[b] ? this.time[a] - this.time[b] : a - b);
    for (const [anchor, { siblings, results }] of recoveredOf) {
      const recovered = [...siblings.sort(byTime), ...results.sort(byTime)];
      for (const node of recovered) seen[node] = 1;
      inserts.set(anchor, recovered);
    }
    // PreToolUse hook results hang off the tool call beside its result, so a single-parent walk leaves them on a
    // dead-end fork: put each such leaf right after its call (the viewer shows it under the call).
    for (const node of path) {
      for (let c = this.childrenStart[node]; c < this.childrenStart[node + 1]; c++) {
        const child = this.childList[c];
        if (seen[child] === 1 || !isToolHook(this.nodes[child]) || this.childrenStart[child] !== this.childrenStart[child + 1]) continue;
        seen[child] = 1;
        const list = inserts.get(node);
        if (list) list.push(child);
        else inserts.set(node, [child]);
      }
    }
    if (inserts.size === 0) return [...path];
    const out: number[] = [];
    for (const node of path) {
      out.push(node);
      const extra = inserts.get(node);
      if (extra) out.push(...extra);
    }
    return out;
  }
}
