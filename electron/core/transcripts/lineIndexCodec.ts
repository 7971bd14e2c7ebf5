import type { Branch, ForkAt, ParentLink, TreeArrays } from '../../../shared/transcript/conversationTree';
import type { IndexedLine } from '../../../shared/transcript/indexedLine';
import type { UnreachableLine, UnreachableReason } from '../../../shared/transcript/lineReachability';
import type { TranscriptRows } from '../../../shared/transcript/transcriptRows';
import { SectionReader, SectionWriter, type SectionParts } from '../fs/binarySections';
import type { AgentCallLinks } from './agentCallLinks';
import { LineColumnsBuilder } from './lineColumnsBuilder';
import { SortedNumberMap } from './sortedNumberMap';
import { SortedStringMap } from './sortedStringMap';
import { COMPACT_SUMMARY, META, OWN_CONTENT, SavedLine, SIDECHAIN, STRING_COLUMNS, UNREADABLE_CODES, type LineColumns } from './savedLines';

/** `tool_use_id` → the line of its result, of its call, and of the hooks that ran for it, over a whole file. */
export interface ToolLines {
  readonly resultLineOf: ReadonlyMap<string, number>;
  readonly callLineOf: ReadonlyMap<string, number>;
  readonly hookLinesOf: ReadonlyMap<string, readonly number[]>;
}

/** The live branch of the main conversation as the viewer first shows it. */
export interface SavedView {
  readonly branch: Branch | null;
  readonly rows: TranscriptRows;
  readonly isLive: boolean;
}

/** What a document works out from its lines before the first page: valid for exactly those lines. */
export interface DerivedIndex {
  readonly tree: TreeArrays;
  readonly liveView: SavedView;
  readonly toolLines: ToolLines;
  readonly agentCallLinks: AgentCallLinks;
  readonly unreachable: readonly UnreachableLine[];
}

export interface LineIndexSnapshot {
  readonly lines: readonly IndexedLine[];
  readonly derived: DerivedIndex | null;
}

const PARENT_LINK_CODES: readonly ParentLink[] = ['none', 'parent', 'compaction', 'previous-line'];
const UNREACHABLE_REASON_CODES: readonly UnreachableReason[] = ['no-uuid', 'duplicate-uuid'];
/** Stands for "no branch" where a leaf node is stored. */
const NO_BRANCH = -2;

function codeOf<T>(codes: readonly T[], value: T): number {
  const code = codes.indexOf(value);
  if (code < 0) throw new Error(`no code for ${String(value)}`);
  return code;
}

function valueOf<T>(codes: readonly T[], code: number): T {
  if (code >= codes.length) throw new Error(`unknown code ${code}`);
  return codes[code];
}

/**
 * A string-keyed map as two sections, keys in code-unit order (what `SortedStringMap` searches): key refs, and one
 * number per key (the value, or the ref of a string value).
 */
function writeSortedMap<V>(out: SectionWriter, map: ReadonlyMap<string, V>, saved: (value: V) => number): void {
  const entries = SortedStringMap.sortedEntries(map);
  out.int32(out.refs(entries.map(([key]) => key))).int32(entries.map(([, value]) => saved(value)));
}

function readSortedMap<V>(input: SectionReader, valueOf: (saved: number) => V): SortedStringMap<V> {
  const keys = input.int32();
  const values = input.int32();
  if (keys.length !== values.length) throw new Error('map keys and values differ in number');
  return new SortedStringMap(
    keys.length,
    (i) => input.string(keys[i]) as string,
    (i) => valueOf(values[i]),
  );
}

function writeNumberMap(out: SectionWriter, map: ReadonlyMap<string, number>): void {
  writeSortedMap(out, map, (value) => value);
}

function readNumberMap(input: SectionReader): SortedStringMap<number> {
  return readSortedMap(input, (value) => value);
}

function writeStringMap(out: SectionWriter, map: ReadonlyMap<string, string>): void {
  writeSortedMap(out, map, (value) => out.ref(value));
}

function readStringMap(input: SectionReader): SortedStringMap<string> {
  return readSortedMap(input, (ref) => input.string(ref) as string);
}

