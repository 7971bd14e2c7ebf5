import type { CompactionEvent, PullRequestLink, TokenTotals } from '../../../shared/model/catalog';
import { isLocalCommandCaveat, typedPrompt, userContentText } from '../../../shared/claude/promptText';
import { addDistinct, setBounded } from './boundedCollections';
import type { TranscriptRecord } from './transcriptLineParser';
import { UsageLedger, type UsageLedgerState } from './usageLedger';
import { AGENT_TOOLS } from '../../../shared/claude/agentTools';

const MAX_DISTINCT_VALUES = 64;
const MAX_MEMORY_PATHS = 1000;
const MAX_REMEMBERED_TOOL_CALLS = 4096;
const MAX_REMEMBERED_SIDECHAIN_LINES = 8192;
/** Titles are shown cut to 200 characters; a little more is kept so whitespace folding cannot shorten them. */
const MAX_TITLE_SOURCE_CHARS = 400;
const MAX_COMPACTIONS = 1000;
const MAX_PR_LINKS = 16;
/** Legacy `summary` lines waiting for the line their `leafUuid` names (in this file or, later, in another). */
const MAX_SUMMARIES = 64;
/** A legacy summary's `leafUuid` is the last message of the conversation it titles: the last few are kept. */
const LEAF_CANDIDATES = 4;

const SYNTHETIC_MODEL = '<synthetic>';
const READ_TOOLS = new Set(['Read']);
const WRITE_TOOLS = new Set(['Write', 'Edit', 'MultiEdit']);

/** Decides whether an absolute path lies inside a memory folder of the session's project. */
export type MemoryPathTest = (path: string) => boolean;

/** What the session file says about one of its sub-agents (from the Task/Agent call and its result). */
export interface AgentLink {
  readonly agentType: string | null;
  readonly description: string | null;
  readonly toolUseId: string | null;
}

export interface InlineAgentState {
  readonly rootUuid: string;
  agentType: string | null;
  description: string | null;
  ledger: UsageLedgerState;
  toolCalls: number;
  models: string[];
  firstTimestamp: string | null;
  lastTimestamp: string | null;
}

/** The aggregate as saved between reads: plain JSON. */
export interface TranscriptAggregateState {
  readonly version: 2;
  lines: number;
  badLines: number;
  firstTimestamp: string | null;
  lastTimestamp: string | null;
  firstSessionId: string | null;
  cwds: string[];
  gitBranches: string[];
  versions: string[];
  models: string[];
  customTitle: string | null;
  aiTitle: string | null;
  lastPrompt: string | null;
  /** The legacy `summary` whose `leafUuid` is a line of this file. */
  summary: string | null;
  /** Legacy `summary` lines whose `leafUuid` is no line of this file (so far): they title another session. */
  otherSummaries: [string, string][];
  /** Uuids of the last few main-conversation messages: what another file's summary may name as its leaf. */
  leafUuids: string[];
  firstPrompt: string | null;
  /** The line before was the caveat Claude Code writes ahead of a local command (whose arguments are no prompt). */
  localCommandNext: boolean;
  prLinks: PullRequestLink[];
  agentName: string | null;
  mode: string | null;
  userPrompts: number;
  toolCalls: number;
  ledger: UsageLedgerState;
  compactions: CompactionEvent[];
  memoryReads: string[];
  memoryWrites: string[];
  agentLinks: [string, AgentLink][];
  /** Task/Agent tool_use id → what it asked for, until its result names the agent. */
  pendingAgentCalls: [string, AgentLink][];
  /** Inline (≤ 1.0) sub-agent prompts → the call that started them. */
  pendingInlinePrompts: [string, AgentLink][];
  sidechainRoots: [string, string][];
  inlineAgents: InlineAgentState[];
}

function str(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

function numOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function asRecord(value: unknown): TranscriptRecord | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as TranscriptRecord) : null;
}

