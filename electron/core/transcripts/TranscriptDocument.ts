import { CodedError } from '../../../shared/result';
import { ConversationTree, type Branch } from '../../../shared/transcript/conversationTree';
import { entryText, snippetAround } from '../../../shared/transcript/entryText';
import type { IndexedLine } from '../../../shared/transcript/indexedLine';
import {
  isToolHook,
  type ContentBlock,
  type HookRun,
  type SubagentLink,
  type ToolCall,
  type TranscriptEntry,
} from '../../../shared/transcript/transcriptEntry';
import {
  LIVE_VIEW,
  type TranscriptFindHit,
  type TranscriptFindResult,
  type TranscriptPage,
  type TranscriptViewSpec,
} from '../../../shared/transcript/transcriptOutline';
import { buildTranscriptRows, type TranscriptRows } from '../../../shared/transcript/transcriptRows';
import { dedupeTurns, type TurnUsage } from '../../../shared/transcript/turnUsage';
import { normaliseLine, responseFacts, withResult, type NormaliseOptions, type ResponseFacts } from './entryNormaliser';
import type { SourceOpener } from '../fs/randomAccessSource';
import { asciiQueryPrefilter } from './findPrefilter';
import { readLineTexts } from './lineTextReader';
import { TranscriptIndex, type IndexUpdate, type LineStore } from './TranscriptIndex';
import type { DerivedIndex, ToolLines } from './lineIndexCodec';
import { agentCallLinks, type AgentCallLinks } from './agentCallLinks';
import { unreachableLines, type UnreachableLine } from '../../../shared/transcript/lineReachability';
import type { SavedLineIndexes } from './savedLineIndexes';

/** A call with the sub-agent it started: from the session's links, else from the agent its result names. */
function withLink(call: ToolCall, links: ReadonlyMap<string, SubagentLink>): ToolCall {
  const link = links.get(call.id) ?? (call.result?.agentId ? { agentId: call.result.agentId, agentType: null, description: null } : null);
  return link ? { ...call, subagent: link } : call;
}

/** Which conversation of a file a view shows. */
export type ConversationScope =
  | { readonly kind: 'main' }
  /** A sub-agent's own file: every line is a sidechain. */
  | { readonly kind: 'agent-file' }
  /** A sub-agent written inline in the session file (Claude Code 1.0): the tree under one sidechain root. */
  | { readonly kind: 'inline-agent'; readonly rootUuid: string };

export const MAIN_SCOPE: ConversationScope = { kind: 'main' };

/** A view resolved against the current index. */
export interface ResolvedView {
  readonly tree: ConversationTree;
  readonly branch: Branch | null;
  readonly rows: TranscriptRows;
  readonly isLive: boolean;
}

/** Texts longer than this are cut in pages; the viewer shows long ones collapsed anyway. */
export const PAGE_TEXT_CHARS = 50_000;
export const MAX_PAGE_ROWS = 500;
const PAGE_OPTIONS: NormaliseOptions = { maxTextChars: PAGE_TEXT_CHARS };
/** Usage needs no text: entries read for it keep none. */
/** Claude Code's model name for responses it made up itself (errors, interruptions): no real usage. */
const SYNTHETIC_MODEL = '<synthetic>';

/** What one assistant line says a response cost. */
type LineUsage = Omit<TurnUsage, 'row' | 'line'> & { readonly messageId: string };

/** The usage an assistant line reports; null for responses with no real usage (errors, made-up ones). */
function lineUsageOf(facts: ResponseFacts, timestamp: string | null): LineUsage | null {
  if (facts.usage === null || facts.messageId === null || facts.isApiError || facts.model === SYNTHETIC_MODEL) return null;
  return { messageId: facts.messageId, timestamp, model: facts.model, usage: facts.usage };
}
/** Find reads at most this many lines per file read. */
const FIND_BATCH_LINES = 2000;