/** A string-keyed map of number lists as three sections: key refs, where each list starts, and the lists run together. */
function writeListMap(out: SectionWriter, map: ReadonlyMap<string, readonly number[]>): void {
  const entries = SortedStringMap.sortedEntries(map);
  const starts = [0];
  const values: number[] = [];
  for (const [, list] of entries) {
    values.push(...list);
    starts.push(values.length);
  }
  out
    .int32(out.refs(entries.map(([key]) => key)))
    .int32(starts)
    .int32(values);
}

function readListMap(input: SectionReader): SortedStringMap<readonly number[]> {
  const keys = input.int32();
  const starts = input.int32();
  const values = input.int32();
  if (starts.length !== keys.length + 1 || starts[keys.length] !== values.length) throw new Error('list map does not fit');
  return new SortedStringMap(
    keys.length,
    (i) => input.string(keys[i]) as string,
    (i) => Array.from(values.subarray(starts[i], starts[i + 1])),
  );
}

function writeLines(out: SectionWriter, lines: readonly IndexedLine[]): void {
  const count = lines.length;
  const flags = new Uint8Array(count);
  const unreadable = new Uint8Array(count);
  const types = new Int32Array(count);
  const columns = STRING_COLUMNS.map(() => new Int32Array(count));
  const toolUseStarts = new Int32Array(count + 1);
  const toolUseIds: number[] = [];
  const toolUseNames: number[] = [];
  const resultStarts = new Int32Array(count + 1);
  const resultIds: number[] = [];
  for (let i = 0; i < count; i++) {
    const line = lines[i];
    flags[i] =
      (line.isSidechain ? SIDECHAIN : 0) |
      (line.isMeta ? META : 0) |
      (line.isCompactSummary ? COMPACT_SUMMARY : 0) |
      (line.hasOwnContent ? OWN_CONTENT : 0);
    unreadable[i] = codeOf(UNREADABLE_CODES, line.unreadable);
    types[i] = out.ref(line.type);
    STRING_COLUMNS.forEach((field, column) => (columns[column][i] = out.ref(line[field])));
    for (const use of line.toolUses) {
      toolUseIds.push(out.ref(use.id));
      toolUseNames.push(out.ref(use.name));
    }
    toolUseStarts[i + 1] = toolUseIds.length;
    for (const id of line.toolResultIds) resultIds.push(out.ref(id));
    resultStarts[i + 1] = resultIds.length;
  }
  out.int32(lines.map((line) => line.line));
  out.float64(lines.map((line) => line.offset));
  out.float64(lines.map((line) => line.length));
  out.uint8(flags).uint8(unreadable).int32(types);
  for (const column of columns) out.int32(column);
  out.int32(toolUseStarts).int32(toolUseIds).int32(toolUseNames).int32(resultStarts).int32(resultIds);
}

function readLines(input: SectionReader): IndexedLine[] {
  const numbers = input.int32();
  const offsets = input.float64();
  const lengths = input.float64();
  const flags = input.uint8();
  const unreadable = input.uint8();
  const types = input.int32();
  const text = Object.fromEntries(STRING_COLUMNS.map((field) => [field, input.int32()])) as Record<
    (typeof STRING_COLUMNS)[number],
    Int32Array
  >;
  const columns: LineColumns = {
    strings: input,
    numbers,
    offsets,
    lengths,
    flags,
    unreadable,
    types,
    text,
    toolUseStarts: input.int32(),
    toolUseIds: input.int32(),
    toolUseNames: input.int32(),
    resultStarts: input.int32(),
    resultIds: input.int32(),
  };
  const count = numbers.length;
  if ([offsets, lengths, flags, unreadable, types, ...Object.values(text)].some((column) => column.length !== count))
    throw new Error('line columns differ in length');
  const { toolUseStarts, toolUseIds, toolUseNames, resultStarts, resultIds } = columns;
  if (toolUseStarts.length !== count + 1 || resultStarts.length !== count + 1) throw new Error('list columns do not fit');
  if (toolUseStarts[count] !== toolUseIds.length || toolUseNames.length !== toolUseIds.length || resultStarts[count] !== resultIds.length)
    throw new Error('list columns do not fit');
  const lines = new Array<IndexedLine>(count);
  for (let i = 0; i < count; i++) lines[i] = new SavedLine(columns, i);
  return lines;
}