function tokensOf(usage: unknown): TokenTotals {
  const u = asRecord(usage);
  if (!u) return { input: 0, output: 0, cacheCreation: 0, cacheRead: 0 };
  return {
    input: num(u.input_tokens),
    output: num(u.output_tokens),
    cacheCreation: num(u.cache_creation_input_tokens),
    cacheRead: num(u.cache_read_input_tokens),
  };
}

/**
 * The first `length` characters of a text, as a string of their own: V8 makes a cut of a long string point
 * into it, which would keep a whole pasted prompt alive for as long as the catalog keeps its first words.
 */
function detachedPrefix(text: string, length: number): string {
  // A JSON round trip copies the characters exactly, lone surrogates included.
  return text.length > length ? (JSON.parse(JSON.stringify(text.slice(0, length))) as string) : text;
}

function clip(text: string): string {
  return detachedPrefix(text, MAX_TITLE_SOURCE_CHARS);
}

/** An inline run's prompt as a lookup key: its first 200 characters, the same in the Task call and the run's first line. */
function promptKey(text: string): string {
  return detachedPrefix(text, 200);
}

function isAbsolutePath(path: string): boolean {
  return path.startsWith('/') || /^[A-Za-z]:[\\/]/.test(path) || path.startsWith('\\\\');
}

export function emptyAggregateState(): TranscriptAggregateState {
  return {
    version: 2,
    lines: 0,
    badLines: 0,
    firstTimestamp: null,
    lastTimestamp: null,
    firstSessionId: null,
    cwds: [],
    gitBranches: [],
    versions: [],
    models: [],
    customTitle: null,
    aiTitle: null,
    lastPrompt: null,
    summary: null,
    otherSummaries: [],
    leafUuids: [],
    firstPrompt: null,
    localCommandNext: false,
    prLinks: [],
    agentName: null,
    mode: null,
    userPrompts: 0,
    toolCalls: 0,
    ledger: new UsageLedger().toState(),
    compactions: [],
    memoryReads: [],
    memoryWrites: [],
    agentLinks: [],
    pendingAgentCalls: [],
    pendingInlinePrompts: [],
    sidechainRoots: [],
    inlineAgents: [],
  };
}

/**
 * Folds transcript lines into what the catalog shows about a session (or a sub-agent's own file), one
 * record at a time, so a file can be read once and then continued from its saved offset. Its state is
 * plain JSON and bounded in size, whatever the length of the session.
 */
export class TranscriptAggregate {
  private readonly state: TranscriptAggregateState;
  private readonly ledger: UsageLedger;
  private readonly agentLinks: Map<string, AgentLink>;
  private readonly pendingAgentCalls: Map<string, AgentLink>;
  private readonly pendingInlinePrompts: Map<string, AgentLink>;
  private readonly sidechainRoots: Map<string, string>;
  private readonly inlineAgents: Map<string, { state: InlineAgentState; ledger: UsageLedger }>;
  private lastInlineRoot: string | null = null;

  /**
   * @param isSubagentFile a sub-agent's own file: every line is a sidechain line and counts as the agent's own.
   */
  constructor(
    private readonly isMemoryPath: MemoryPathTest,
    private readonly isSubagentFile: boolean,
    state?: TranscriptAggregateState,
  ) {
    const base = state ?? emptyAggregateState();
    this.state = base;
    this.ledger = new UsageLedger(base.ledger);
    this.agentLinks = new Map(base.agentLinks);
    this.pendingAgentCalls = new Map(base.pendingAgentCalls);
    this.pendingInlinePrompts = new Map(base.pendingInlinePrompts);
    this.sidechainRoots = new Map(base.sidechainRoots);
    this.inlineAgents = new Map(
      base.inlineAgents.map((agent) => [agent.rootUuid, { state: agent, ledger: new UsageLedger(agent.ledger) }]),
    );
    this.lastInlineRoot = base.inlineAgents.at(-1)?.rootUuid ?? null;
  }

  /** A line that could not be read: counted, never fatal. */
  badLine(): void {
    this.state.lines++;
    this.state.badLines++;
  }

