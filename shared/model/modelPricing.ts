/**
 * Anthropic's public list prices in US dollars per million tokens, by model family (matched by prefix, the first
 * match wins), as of PRICES_AS_OF. One table for the engine (what a job costs) and the UI (what a session would cost
 * at API prices); a model not listed has no known price. Update the date with the table.
 */
export const PRICES_AS_OF = '2026-11-26';

interface ListPrice {
  readonly input: number;
  readonly output: number;
}

const PRICES: readonly (readonly [prefix: string, price: ListPrice])[] = [
  ['claude-opus-4-5', { input: 5, output: 25 }],
  ['claude-opus-4-6', { input: 5, output: 25 }],
  ['claude-opus-4', { input: 15, output: 75 }],
  ['claude-sonnet-4', { input: 3, output: 15 }],
  ['claude-3-7-sonnet', { input: 3, output: 15 }],
  ['claude-3-5-sonnet', { input: 3, output: 15 }],
  ['claude-haiku-4', { input: 1, output: 5 }],
  ['claude-3-5-haiku', { input: 0.8, output: 4 }],
  ['claude-3-opus', { input: 15, output: 75 }],
  ['claude-3-haiku', { input: 0.25, output: 1.25 }],
];

/** Writing the prompt cache costs 1.25 times the input price (5-minute cache), reading it a tenth. */
const CACHE_WRITE_FACTOR = 1.25;
const CACHE_READ_FACTOR = 0.1;

export interface ModelPrice {
  /** US dollars per million tokens. */
  readonly input: number;
  readonly output: number;
  readonly cacheWrite: number;
  readonly cacheRead: number;
}

export function priceOf(model: string): ModelPrice | null {
  const price = PRICES.find(([prefix]) => model.startsWith(prefix))?.[1];
  if (!price) return null;
  return { ...price, cacheWrite: price.input * CACHE_WRITE_FACTOR, cacheRead: price.input * CACHE_READ_FACTOR };
}

/** Tokens of one kind each, as transcripts count them. */
export interface TokenCounts {
  readonly input: number;
  readonly output: number;
  readonly cacheCreation: number;
  readonly cacheRead: number;
}

/** What these tokens cost at list price, or null for a model whose price is unknown. */
export function tokenCost(model: string, tokens: TokenCounts): number | null {
  const price = priceOf(model);
  if (!price) return null;
  return (
    (tokens.input * price.input +
      tokens.output * price.output +
      tokens.cacheCreation * price.cacheWrite +
      tokens.cacheRead * price.cacheRead) /
    1_000_000
  );
}

/** The list price of a job's usage (input and output, no cache) in US dollars, or null when the price is unknown. */
export function costOf(model: string, usage: { readonly inputTokens: number; readonly outputTokens: number }): number | null {
  return tokenCost(model, { input: usage.inputTokens, output: usage.outputTokens, cacheCreation: 0, cacheRead: 0 });
}
