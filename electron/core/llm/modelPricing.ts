import type { LlmUsage } from './llmTypes';

interface Price {
  /** US dollars per million input tokens. */
  readonly input: number;
  /** US dollars per million output tokens. */
  readonly output: number;
}

/** Public list prices by model family, matched by prefix; a model not listed has no known price. */
const PRICES: readonly (readonly [prefix: string, price: Price])[] = [
  ['claude-opus-4-5', { input: 5, output: 25 }],
  ['claude-opus-4-6', { input: 5, output: 25 }],
  ['claude-opus-4', { input: 15, output: 75 }],
  ['claude-sonnet-4', { input: 3, output: 15 }],
  ['claude-3-7-sonnet', { input: 3, output: 15 }],
  ['claude-haiku-4', { input: 1, output: 5 }],
  ['claude-3-5-haiku', { input: 0.8, output: 4 }],
];

function priceOf(model: string): Price | null {
  return PRICES.find(([prefix]) => model.startsWith(prefix))?.[1] ?? null;
}

/** The list price of this much usage in US dollars, or null for a model whose price is unknown. */
export function costOf(model: string, usage: LlmUsage): number | null {
  const price = priceOf(model);
  if (!price) return null;
  return (usage.inputTokens * price.input + usage.outputTokens * price.output) / 1_000_000;
}