  /** A blank line: counted as a line, not as bad. */
  blankLine(): void {
    this.state.lines++;
  }

  /** A whole line. */
  add(record: TranscriptRecord): void {
    const inline = this.readEnvelope(record);
    switch (record.type) {
      case 'custom-title':
        this.state.customTitle = clipOrNull(str(record.customTitle)) ?? this.state.customTitle;
        break;
      case 'ai-title':
        this.state.aiTitle = clipOrNull(str(record.aiTitle)) ?? this.state.aiTitle;
        break;
      case 'last-prompt':
        this.state.lastPrompt = clipOrNull(str(record.lastPrompt)) ?? this.state.lastPrompt;
        break;
      case 'summary':
        this.addSummary(str(record.leafUuid), clipOrNull(str(record.summary)));
        break;
      case 'pr-link':
        this.addPullRequest(record);
        break;
      case 'agent-name':
        this.state.agentName = clipOrNull(str(record.agentName)) ?? this.state.agentName;
        break;
      case 'mode':
        this.state.mode = str(record.mode) ?? this.state.mode;
        break;
      case 'user':
        this.addUser(record, inline !== null);
        break;
      case 'assistant':
        this.addAssistant(record, inline);
        break;
      case 'system':
        if (record.subtype === 'compact_boundary' && inline === null) this.addCompaction(record, str(record.timestamp));
        break;
      default:
        break;
    }
  }

  /** Reads a line's envelope; returns the inline sub-agent run the line belongs to, if any. */
  private readEnvelope(record: TranscriptRecord): { state: InlineAgentState; ledger: UsageLedger } | null {
    const s = this.state;
    s.lines++;
    const timestamp = str(record.timestamp);
    if (timestamp) {
      // The first line's time, not the oldest: a forked session starts with copies of older lines.
      s.firstTimestamp ??= timestamp;
      if (s.lastTimestamp === null || timestamp > s.lastTimestamp) s.lastTimestamp = timestamp;
    }
    const uuid = str(record.uuid);
    if (uuid && (record.type === 'user' || record.type === 'assistant') && record.isSidechain !== true) this.noteMessageUuid(uuid);
    s.firstSessionId ??= str(record.sessionId);
    const cwd = str(record.cwd);
    if (cwd) addDistinct(s.cwds, cwd, MAX_DISTINCT_VALUES);
    const branch = str(record.gitBranch);
    if (branch) addDistinct(s.gitBranches, branch, MAX_DISTINCT_VALUES);
    const version = str(record.version);
    if (version) addDistinct(s.versions, version, MAX_DISTINCT_VALUES);
    // Legacy progress lines mirror sub-agent messages; they belong to no inline run of their own.
    if (record.isSidechain !== true || this.isSubagentFile || record.type === 'progress') return null;
    const inline = this.inlineAgentFor(record);
    if (timestamp && (inline.state.firstTimestamp === null || timestamp < inline.state.firstTimestamp))
      inline.state.firstTimestamp = timestamp;
    if (timestamp && (inline.state.lastTimestamp === null || timestamp > inline.state.lastTimestamp))
      inline.state.lastTimestamp = timestamp;
    return inline;
  }

  get lines(): number {
    return this.state.lines;
  }

  get ledgerTotals(): TokenTotals {
    return this.ledger.totals();
  }

  get assistantTurns(): number {
    return this.ledger.messageCount;
  }

  /** The state as it is now, sharing this aggregate's objects: serialise it at once, before more lines are added. */
  stateView(): TranscriptAggregateState {
    return {
      ...this.state,
      ledger: this.ledger.toState(),
      agentLinks: [...this.agentLinks],
      pendingAgentCalls: [...this.pendingAgentCalls],
      pendingInlinePrompts: [...this.pendingInlinePrompts],
      sidechainRoots: [...this.sidechainRoots],
      inlineAgents: [...this.inlineAgents.values()].map(({ state, ledger }) => ({ ...state, ledger: ledger.toState() })),
    };
  }