function writeTree(out: SectionWriter, tree: TreeArrays): void {
  const { stats } = tree;
  out.int32(tree.nodePositions).int32(tree.parent);
  out.uint8(tree.parentLink.map((link) => codeOf(PARENT_LINK_CODES, link)));
  out.int32(out.refs(tree.missingParent)).float64(tree.time);
  out.int32([stats.duplicateUuids, stats.danglingParents, stats.cycles, stats.progressBridged]);
  out.int32(tree.childrenStart).int32(tree.childList).int32(tree.root).int32(tree.newestTerminal).int32(tree.subtreeSize);
}

function readTree(input: SectionReader, lineCount: number): TreeArrays {
  const nodePositions = input.int32();
  const parent = input.int32();
  const linkCodes = input.uint8();
  const missingRefs = input.int32();
  const time = input.float64();
  const [duplicateUuids, danglingParents, cycles, progressBridged] = input.int32();
  const childrenStart = input.int32();
  const childList = input.int32();
  const root = input.int32();
  const newestTerminal = input.int32();
  const subtreeSize = input.int32();
  const count = nodePositions.length;
  if ([parent, linkCodes, missingRefs, time, root, newestTerminal, subtreeSize].some((column) => column.length !== count))
    throw new Error('tree columns differ in length');
  if (childrenStart.length !== count + 1 || childrenStart[count] !== childList.length) throw new Error('child list does not fit');
  if (count > 0 && (nodePositions[count - 1] >= lineCount || nodePositions[0] < 0)) throw new Error('tree nodes out of range');
  const parentLink = new Array<ParentLink>(count);
  const missingParent = new Array<string | null>(count);
  for (let i = 0; i < count; i++) {
    parentLink[i] = valueOf(PARENT_LINK_CODES, linkCodes[i]);
    missingParent[i] = missingRefs[i] === -1 ? null : input.string(missingRefs[i]);
  }
  return {
    nodePositions,
    parent,
    parentLink,
    missingParent,
    time,
    stats: { duplicateUuids, danglingParents, cycles, progressBridged },
    childrenStart,
    childList,
    root,
    newestTerminal,
    subtreeSize,
  };
}

function writeView(out: SectionWriter, view: SavedView): void {
  const { branch, rows } = view;
  out.int32([view.isLive ? 1 : 0, branch === null ? NO_BRANCH : branch.leaf]);
  out.int32(branch?.nodes ?? []);
  const forks = branch?.forks ?? [];
  const alternativeStarts = [0];
  const alternatives: number[] = [];
  for (const fork of forks) {
    for (const alternative of fork.alternatives) alternatives.push(alternative.start, alternative.leaf, alternative.size);
    alternativeStarts.push(alternatives.length / 3);
  }
  out
    .int32(forks.map((fork) => fork.position))
    .int32(alternativeStarts)
    .int32(alternatives);
  const rowOfLine = SortedNumberMap.arraysOf(rows.rowOfLine);
  out.int32(rows.lines).int32(rowOfLine.keys).int32(rowOfLine.values);
  writeNumberMap(out, rows.resultLineOf);
  writeListMap(out, rows.hookLinesOf);
  out.int32(rows.compactionRows);
}

