import { describe, expect, it } from 'vitest';
import { UsageLedger } from '../../../../electron/core/catalog/usageLedger';

const tokens = (output: number) => ({ input: 1, output, cacheCreation: 0, cacheRead: 10 });

describe('UsageLedger', () => {
  it('keeps per message id the entry with the most output tokens, never the sum', () => {
    const ledger = new UsageLedger();
    ledger.record('m', tokens(3), []);
    ledger.record('m', tokens(172), []);
    ledger.record('m', tokens(100), []);
    expect(ledger.totals()).toEqual(tokens(172));
    expect(ledger.messageCount).toBe(1);
  });

  it('counts a tool_use id once per response', () => {
    const ledger = new UsageLedger();
    expect(ledger.record('m', tokens(1), ['t1'])).toBe(1);
    expect(ledger.record('m', tokens(2), ['t1', 't2'])).toBe(1);
    expect(ledger.record('n', tokens(2), ['t1'])).toBe(1);
  });

  it('folds old responses into a running total so its state stays small, with the same totals', () => {
    const ledger = new UsageLedger();
    for (let i = 0; i < 2000; i++) ledger.record(`m${i}`, tokens(i), []);
    const state = ledger.toState();
    expect(state.open.length).toBeLessThan(1000);
    const restored = new UsageLedger(JSON.parse(JSON.stringify(state)));
    expect(restored.messageCount).toBe(2000);
    expect(restored.totals()).toEqual({ input: 2000, output: (1999 * 2000) / 2, cacheCreation: 0, cacheRead: 20_000 });
  });
});