const EMPTY_ROWS: TranscriptRows = { lines: [], rowOfLine: new Map(), resultLineOf: new Map(), hookLinesOf: new Map(), compactionRows: [] };

function scopeKey(scope: ConversationScope): string {
  return scope.kind === 'inline-agent' ? `inline:${scope.rootUuid}` : scope.kind;
}

function viewKey(scope: ConversationScope, spec: TranscriptViewSpec, foldToolResults: boolean): string {
  return `${scopeKey(scope)}\0${spec.leafUuid ?? ''}\0${spec.showMeta}\0${spec.showMetadata}\0${foldToolResults}`;
}

/** The view a saved index keeps: the one a viewer (and `readPage`'s defaults) opens with. */
const SAVED_VIEW_KEY = viewKey(MAIN_SCOPE, LIVE_VIEW, true);

/**
 * One transcript file opened for reading: a line index built by one streaming pass, the conversation tree over it,
 * and pages of normalised entries read by byte offset. Usable without the UI (the benchmark opens the largest
 * transcript and times the first page through this class):
 *
 *   const doc = await TranscriptDocument.open(path);                      // the whole file indexed
 *   const page = await doc.readPage(0, 50);
 *
 *   const first = await TranscriptDocument.open(path, { budgetMs: 200 }); // what the viewer does for its first
 *   const screen = await first.readPage(0, 50);                           // screen; the rest is indexed after
 */
export class TranscriptDocument {
  private version = 0;
  private treeCache: { version: number; tree: ConversationTree } | null = null;
  private readonly viewCache = new Map<string, { version: number; view: ResolvedView }>();
  private toolMaps: { version: number; lines: ToolLines } | null = null;
  private agentLinks: { version: number; links: AgentCallLinks } | null = null;
  private unreachable: { version: number; lines: readonly UnreachableLine[] } | null = null;
  /**
   * The usage each assistant line reported (null: none that counts), by line number, as `turnUsage` read them. A line
   * never changes once written, so they are kept until the file is replaced (a new index generation): the usage chart
   * asks again whenever the session grows, and reads only the new lines.
   */
  private lineUsage: { generation: number; byLine: Map<number, LineUsage | null> } = { generation: -1, byLine: new Map() };
  private updating: Promise<IndexUpdate> | null = null;
  /** A copy of the index lines as of the last `publish()`: what views are built from (the index keeps growing). */
  private published: readonly IndexedLine[] = [];

  /** How far the saved index of this file reaches (null: none saved or loaded yet). */
  private savedBytes: number | null = null;
  private lastSaveAt = Number.NEGATIVE_INFINITY;
  private saveTimer: NodeJS.Timeout | null = null;
  private saving: Promise<void> | null = null;

  private constructor(
    readonly index: TranscriptIndex,
    private readonly savedIndexes: SavedLineIndexes | null,
  ) {}

  /**
   * Opens and indexes a transcript. With `budgetMs` the index stops after about that long (the first screen of a
   * huge file needs only its beginning); `complete` then says so, and further `refresh()` calls go on from there.
   */
  static async open(
    path: string,
    options: {
      maxLineBytes?: number;
      budgetMs?: number;
      missingIsEmpty?: boolean;
      opener?: SourceOpener;
      /** Where line indexes are kept between runs: a saved one is read on from instead of the whole file. */
      savedIndexes?: SavedLineIndexes | null;
      /** How the index keeps its lines (see `TranscriptIndex`); by default as they were scanned. */
      newLineStore?: () => LineStore;
    } = {},
  ): Promise<TranscriptDocument> {
    const savedIndexes = options.savedIndexes ?? null;
    const index = new TranscriptIndex(path, options.maxLineBytes, options.missingIsEmpty, options.opener, options.newLineStore);
    const saved = savedIndexes === null ? null : await savedIndexes.load(path);
    if (saved !== null) index.resumeFrom({ extent: saved.extent, lines: saved.snapshot.lines });
    const document = new TranscriptDocument(index, savedIndexes);
    if (saved !== null) document.savedBytes = saved.extent.indexedBytes;
    await document.refresh(options.budgetMs);
    // What was worked out from the saved lines holds when the file added none since.
    const derived = saved?.snapshot.derived ?? null;
    if (derived !== null && index.resumedFrom !== null && document.published.length === saved?.snapshot.lines.length)
      document.adopt(derived);
    return document;
  }