function readView(input: SectionReader, nodeCount: number): SavedView {
  const [isLive, leaf] = input.int32();
  const nodes = Array.from(input.int32());
  const positions = input.int32();
  const alternativeStarts = input.int32();
  const alternatives = input.int32();
  if (alternativeStarts.length !== positions.length + 1 || alternativeStarts[positions.length] * 3 !== alternatives.length)
    throw new Error('forks do not fit');
  if (leaf >= nodeCount) throw new Error('branch leaf out of range');
  const forks: ForkAt[] = Array.from(positions, (position, f) => {
    const list = [];
    for (let a = alternativeStarts[f]; a < alternativeStarts[f + 1]; a++)
      list.push({ start: alternatives[a * 3], leaf: alternatives[a * 3 + 1], size: alternatives[a * 3 + 2] });
    return { position, alternatives: list };
  });
  const lines = Array.from(input.int32());
  const rowOfLine = new SortedNumberMap(input.int32(), input.int32());
  const resultLineOf = readNumberMap(input);
  const hookLinesOf = readListMap(input);
  const compactionRows = Array.from(input.int32());
  return {
    branch: leaf === NO_BRANCH ? null : { nodes, leaf, forks },
    rows: { lines, rowOfLine, resultLineOf, hookLinesOf, compactionRows },
    isLive: isLive === 1,
  };
}

function writeAgentCallLinks(out: SectionWriter, links: AgentCallLinks): void {
  out.int32(out.refs(links.calls.map((call) => call.id))).int32(links.calls.map((call) => call.line));
  writeStringMap(out, links.byResult);
  writeStringMap(out, links.byProgress);
}

function readAgentCallLinks(input: SectionReader): AgentCallLinks {
  const ids = input.int32();
  const lines = input.int32();
  if (ids.length !== lines.length) throw new Error('agent calls and their lines differ in number');
  const calls = Array.from(ids, (id, i) => ({ id: input.string(id) as string, line: lines[i] }));
  return { calls, byResult: readStringMap(input), byProgress: readStringMap(input) };
}

function writeUnreachable(out: SectionWriter, lines: readonly UnreachableLine[]): void {
  out.int32(lines.map((line) => line.line)).uint8(lines.map((line) => codeOf(UNREACHABLE_REASON_CODES, line.reason)));
}

function readUnreachable(input: SectionReader): UnreachableLine[] {
  const lines = input.int32();
  const reasons = input.uint8();
  if (lines.length !== reasons.length) throw new Error('unreachable lines and their reasons differ in number');
  return Array.from(lines, (line, i) => ({ line, reason: valueOf(UNREACHABLE_REASON_CODES, reasons[i]) }));
}

/** A snapshot as a binary body (see `binarySections.ts`), in pieces. */
export function encodeLineIndex(snapshot: LineIndexSnapshot): SectionParts {
  // Lines kept in columns (the line index keeper's) are written from them: the same bytes, nothing built again.
  const columns = LineColumnsBuilder.of(snapshot.lines);
  const out = new SectionWriter(columns?.sectionStrings());
  out.int32([snapshot.derived === null ? 0 : 1]);
  if (columns !== null) columns.writeColumns(out);
  else writeLines(out, snapshot.lines);
  const { derived } = snapshot;
  if (derived !== null) {
    writeTree(out, derived.tree);
    writeView(out, derived.liveView);
    writeNumberMap(out, derived.toolLines.resultLineOf);
    writeNumberMap(out, derived.toolLines.callLineOf);
    writeListMap(out, derived.toolLines.hookLinesOf);
    writeAgentCallLinks(out, derived.agentCallLinks);
    writeUnreachable(out, derived.unreachable);
  }
  return out.finish();
}

/**
 * The snapshot a body holds; throws on one whose sections do not fit together (the caller then indexes the file
 * again). Only shapes are checked, not every value: the store hands over a body only when its checksum says it is byte
 * for byte what `encodeLineIndex` wrote, and walking every value of a 200 MB transcript's index in cold code cost
 * more than the whole rest of a reopen.
 */
export function decodeLineIndex(body: Uint8Array): LineIndexSnapshot {
  const input = new SectionReader(body);
  const [hasDerived] = input.int32();
  const lines = readLines(input);
  if (hasDerived !== 1) return { lines, derived: null };
  const tree = readTree(input, lines.length);
  const liveView = readView(input, tree.nodePositions.length);
  const toolLines = { resultLineOf: readNumberMap(input), callLineOf: readNumberMap(input), hookLinesOf: readListMap(input) };
  const agentCallLinks = readAgentCallLinks(input);
  const unreachable = readUnreachable(input);
  return { lines, derived: { tree, liveView, toolLines, agentCallLinks, unreachable } };
}
