import { toTitle } from '../../../shared/claude/promptText';
import { helperAgentType, workflowRunOf } from '../../../shared/claude/sessionFiles';
import type { SessionCatalogEntry, SubagentLayout, SubagentSummary } from '../../../shared/model/catalog';
import type { TitleSource } from '../../../shared/model/session';
import type { FileSummary } from './fileSummary';

/** What `agent-<id>.meta.json` says (2.1.8x+). */
export interface AgentMeta {
  readonly agentType: string | null;
  readonly description: string | null;
  /** Nested agents (2.1.172+): the agent whose call started this one, and how deep it is (1 = the session's own). */
  readonly parentAgentId: string | null;
  readonly spawnDepth: number | null;
}

export interface SubagentFileFacts {
  readonly agentId: string;
  readonly layout: SubagentLayout;
  readonly path: string;
  readonly summary: FileSummary;
  readonly meta: AgentMeta | null;
}

export interface SessionFacts {
  readonly configRoot: string;
  readonly slug: string;
  readonly sessionId: string;
  readonly path: string;
  readonly bytes: number;
  readonly mtimeMs: number;
  readonly hasSessionMemory: boolean;
  /** The session's own transcript comes from the archive. */
  readonly archived: boolean;
  /** The session file's summary; for a session whose file is gone (only its sub-agents are left), an empty one. */
  readonly main: FileSummary;
  readonly mainTranscript: boolean;
  /** `<sessionId>/custom-title.json`, which 2.1.3xx writes on `/rename`. */
  readonly customTitle: string | null;
  /** A legacy summary line of another file of the project whose leaf is this session's. */
  readonly summaryFromOtherFile: string | null;
  readonly subagents: readonly SubagentFileFacts[];
}

/** Claude Code's own precedence (claude-code-state.md §1): custom title, AI title, last prompt, summary, first prompt. */
function pickTitle(facts: SessionFacts): { title: string | null; titleSource: TitleSource } {
  const { main } = facts;
  const candidates: readonly [string | null, TitleSource][] = [
    [facts.customTitle ?? main.customTitle, 'custom-title'],
    [main.aiTitle, 'ai-title'],
    [main.lastPrompt, 'last-prompt'],
    [main.summary ?? facts.summaryFromOtherFile, 'summary'],
    [main.firstPrompt, 'first-prompt'],
  ];
  for (const [text, source] of candidates) {
    if (text !== null && text.trim() !== '') return { title: toTitle(text), titleSource: source };
  }
  return { title: null, titleSource: 'none' };
}

function distinct(lists: readonly (readonly string[])[]): string[] {
  return [...new Set(lists.flat())];
}

/** Last minus first timestamp, as an entry's `durationMs`. */
export function durationOf(first: string | null, last: string | null): number | null {
  if (first === null || last === null) return null;
  const ms = Date.parse(last) - Date.parse(first);
  return Number.isFinite(ms) ? ms : null;
}

function byStart(a: SubagentSummary, b: SubagentSummary): number {
  return (a.firstTimestamp ?? '').localeCompare(b.firstTimestamp ?? '') || a.agentId.localeCompare(b.agentId);
}

/** Puts one session's file summaries together into its catalog entry. Pure. */
export function buildSessionEntry(facts: SessionFacts): SessionCatalogEntry {
  const { main } = facts;
  const links = new Map(main.agentLinks);
  const fileAgents: SubagentSummary[] = facts.subagents.map((agent) => {
    const link = links.get(agent.agentId);
    const parentAgentId = agent.meta?.parentAgentId ?? null;
    return {
      agentId: agent.agentId,
      agentType: agent.meta?.agentType ?? link?.agentType ?? helperAgentType(agent.agentId),
      description: agent.meta?.description ?? link?.description ?? null,
      layout: agent.layout,
      path: agent.path,
      tokens: agent.summary.tokens,
      models: agent.summary.models,
      assistantTurns: agent.summary.assistantTurns,
      toolCalls: agent.summary.toolCalls,
      firstTimestamp: agent.summary.firstTimestamp,
      lastTimestamp: agent.summary.lastTimestamp,
      badLines: agent.summary.badLines,
      parentAgentId,
      depth: agent.meta?.spawnDepth ?? (parentAgentId !== null ? 2 : 1),
      workflowRunId: agent.layout === 'subagents-folder' ? workflowRunOf(agent.path) : null,
    };
  });
  const inlineAgents: SubagentSummary[] = main.inlineRuns.map((run) => ({
    agentId: run.rootUuid,
    agentType: run.agentType,
    description: run.description,
    layout: 'inline',
    path: facts.path,
    tokens: run.tokens,
    models: run.models,
    assistantTurns: run.assistantTurns,
    toolCalls: run.toolCalls,
    firstTimestamp: run.firstTimestamp,
    lastTimestamp: run.lastTimestamp,
    badLines: 0,
    parentAgentId: null,
    depth: 1,
    workflowRunId: null,
  }));
  const subagents = [...inlineAgents, ...fileAgents].sort(byStart);
  const { title, titleSource } = pickTitle(facts);
  // A session whose own file is gone is dated by its sub-agents.
  const times = facts.mainTranscript ? [main] : fileAgents;
  const firstTimestamp = times
    .map((t) => t.firstTimestamp)
    .reduce<string | null>((a, b) => (a === null || (b !== null && b < a) ? b : a), null);
  const lastTimestamp = times
    .map((t) => t.lastTimestamp)
    .reduce<string | null>((a, b) => (a === null || (b !== null && b > a) ? b : a), null);
  return {
    configRoot: facts.configRoot,
    slug: facts.slug,
    sessionId: facts.sessionId,
    path: facts.path,
    mainTranscript: facts.mainTranscript,
    title,
    titleSource,
    firstTimestamp,
    lastTimestamp,
    durationMs: durationOf(firstTimestamp, lastTimestamp),
    cwds: main.cwds,
    gitBranches: main.gitBranches,
    versions: main.versions,
    models: distinct([main.models, ...subagents.map((agent) => agent.models)]),
    userPrompts: main.userPrompts,
    assistantTurns: main.assistantTurns,
    toolCalls: main.toolCalls,
    tokens: main.tokens,
    subagents,
    compactions: main.compactions,
    memoryReads: distinct([main.memoryReads, ...facts.subagents.map((agent) => agent.summary.memoryReads)]),
    memoryWrites: distinct([main.memoryWrites, ...facts.subagents.map((agent) => agent.summary.memoryWrites)]),
    hasSessionMemory: facts.hasSessionMemory,
    archived: facts.archived,
    prLinks: main.prLinks,
    agentName: main.agentName,
    mode: main.mode,
    bytes: facts.bytes,
    badLines: main.badLines + facts.subagents.reduce((sum, agent) => sum + agent.summary.badLines, 0),
    mtime: new Date(facts.mtimeMs).toISOString(),
  };
}
