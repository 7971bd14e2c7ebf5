import { toTitle } from '../../../shared/claude/promptText';
import type { SessionCatalogEntry, SubagentLayout, SubagentSummary } from '../../../shared/model/catalog';
import type { TitleSource } from '../../../shared/model/session';
import type { FileSummary } from './fileSummary';

/** What `agent-<id>.meta.json` says (2.1.8x+). */
export interface AgentMeta {
  readonly agentType: string | null;
  readonly description: string | null;
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
  readonly main: FileSummary;
  readonly subagents: readonly SubagentFileFacts[];
}

/** Claude Code's own precedence (claude-code-state.md §1): custom title, AI title, last prompt, summary, first prompt. */
function pickTitle(main: FileSummary): { title: string | null; titleSource: TitleSource } {
  const candidates: readonly [string | null, TitleSource][] = [
    [main.customTitle, 'custom-title'],
    [main.aiTitle, 'ai-title'],
    [main.lastPrompt, 'last-prompt'],
    [main.summary, 'summary'],
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

function durationOf(first: string | null, last: string | null): number | null {
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
    return {
      agentId: agent.agentId,
      agentType: agent.meta?.agentType ?? link?.agentType ?? null,
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
  }));
  const subagents = [...inlineAgents, ...fileAgents].sort(byStart);
  const { title, titleSource } = pickTitle(main);
  return {
    configRoot: facts.configRoot,
    slug: facts.slug,
    sessionId: facts.sessionId,
    path: facts.path,
    title,
    titleSource,
    firstTimestamp: main.firstTimestamp,
    lastTimestamp: main.lastTimestamp,
    durationMs: durationOf(main.firstTimestamp, main.lastTimestamp),
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
    bytes: facts.bytes,
    badLines: main.badLines + facts.subagents.reduce((sum, agent) => sum + agent.summary.badLines, 0),
    mtime: new Date(facts.mtimeMs).toISOString(),
  };
}
