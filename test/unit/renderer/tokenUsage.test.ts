import { describe, expect, it } from 'vitest';
import type { SessionCatalogEntry } from '../../../shared/model/catalog';
import { contextTokens, dedupeTurns, usageTotals, type TurnUsage } from '../../../shared/transcript/turnUsage';
import { sessionCostUsd } from '../../../renderer/src/features/sessions/sessionCost';
import { usageBars } from '../../../renderer/src/features/transcript/usageSeries';

const usage = (input: number, output: number, cacheCreation = 0, cacheRead = 0) => ({ input, output, cacheCreation, cacheRead });
const turn = (row: number, model: string | null, tokens: ReturnType<typeof usage>): TurnUsage => ({
  row,
  line: row + 1,
  timestamp: null,
  model,
  usage: tokens,
});

describe('turns deduplicated by response', () => {
  it('takes the usage of the chunk with the most output, the place of the first chunk', () => {
    const turns = dedupeTurns([
      { ...turn(2, 'claude-sonnet-4-6', usage(10, 3)), messageId: 'msg_a' },
      { ...turn(3, 'claude-sonnet-4-6', usage(10, 120)), messageId: 'msg_a' },
      { ...turn(5, 'claude-sonnet-4-6', usage(4, 9)), messageId: 'msg_b' },
      { ...turn(4, 'claude-sonnet-4-6', usage(10, 50)), messageId: 'msg_a' },
    ]);
    expect(turns.map((t) => [t.row, t.usage.output])).toEqual([
      [2, 120],
      [5, 9],
    ]);
    expect(contextTokens(usage(3, 100, 200, 4000))).toBe(4203);
  });
});

describe('the usage chart', () => {
  const turns = Array.from({ length: 10 }, (_, i) => turn(i * 3, 'claude-haiku-4-5', usage(1, 10 * (i + 1), 100, 1000 * i)));

  it('draws a bar per turn, or merges neighbours evenly when there are more turns than bars', () => {
    expect(usageBars(turns, 20)).toHaveLength(10);
    const bars = usageBars(turns, 4);
    expect(bars.map((bar) => [bar.firstTurn, bar.turnCount, bar.row, bar.output])).toEqual([
      [0, 3, 0, 60],
      [3, 3, 9, 150],
      [6, 3, 18, 240],
      [9, 1, 27, 100],
    ]);
    // The context of a merged bar is the largest of its turns.
    expect(bars[1].context).toBe(1 + 100 + 5000);
  });

  it('adds up the tokens and prices each turn by its own model', () => {
    const totals = usageTotals([
      turn(0, 'claude-haiku-4-5', usage(1_000_000, 0)),
      turn(1, 'claude-opus-4-6', usage(0, 1_000_000, 0, 2_000_000)),
    ]);
    expect(totals.tokens).toEqual({ input: 1_000_000, output: 1_000_000, cacheCreation: 0, cacheRead: 2_000_000 });
    expect(totals.costUsd).toBeCloseTo(1 + 25 + 1, 10);
    expect(totals.peakContext).toBe(2_000_000);
    expect(usageTotals([turn(0, 'claude-haiku-4-5', usage(1, 1)), turn(1, 'a-model-without-a-price', usage(1, 1))]).costUsd).toBeNull();
    expect(usageTotals([turn(0, null, usage(1, 1))]).costUsd).toBeNull();
  });
});

describe("a session's cost in the timeline", () => {
  const base = { tokens: usage(1_000_000, 0), models: ['claude-sonnet-4-6'], subagents: [] } as unknown as SessionCatalogEntry;
  const agent = (models: string[], tokens: ReturnType<typeof usage>) => ({ agentId: 'a', models, tokens });

  it('is priced when the session and its sub-agents used one model', () => {
    expect(sessionCostUsd(base)).toBeCloseTo(3, 10);
    const withAgent = { ...base, subagents: [agent(['claude-sonnet-4-6'], usage(0, 1_000_000))] } as unknown as SessionCatalogEntry;
    expect(sessionCostUsd(withAgent)).toBeCloseTo(18, 10);
    expect(sessionCostUsd({ ...base, models: ['claude-sonnet-4-6', '<synthetic>'] })).toBeCloseTo(3, 10);
  });

  it('cannot be known when the tokens of several models are added together, or a model has no price', () => {
    const mixed = {
      ...base,
      models: ['claude-opus-4-6', 'claude-haiku-4-5'],
      subagents: [agent(['claude-haiku-4-5'], usage(1, 1))],
    } as unknown as SessionCatalogEntry;
    expect(sessionCostUsd(mixed)).toBeNull();
    expect(sessionCostUsd({ ...base, models: ['a-model-without-a-price'] })).toBeNull();
    expect(sessionCostUsd({ ...base, models: [] })).toBeNull();
  });

  it('is the sum of its sub-agents when the session itself used no tokens and each sub-agent one model', () => {
    const onlyAgents = {
      ...base,
      tokens: usage(0, 0),
      models: ['claude-opus-4-6', 'claude-haiku-4-5'],
      subagents: [agent(['claude-opus-4-6'], usage(1_000_000, 0)), agent(['claude-haiku-4-5'], usage(0, 1_000_000))],
    } as unknown as SessionCatalogEntry;
    expect(sessionCostUsd(onlyAgents)).toBeCloseTo(5 + 5, 10);
  });
});
