import { tokenCost, type TokenCounts } from '../model/modelPricing';
import type { TokenUsage } from './transcriptEntry';

/** One API response of the shown conversation: what it cost in tokens, deduplicated by `message.id`. */
export interface TurnUsage {
  /** The viewer row of the response's first line, to jump to it. */
  readonly row: number;
  readonly line: number;
  readonly timestamp: string | null;
  readonly model: string | null;
  readonly usage: TokenUsage;
}

export interface TranscriptUsage {
  /** In reading order. `<synthetic>` and API-error responses (no real usage) are left out. */
  readonly turns: readonly TurnUsage[];
}

/** The context the model read on a turn: all its input, cached or not. */
export function contextTokens(usage: TokenUsage): number {
  return usage.input + usage.cacheCreation + usage.cacheRead;
}

/**
 * A response's chunks each repeat its usage: the chunk with the most output tokens gives the usage (claude-code-state.md
 * §2.5), the first chunk where and when the response starts.
 */
export function dedupeTurns(chunks: readonly (TurnUsage & { readonly messageId: string })[]): TurnUsage[] {
  const byMessage = new Map<string, TurnUsage>();
  for (const { messageId, ...turn } of chunks) {
    const known = byMessage.get(messageId);
    if (!known) byMessage.set(messageId, turn);
    else if (turn.usage.output > known.usage.output) byMessage.set(messageId, { ...known, model: turn.model, usage: turn.usage });
  }
  return [...byMessage.values()].sort((a, b) => a.row - b.row || a.line - b.line);
}

export interface UsageTotals {
  readonly tokens: TokenCounts;
  /** The cost at list prices, or null when a turn's model has no known price (or names none). */
  readonly costUsd: number | null;
  /** The largest context any turn read. */
  readonly peakContext: number;
}

/** The tokens of all the turns, the largest context, and the cost at list prices (each turn priced by its model). */
export function usageTotals(turns: readonly TurnUsage[]): UsageTotals {
  let input = 0;
  let output = 0;
  let cacheCreation = 0;
  let cacheRead = 0;
  let costUsd: number | null = 0;
  let peakContext = 0;
  for (const turn of turns) {
    input += turn.usage.input;
    output += turn.usage.output;
    cacheCreation += turn.usage.cacheCreation;
    cacheRead += turn.usage.cacheRead;
    peakContext = Math.max(peakContext, contextTokens(turn.usage));
    const cost = turn.model === null ? null : tokenCost(turn.model, turn.usage);
    costUsd = costUsd === null || cost === null ? null : costUsd + cost;
  }
  return { tokens: { input, output, cacheCreation, cacheRead }, costUsd, peakContext };
}
