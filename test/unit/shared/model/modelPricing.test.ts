import { describe, expect, it } from 'vitest';
import { costOf, PRICES_AS_OF, priceOf, tokenCost } from '../../../../shared/model/modelPricing';

describe('the model price table', () => {
  it('carries the date of its prices', () => {
    expect(PRICES_AS_OF).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('matches a model by the most specific family first', () => {
    expect(priceOf('claude-opus-4-6')).toEqual({ input: 5, output: 25, cacheWrite: 6.25, cacheRead: 0.5 });
    expect(priceOf('claude-opus-4-1-20250805')).toMatchObject({ input: 15, output: 75 });
    expect(priceOf('claude-sonnet-4-5-20250929')).toMatchObject({ input: 3, output: 15 });
    expect(priceOf('claude-haiku-4-5')).toMatchObject({ input: 1, output: 5 });
    expect(priceOf('<synthetic>')).toBeNull();
    expect(priceOf('gpt-4o')).toBeNull();
  });

  it('prices input, output, cache writes and cache reads per million tokens', () => {
    // 1M input at $3, 0.1M output at $15, 0.2M cache writes at $3.75, 2M cache reads at $0.30.
    const cost = tokenCost('claude-sonnet-4-6', { input: 1_000_000, output: 100_000, cacheCreation: 200_000, cacheRead: 2_000_000 });
    expect(cost).toBeCloseTo(3 + 1.5 + 0.75 + 0.6, 10);
    expect(tokenCost('unknown-model', { input: 1, output: 1, cacheCreation: 0, cacheRead: 0 })).toBeNull();
  });

  it("prices a job's usage (no cache) for the engine", () => {
    expect(costOf('claude-haiku-4-5', { inputTokens: 2_000_000, outputTokens: 1_000_000 })).toBeCloseTo(7, 10);
    expect(costOf('mystery', { inputTokens: 1, outputTokens: 1 })).toBeNull();
  });
});
