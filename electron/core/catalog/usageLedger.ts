import type { TokenTotals } from '../../../shared/model/catalog';

export const ZERO_TOKENS: TokenTotals = { input: 0, output: 0, cacheCreation: 0, cacheRead: 0 };

export function addTokens(a: TokenTotals, b: TokenTotals): TokenTotals {
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cacheCreation: a.cacheCreation + b.cacheCreation,
    cacheRead: a.cacheRead + b.cacheRead,
  };
}

/** Claude Code writes each streamed block of a response as its own line; all of a response's lines sit close together. */
const OPEN_MESSAGE_WINDOW = 512;

interface OpenMessage {
  tokens: TokenTotals;
  /** tool_use ids already counted for this response (a chunk may repeat an earlier block). */
  toolUseIds: string[];
}

export interface UsageLedgerState {
  readonly settled: TokenTotals;
  readonly settledMessages: number;
  readonly open: readonly (readonly [string, TokenTotals, readonly string[]])[];
}

/**
 * Token usage deduplicated by `message.id`: per id, the line with the most output tokens wins and chunks
 * are never summed. Only the most recent ids stay open (an appended chunk can only belong to a recent
 * response); older ones are folded into a running total, so the saved state stays small for huge sessions.
 */
export class UsageLedger {
  private settled: TokenTotals;
  private settledMessages: number;
  private readonly open: Map<string, OpenMessage>;

  constructor(state?: UsageLedgerState) {
    this.settled = state?.settled ?? ZERO_TOKENS;
    this.settledMessages = state?.settledMessages ?? 0;
    this.open = new Map((state?.open ?? []).map(([id, tokens, toolUseIds]) => [id, { tokens, toolUseIds: [...toolUseIds] }]));
  }

  /** Records one assistant line's usage; returns how many of its tool_use ids are new for this response. */
  record(messageId: string, tokens: TokenTotals, toolUseIds: readonly string[]): number {
    let message = this.open.get(messageId);
    if (!message) {
      message = { tokens, toolUseIds: [] };
      this.open.set(messageId, message);
      if (this.open.size > OPEN_MESSAGE_WINDOW) this.settleOldest();
    } else if (tokens.output > message.tokens.output) {
      message.tokens = tokens;
    }
    let added = 0;
    for (const id of toolUseIds) {
      if (message.toolUseIds.includes(id)) continue;
      message.toolUseIds.push(id);
      added++;
    }
    return added;
  }

  get messageCount(): number {
    return this.settledMessages + this.open.size;
  }

  totals(): TokenTotals {
    let total = this.settled;
    for (const message of this.open.values()) total = addTokens(total, message.tokens);
    return total;
  }

  toState(): UsageLedgerState {
    return {
      settled: this.settled,
      settledMessages: this.settledMessages,
      open: [...this.open].map(([id, message]) => [id, message.tokens, message.toolUseIds] as const),
    };
  }

  private settleOldest(): void {
    const [oldestId, oldest] = this.open.entries().next().value as [string, OpenMessage];
    this.open.delete(oldestId);
    this.settled = addTokens(this.settled, oldest.tokens);
    this.settledMessages++;
  }
}