  private inlineAgentFor(record: TranscriptRecord): { state: InlineAgentState; ledger: UsageLedger } {
    const uuid = str(record.uuid) ?? `line-${this.state.lines}`;
    const parent = str(record.parentUuid);
    // A run starts at a sidechain line without a parent; a dangling parent joins the run seen last.
    const root = (parent && this.sidechainRoots.get(parent)) ?? (parent === null ? uuid : (this.lastInlineRoot ?? uuid));
    setBounded(this.sidechainRoots, uuid, root, MAX_REMEMBERED_SIDECHAIN_LINES);
    let agent = this.inlineAgents.get(root);
    if (!agent) {
      const state: InlineAgentState = {
        rootUuid: root,
        agentType: null,
        description: null,
        ledger: new UsageLedger().toState(),
        toolCalls: 0,
        models: [],
        firstTimestamp: null,
        lastTimestamp: null,
      };
      const promptText = record.type === 'user' ? userContentText(asRecord(record.message)?.content) : null;
      const link = promptText ? this.pendingInlinePrompts.get(promptKey(promptText)) : undefined;
      if (link) {
        state.agentType = link.agentType;
        state.description = link.description;
      }
      agent = { state, ledger: new UsageLedger() };
      this.inlineAgents.set(root, agent);
    }
    this.lastInlineRoot = root;
    return agent;
  }

  private addUser(record: TranscriptRecord, isInline: boolean): void {
    const message = asRecord(record.message);
    const content = message?.content;
    let hasToolResult = false;
    let hasImage = false;
    if (Array.isArray(content)) {
      for (const block of content) {
        const b = asRecord(block);
        if (b?.type === 'tool_result') {
          hasToolResult = true;
          this.linkAgentResult(str(b.tool_use_id), asRecord(record.toolUseResult));
        } else if (b?.type === 'image') {
          hasImage = true;
        }
      }
    }
    if (hasToolResult || isInline || this.isSubagentFile) return;
    const afterCaveat = this.state.localCommandNext;
    this.state.localCommandNext = isLocalCommandCaveat(content);
    if (record.isMeta === true || record.isCompactSummary === true || record.isVisibleInTranscriptOnly === true) return;
    const typed = typedPrompt(content);
    // A local command's arguments (`/rename Notes`) went to Claude Code, not to the model: no prompt.
    const prompt = typed === null || (typed.command && afterCaveat) ? null : typed.text;
    const text = userContentText(content);
    if (prompt !== null || (hasImage && (text === null || text.trim() === ''))) this.state.userPrompts++;
    if (prompt !== null) this.state.firstPrompt ??= clip(prompt);
  }

  private addSummary(leafUuid: string | null, summary: string | null): void {
    if (leafUuid === null || summary === null) return;
    if (this.state.leafUuids.includes(leafUuid)) {
      this.state.summary = summary;
      return;
    }
    const others = this.state.otherSummaries.filter(([leaf]) => leaf !== leafUuid);
    others.push([leafUuid, summary]);
    this.state.otherSummaries = others.slice(-MAX_SUMMARIES);
  }

  /** A main-conversation message: it may be the leaf a summary line (seen before it) names. */
  private noteMessageUuid(uuid: string): void {
    const s = this.state;
    const waiting = s.otherSummaries.findIndex(([leaf]) => leaf === uuid);
    if (waiting >= 0) {
      s.summary = s.otherSummaries[waiting][1];
      s.otherSummaries = s.otherSummaries.filter((_, i) => i !== waiting);
    }
    s.leafUuids.push(uuid);
    if (s.leafUuids.length > LEAF_CANDIDATES) s.leafUuids.shift();
  }

  private addPullRequest(record: TranscriptRecord): void {
    const url = str(record.prUrl);
    if (url === null) return;
    const link: PullRequestLink = { url, number: numOrNull(record.prNumber), repository: str(record.prRepository) };
    this.state.prLinks = [...this.state.prLinks.filter((known) => known.url !== url), link].slice(-MAX_PR_LINKS);
  }