  /** Takes the tree, live view and tool maps saved with the index as this version's. */
  private adopt(derived: DerivedIndex): void {
    const tree = new ConversationTree(this.published, derived.tree);
    this.treeCache = { version: this.version, tree };
    this.viewCache.set(SAVED_VIEW_KEY, { version: this.version, view: { tree, ...derived.liveView } });
    this.toolMaps = { version: this.version, lines: derived.toolLines };
    this.agentLinks = { version: this.version, links: derived.agentCallLinks };
    this.unreachable = { version: this.version, lines: derived.unreachable };
  }

  /**
   * Saves the index (with the tree, live view and tool maps worked out from it) a moment after it is complete, when
   * the file is big enough for that to pay and the last save is not too recent.
   */
  private scheduleSave(): void {
    const store = this.savedIndexes;
    if (store === null || this.saveTimer !== null || !this.index.complete || !this.worthSaving(store)) return;
    const delay = Math.max(store.options.saveDelayMs, this.lastSaveAt + store.options.resaveEveryMs - performance.now());
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      void this.saveNow();
    }, delay);
    // A one-shot command does not wait for it.
    this.saveTimer.unref();
  }

  /**
   * Drops a save this document scheduled for itself. For a reader that saves only when it chooses (the line index
   * keeper): a run cancelled by the engine's teardown must not leave a save behind that writes after it.
   */
  cancelScheduledSave(): void {
    if (this.saveTimer === null) return;
    clearTimeout(this.saveTimer);
    this.saveTimer = null;
  }

  /**
   * Saves the index now (a scheduled save is done at once); resolves when the file is written, with the bytes all
   * saved indexes take then (null when nothing was saved). Saving is an optimisation: a failure leaves the next open to
   * index the file itself.
   */
  async saveNow(): Promise<number | null> {
    this.cancelScheduledSave();
    while (this.saving) await this.saving;
    const store = this.savedIndexes;
    if (store === null || !this.worthSaving(store)) return null;
    // Taken in one go, before any await: the index may grow while the file is written.
    const extent = this.index.extent();
    const lines = this.index.committedLines.slice();
    // The views are of the published lines: saved with these lines only when they are the very same.
    const samePublished = this.published.length === lines.length && this.published[lines.length - 1] === lines[lines.length - 1];
    const derived = samePublished && this.complete ? this.derived() : null;
    this.lastSaveAt = performance.now();
    let savedTotal: number | null = null;
    this.saving = store
      .save(extent, { lines, derived })
      .then((total) => {
        this.savedBytes = extent.indexedBytes;
        savedTotal = total;
      })
      .catch(() => undefined)
      .finally(() => {
        this.saving = null;
      });
    await this.saving;
    return savedTotal;
  }

  /** A big enough file, with lines the saved index does not have yet. */
  private worthSaving(store: SavedLineIndexes): boolean {
    const bytes = this.index.indexedBytes;
    return bytes > 0 && bytes >= store.options.minFileBytes && bytes !== this.savedBytes;
  }

  private derived(): DerivedIndex {
    const tree = this.tree();
    const { branch, rows, isLive } = this.resolve(MAIN_SCOPE, LIVE_VIEW);
    return {
      tree: tree.arrays(),
      liveView: { branch, rows, isLive },
      toolLines: this.toolLines(),
      agentCallLinks: this.agentCallLinks(),
      unreachable: this.unreachableLines(),
    };
  }

  /** The indexed lines views are built from (as of the last `publish()`). */
  get lines(): readonly IndexedLine[] {
    return this.published;
  }

  /** Whether the index reaches the end of the file. */
  get complete(): boolean {
    return this.index.complete;
  }

  get path(): string {
    return this.index.path;
  }

  get generation(): number {
    return this.index.generation;
  }

  /**
   * Reads what was appended since the last look (or everything, when the file was replaced); one update at a time.
   * With `budgetMs` it stops after about that long. With `publish: false` the views keep showing the index as it
   * was until `publish()`, so a background read does not make every request rebuild the tree.
   */
  async refresh(budgetMs?: number, options: { publish?: boolean } = {}): Promise<IndexUpdate> {
    while (this.updating) await this.updating;
    this.updating = this.index.update(budgetMs === undefined ? undefined : performance.now() + budgetMs);
    try {
      const result = await this.updating;
      if (result !== 'unchanged' && options.publish !== false) this.publish();
      return result;
    } finally {
      this.updating = null;
    }
  }

  /** Makes the lines read so far visible to views. */
  publish(): void {
    this.version++;
    this.published = this.index.lines.slice();
    this.scheduleSave();
  }

  tree(): ConversationTree {
    if (this.treeCache?.version !== this.version) this.treeCache = { version: this.version, tree: new ConversationTree(this.published) };
    return this.treeCache.tree;
  }

  /**
   * The branch and rows a view shows; cached until the file changes. `foldToolResults: false` keeps every
   * chain entry as its own row (the CLI's view of a branch).
   */
  resolve(scope: ConversationScope, spec: TranscriptViewSpec, foldToolResults = true): ResolvedView {
    const key = viewKey(scope, spec, foldToolResults);
    const cached = this.viewCache.get(key);
    if (cached?.version === this.version) return cached.view;
    const view = this.computeView(scope, spec, foldToolResults);
    if (this.viewCache.size > 16) this.viewCache.clear();
    this.viewCache.set(key, { version: this.version, view });
    return view;
  }

  private computeView(scope: ConversationScope, spec: TranscriptViewSpec, foldToolResults: boolean): ResolvedView {
    const tree = this.tree();
    const live = this.liveLeaf(tree, scope);
    let leaf = live;
    if (spec.leafUuid !== null) {
      const chosen = tree.indexOfUuid(spec.leafUuid);
      if (chosen === undefined) throw new CodedError('NOT_FOUND', `No entry ${spec.leafUuid} in ${this.path}`);
      leaf = chosen;
    }
    const options = {
      showMeta: spec.showMeta,
      showMetadata: spec.showMetadata,
      includeOffChain: scope.kind !== 'inline-agent',
      foldToolResults,
    };
    if (leaf < 0) {
      // No conversation at all (a file of metadata lines only): the off-chain lines are all there is to show.
      const rows = options.includeOffChain
        ? buildTranscriptRows(this.published, tree, { nodes: [], leaf: -1, forks: [] }, options)
        : EMPTY_ROWS;
      return { tree, branch: null, rows, isLive: true };
    }
    const branch = tree.branchTo(leaf);
    const liveEnd = live >= 0 ? tree.newestTerminalOf(live) : -1;
    return { tree, branch, rows: buildTranscriptRows(this.published, tree, branch, options), isLive: branch.leaf === liveEnd };
  }

  private liveLeaf(tree: ConversationTree, scope: ConversationScope): number {
    if (scope.kind === 'inline-agent') {
      const root = tree.indexOfUuid(scope.rootUuid);
      if (root === undefined) throw new CodedError('NOT_FOUND', `No sub-agent run starting at ${scope.rootUuid} in ${this.path}`);
      const leaf = tree.liveLeaf({ sidechain: true, within: root });
      return leaf >= 0 ? leaf : root;
    }
    const sidechain = scope.kind === 'agent-file';
    const leaf = tree.liveLeaf({ sidechain });
    if (leaf >= 0) return leaf;
    // Files without a user/assistant leaf of the expected kind still show their newest chain.
    const candidates = tree.roots().filter((root) => tree.nodes[root].isSidechain === sidechain || scope.kind === 'agent-file');
    let best = -1;
    for (const root of candidates) {
      const end = tree.newestTerminalOf(root);
      if (best < 0 || end > best) best = end;
    }
    return best;
  }

  /** `tool_use_id` → the line of its result, of its call, and of the hooks that ran for it, over the whole file. */
  toolLines(): ToolLines {
    if (this.toolMaps?.version !== this.version) {
      const resultLineOf = new Map<string, number>();
      const callLineOf = new Map<string, number>();
      const hookLinesOf = new Map<string, number[]>();
      for (const line of this.published) {
        for (const id of line.toolResultIds) if (!resultLineOf.has(id)) resultLineOf.set(id, line.line);
        for (const use of line.toolUses) callLineOf.set(use.id, line.line);
        if (isToolHook(line)) {
          const id = line.attachmentToolUseId as string;
          const list = hookLinesOf.get(id);
          if (list) list.push(line.line);
          else hookLinesOf.set(id, [line.line]);
        }
      }
      this.toolMaps = { version: this.version, lines: { resultLineOf, callLineOf, hookLinesOf } };
    }
    return this.toolMaps.lines;
  }

  /** The Agent/Task calls of the file and what links sub-agent runs to them (see agentCallLinks.ts). */
  agentCallLinks(): AgentCallLinks {
    if (this.agentLinks?.version !== this.version) this.agentLinks = { version: this.version, links: agentCallLinks(this.published) };
    return this.agentLinks.links;
  }

  /** The user and assistant lines no branch shows, in file order (the same whatever branch is shown). */
  unreachableLines(): readonly UnreachableLine[] {
    if (this.unreachable?.version !== this.version)
      this.unreachable = { version: this.version, lines: unreachableLines(this.published, this.tree()) };
    return this.unreachable.lines;
  }

  private indexedLines(numbers: Iterable<number>): IndexedLine[] {
    const out: IndexedLine[] = [];
    for (const number of numbers) {
      const line = this.index.lineAt(number);
      if (line) out.push(line);
    }
    return out;
  }

  /** Normalised entries for some lines, read by offset; a line whose parent is missing from the file says so. */
  async readEntries(numbers: Iterable<number>, options: NormaliseOptions = PAGE_OPTIONS): Promise<Map<number, TranscriptEntry>> {
    const lines = this.indexedLines(numbers);
    const texts = await readLineTexts(this.path, lines, this.index.opener);
    const tree = this.tree();
    return new Map(
      lines.map((line) => {
        const entry = normaliseLine(line, texts.get(line.line) ?? null, options);
        const node = tree.nodeOfLine(line.line);
        const missing = node === undefined ? null : tree.missingParent[node];
        return [line.line, missing === null ? entry : { ...entry, danglingParentUuid: missing }];
      }),
    );
  }

  /** The parsed JSON of some lines (for the few facts entries do not carry, such as an Agent call's prompt). */
  async readRecords(numbers: Iterable<number>): Promise<Map<number, Record<string, unknown>>> {
    const lines = this.indexedLines(numbers);
    const texts = await readLineTexts(this.path, lines, this.index.opener);
    const out = new Map<number, Record<string, unknown>>();
    for (const [number, text] of texts) {
      if (text === null) continue;
      try {
        const value: unknown = JSON.parse(text);
        if (value && typeof value === 'object' && !Array.isArray(value)) out.set(number, value as Record<string, unknown>);
      } catch {
        // An unparsable line has no facts to offer; the viewer shows it as unreadable.
      }
    }
    return out;
  }

  /**
   * Rows `start … start+limit` of a view, each line read by its byte offset; tool calls get their results
   * attached (and the sub-agent they started, from `links`).
   */
  async readPage(
    start: number,
    limit: number,
    spec: TranscriptViewSpec = LIVE_VIEW,
    scope: ConversationScope = MAIN_SCOPE,
    links: ReadonlyMap<string, SubagentLink> = new Map(),
  ): Promise<TranscriptPage> {
    const view = this.resolve(scope, spec);
    const from = Math.max(0, Math.min(start, view.rows.lines.length));
    const rowLines = view.rows.lines.slice(from, from + Math.max(0, Math.min(limit, MAX_PAGE_ROWS)));
    const entries = await this.entriesWithResults(rowLines, links);
    return {
      generation: this.generation,
      start: from,
      rows: rowLines.map((line, i) => ({ row: from + i, entry: entries.get(line) as TranscriptEntry })),
    };
  }

  private async entriesWithResults(
    rowLines: readonly number[],
    links: ReadonlyMap<string, SubagentLink>,
  ): Promise<Map<number, TranscriptEntry>> {
    const { resultLineOf, hookLinesOf } = this.toolLines();
    const wanted = new Set(rowLines);
    for (const number of rowLines) {
      for (const use of this.index.lineAt(number)?.toolUses ?? []) {
        const resultLine = resultLineOf.get(use.id);
        if (resultLine !== undefined) wanted.add(resultLine);
        for (const hookLine of hookLinesOf.get(use.id) ?? []) wanted.add(hookLine);
      }
    }
    const entries = await this.readEntries(wanted);
    const out = new Map<number, TranscriptEntry>();
    for (const number of rowLines) {
      const entry = entries.get(number);
      if (!entry) continue;
      if (entry.body.kind !== 'assistant') {
        out.set(number, entry);
        continue;
      }
      const blocks = entry.body.blocks.map((block): ContentBlock => {
        if (block.kind !== 'tool-call') return block;
        let call = block.call;
        const resultLine = resultLineOf.get(call.id);
        const resultEntry = resultLine === undefined ? undefined : entries.get(resultLine);
        if (resultEntry?.body.kind === 'user') {
          const found = resultEntry.body.blocks.find((b) => b.kind === 'tool-result' && b.result.toolUseId === call.id);
          if (found?.kind === 'tool-result') call = withResult(call, found.result);
        }
        const hooks: HookRun[] = [];
        for (const hookLine of hookLinesOf.get(call.id) ?? []) {
          const hookEntry = entries.get(hookLine);
          if (hookEntry?.body.kind === 'attachment' && hookEntry.body.hook) hooks.push(hookEntry.body.hook);
        }
        if (hooks.length > 0) call = { ...call, hooks };
        return { kind: 'tool-call', call: withLink(call, links) };
      });
      out.set(number, { ...entry, body: { ...entry.body, blocks } });
    }
    return out;
  }

  /**
   * Every row of a view as a whole entry (no text cut, tool results and hooks as entries of their own), read in
   * batches; Agent/Task calls name the sub-agent they started (from `links`).
   */
  async *allEntries(
    spec: TranscriptViewSpec = LIVE_VIEW,
    scope: ConversationScope = MAIN_SCOPE,
    links: ReadonlyMap<string, SubagentLink> = new Map(),
  ): AsyncGenerator<TranscriptEntry> {
    const lines = this.resolve(scope, spec, false).rows.lines;
    for (let i = 0; i < lines.length; i += MAX_PAGE_ROWS) {
      const batch = lines.slice(i, i + MAX_PAGE_ROWS);
      const entries = await this.readEntries(batch, { maxTextChars: Infinity });
      for (const line of batch) {
        const entry = entries.get(line);
        if (!entry) continue;
        if (entry.body.kind !== 'assistant') {
          yield entry;
          continue;
        }
        const blocks = entry.body.blocks.map((block): ContentBlock =>
          block.kind === 'tool-call' ? { kind: 'tool-call', call: withLink(block.call, links) } : block,
        );
        yield { ...entry, body: { ...entry.body, blocks } };
      }
    }
  }

  /**
   * The token usage of every API response in a view, in reading order, one per `message.id`. Only assistant lines are
   * read (by offset, in batches), and their texts are not kept.
   */
  async turnUsage(spec: TranscriptViewSpec = LIVE_VIEW, scope: ConversationScope = MAIN_SCOPE): Promise<TurnUsage[]> {
    const view = this.resolve(scope, spec);
    const assistantLines = [...view.rows.rowOfLine.keys()]
      .map((number) => this.index.lineAt(number))
      .filter(
        (line): line is IndexedLine =>
          line !== undefined && line.type === 'assistant' && line.messageId !== null && line.unreadable === null,
      )
      .sort((a, b) => a.line - b.line);
    if (this.lineUsage.generation !== this.generation) this.lineUsage = { generation: this.generation, byLine: new Map() };
    const known = this.lineUsage.byLine;
    const unread = assistantLines.filter((line) => !known.has(line.line));
    for (let i = 0; i < unread.length; i += MAX_PAGE_ROWS) {
      const batch = unread.slice(i, i + MAX_PAGE_ROWS);
      // Only the response facts: normalising every line's content (as a page does) took most of the time.
      const records = await this.readRecords(batch.map((line) => line.line));
      for (const line of batch) {
        const record = records.get(line.line);
        known.set(line.line, record ? lineUsageOf(responseFacts(record), line.timestamp) : null);
      }
    }
    const chunks: (TurnUsage & { messageId: string })[] = [];
    for (const { line } of assistantLines) {
      const usage = known.get(line);
      if (usage) chunks.push({ ...usage, row: view.rows.rowOfLine.get(line) as number, line });
    }
    return dedupeTurns(chunks);
  }

  /**
   * Rows of a view whose visible text contains `query` (case-insensitive), with a snippet each. Lines are
   * pre-filtered on their raw text, so only candidates are parsed.
   */
  async find(
    query: string,
    limit: number,
    spec: TranscriptViewSpec = LIVE_VIEW,
    scope: ConversationScope = MAIN_SCOPE,
  ): Promise<TranscriptFindResult> {
    const needle = query.toLowerCase();
    const escapedNeedle = JSON.stringify(query).slice(1, -1).toLowerCase();
    if (needle.trim() === '') return { hits: [], truncated: false };
    const view = this.resolve(scope, spec);
    const searched = [...view.rows.rowOfLine.keys()]
      .map((number) => this.index.lineAt(number))
      .filter((line): line is IndexedLine => line !== undefined && line.unreadable === null)
      .filter((line) => !line.isMeta || spec.showMeta)
      .sort((a, b) => a.line - b.line);
    const bestByRow = new Map<number, TranscriptFindHit>();
    let truncated = false;
    // Most lines lack the query: for an ASCII query their bytes tell so, and they are never decoded.
    const prefilter = asciiQueryPrefilter(query) ?? undefined;
    for (let i = 0; i < searched.length && !truncated; i += FIND_BATCH_LINES) {
      const batch = searched.slice(i, i + FIND_BATCH_LINES);
      const texts = await readLineTexts(this.path, batch, this.index.opener, prefilter);
      const candidates = batch.filter((line) => {
        const text = texts.get(line.line)?.toLowerCase();
        return text !== undefined && (text.includes(needle) || text.includes(escapedNeedle));
      });
      for (const line of candidates) {
        const entry = normaliseLine(line, texts.get(line.line) ?? null, { maxTextChars: Infinity });
        const text = entryText(entry);
        if (!text.toLowerCase().includes(needle)) continue;
        const row = view.rows.rowOfLine.get(line.line) as number;
        if (!bestByRow.has(row)) bestByRow.set(row, { row, line: line.line, preview: snippetAround(text, query) });
        if (bestByRow.size > limit) {
          truncated = true;
          break;
        }
      }
    }
    const hits = [...bestByRow.values()].sort((a, b) => a.row - b.row).slice(0, limit);
    return { hits, truncated };
  }
}
