import { contextTokens, type TurnUsage } from '../../../../shared/transcript/turnUsage';

/** One bar of the usage chart: a turn, or several neighbouring turns when there are more turns than bars. */
export interface UsageBar {
  /** The row of the bar's first turn, to jump to. */
  readonly row: number;
  readonly firstTurn: number;
  readonly turnCount: number;
  /** Output tokens of the bar's turns, summed. */
  readonly output: number;
  /** The largest context (input, cached or not) any of its turns read. */
  readonly context: number;
}

/** The turns as at most `maxBars` bars, neighbours merged evenly (a 5,000-turn session still draws quickly). */
export function usageBars(turns: readonly TurnUsage[], maxBars: number): UsageBar[] {
  const perBar = Math.max(1, Math.ceil(turns.length / maxBars));
  const bars: UsageBar[] = [];
  for (let start = 0; start < turns.length; start += perBar) {
    const group = turns.slice(start, start + perBar);
    bars.push({
      row: group[0].row,
      firstTurn: start,
      turnCount: group.length,
      output: group.reduce((sum, turn) => sum + turn.usage.output, 0),
      context: Math.max(...group.map((turn) => contextTokens(turn.usage))),
    });
  }
  return bars;
}
