import type { CompactionEvent, PullRequestLink, TokenTotals } from '../../../shared/model/catalog';
import type { AgentLink, TranscriptAggregate } from './transcriptAggregate';

/** An inline (≤ 1.0) sub-agent run found inside a session file. */
export interface InlineRunSummary {
  readonly rootUuid: string;
  readonly agentType: string | null;
  readonly description: string | null;
  readonly tokens: TokenTotals;
  readonly assistantTurns: number;
  readonly toolCalls: number;
  readonly models: readonly string[];
  readonly firstTimestamp: string | null;
  readonly lastTimestamp: string | null;
}

/** What one transcript file contributes to the catalog: small, kept for every file in the catalog index. */
export interface FileSummary {
  readonly lines: number;
  readonly badLines: number;
  readonly firstTimestamp: string | null;
  readonly lastTimestamp: string | null;
  readonly firstSessionId: string | null;
  readonly cwds: readonly string[];
  readonly gitBranches: readonly string[];
  readonly versions: readonly string[];
  readonly models: readonly string[];
  readonly customTitle: string | null;
  readonly aiTitle: string | null;
  readonly lastPrompt: string | null;
  readonly summary: string | null;
  /** Legacy summaries naming a leaf in no line of this file: `[leafUuid, summary]`, for another session. */
  readonly otherSummaries: readonly (readonly [string, string])[];
  /** Uuids of the last few main-conversation messages (a legacy summary in another file may name one). */
  readonly leafUuids: readonly string[];
  readonly firstPrompt: string | null;
  readonly prLinks: readonly PullRequestLink[];
  readonly agentName: string | null;
  readonly mode: string | null;
  readonly userPrompts: number;
  readonly assistantTurns: number;
  readonly toolCalls: number;
  readonly tokens: TokenTotals;
  readonly compactions: readonly CompactionEvent[];
  readonly memoryReads: readonly string[];
  readonly memoryWrites: readonly string[];
  readonly agentLinks: readonly (readonly [string, AgentLink])[];
  readonly inlineRuns: readonly InlineRunSummary[];
}

export function summarizeAggregate(aggregate: TranscriptAggregate): FileSummary {
  const data = aggregate.data;
  return {
    lines: data.lines,
    badLines: data.badLines,
    firstTimestamp: data.firstTimestamp,
    lastTimestamp: data.lastTimestamp,
    firstSessionId: data.firstSessionId,
    cwds: [...data.cwds],
    gitBranches: [...data.gitBranches],
    versions: [...data.versions],
    models: [...data.models],
    customTitle: data.customTitle,
    aiTitle: data.aiTitle,
    lastPrompt: data.lastPrompt,
    summary: data.summary,
    otherSummaries: data.otherSummaries.map(([leaf, summary]) => [leaf, summary] as const),
    leafUuids: [...data.leafUuids],
    firstPrompt: data.firstPrompt,
    prLinks: data.prLinks.map((link) => ({ ...link })),
    agentName: data.agentName,
    mode: data.mode,
    userPrompts: data.userPrompts,
    assistantTurns: aggregate.assistantTurns,
    toolCalls: data.toolCalls,
    tokens: aggregate.ledgerTotals,
    compactions: data.compactions.map((c) => ({ ...c })),
    memoryReads: [...data.memoryReads],
    memoryWrites: [...data.memoryWrites],
    agentLinks: [...aggregate.links()].map(([id, link]) => [id, { ...link }] as const),
    inlineRuns: aggregate.inlineRuns().map(({ state, tokens, turns }) => ({
      rootUuid: state.rootUuid,
      agentType: state.agentType,
      description: state.description,
      tokens,
      assistantTurns: turns,
      toolCalls: state.toolCalls,
      models: [...state.models],
      firstTimestamp: state.firstTimestamp,
      lastTimestamp: state.lastTimestamp,
    })),
  };
}

const NO_ITEMS: readonly never[] = Object.freeze([]);

/**
 * The summary with each empty list replaced by one shared, frozen empty list. The catalog keeps a summary for every
 * transcript, and most leave most of their twelve lists empty (no memory reads or writes, no compactions, no links …):
 * on the large bench home, 10,000 summaries held about 3 MB of empty lists of their own (32 bytes each).
 */
export function withSharedEmptyLists(summary: FileSummary): FileSummary {
  let shared: Record<string, unknown> | null = null;
  for (const [key, value] of Object.entries(summary)) {
    if (!Array.isArray(value) || value.length > 0 || (value as unknown) === NO_ITEMS) continue;
    shared ??= { ...summary };
    shared[key] = NO_ITEMS;
  }
  return (shared as FileSummary | null) ?? summary;
}