  private linkAgentResult(toolUseId: string | null, result: TranscriptRecord | null): void {
    const agentId = str(result?.agentId);
    if (!toolUseId && !agentId) return;
    const pending = toolUseId ? this.pendingAgentCalls.get(toolUseId) : undefined;
    if (!agentId) return;
    if (toolUseId) this.pendingAgentCalls.delete(toolUseId);
    setBounded(
      this.agentLinks,
      agentId,
      {
        agentType: str(result?.agentType) ?? pending?.agentType ?? null,
        description: pending?.description ?? null,
        toolUseId,
      },
      MAX_REMEMBERED_TOOL_CALLS,
    );
  }

  private addAssistant(record: TranscriptRecord, inline: { state: InlineAgentState; ledger: UsageLedger } | null): void {
    const message = asRecord(record.message);
    if (!message) return;
    const model = str(message.model);
    if (model === SYNTHETIC_MODEL || record.isApiErrorMessage === true) return;
    const messageId = str(message.id) ?? str(record.requestId) ?? str(record.uuid) ?? `line-${this.state.lines}`;
    const toolUseIds: string[] = [];
    if (Array.isArray(message.content)) {
      for (const block of message.content) {
        const b = asRecord(block);
        if (b?.type !== 'tool_use') continue;
        const id = str(b.id) ?? `${messageId}:${toolUseIds.length}`;
        toolUseIds.push(id);
        this.noteToolUse(id, str(b.name), asRecord(b.input), inline === null);
      }
    }
    const models = inline ? inline.state.models : this.state.models;
    if (model) addDistinct(models, model, MAX_DISTINCT_VALUES);
    const ledger = inline ? inline.ledger : this.ledger;
    const added = ledger.record(messageId, tokensOf(message.usage), toolUseIds);
    if (inline) {
      inline.state.toolCalls += added;
    } else {
      this.state.toolCalls += added;
    }
  }

  private noteToolUse(id: string, name: string | null, input: TranscriptRecord | null, mainChain: boolean): void {
    if (!name || !input) return;
    if (AGENT_TOOLS.has(name) && mainChain) {
      const link: AgentLink = { agentType: str(input.subagent_type), description: str(input.description), toolUseId: id };
      setBounded(this.pendingAgentCalls, id, link, MAX_REMEMBERED_TOOL_CALLS);
      const prompt = str(input.prompt);
      if (prompt) setBounded(this.pendingInlinePrompts, promptKey(prompt), link, MAX_REMEMBERED_TOOL_CALLS);
      return;
    }
    const isRead = READ_TOOLS.has(name);
    if (!isRead && !WRITE_TOOLS.has(name)) return;
    const path = str(input.file_path);
    if (!path || !isAbsolutePath(path) || !this.isMemoryPath(path)) return;
    addDistinct(isRead ? this.state.memoryReads : this.state.memoryWrites, path, MAX_MEMORY_PATHS);
  }

  private addCompaction(record: TranscriptRecord, timestamp: string | null): void {
    if (this.state.compactions.length >= MAX_COMPACTIONS) return;
    const meta = asRecord(record.compactMetadata);
    this.state.compactions.push({
      timestamp,
      trigger: str(meta?.trigger),
      preTokens: numOrNull(meta?.preTokens),
      postTokens: numOrNull(meta?.postTokens),
    });
  }

  /** Sub-agent links found in this (session) file, by agent id. */
  links(): ReadonlyMap<string, AgentLink> {
    return this.agentLinks;
  }

  /** Inline (≤ 1.0) sub-agent runs found in this file. */
  inlineRuns(): readonly { state: InlineAgentState; tokens: TokenTotals; turns: number }[] {
    return [...this.inlineAgents.values()].map(({ state, ledger }) => ({ state, tokens: ledger.totals(), turns: ledger.messageCount }));
  }

  get data(): Readonly<TranscriptAggregateState> {
    return this.state;
  }
}

function clipOrNull(text: string | null): string | null {
  return text === null ? null : clip(text);
}
