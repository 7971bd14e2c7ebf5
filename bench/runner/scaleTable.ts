import { FIGURE_IDS } from './figures';
import type { BenchResults } from './runBenchmarks';

/** Three significant-ish digits, as the run's own table prints them. */
function formatNumber(value: number): string {
  const abs = Math.abs(value);
  const decimals = abs >= 100 ? 0 : abs >= 10 ? 1 : 2;
  return value.toFixed(decimals);
}

/**
 * The scale curve: the same figures from runs on homes of different sizes, side by side (smallest first), so a
 * user sees how each cost grows with the home. A cell is "median (min–max)"; a figure no run measured is left out,
 * one a run did not measure is "–". Each column names its home and the load average its run started and ended at.
 */
export function scaleTable(runs: readonly BenchResults[]): string {
  const ordered = [...runs].sort((a, b) => a.home.jsonlBytes - b.home.jsonlBytes);
  const header = [
    'figure',
    'unit',
    ...ordered.map(
      (run) =>
        `${run.size}: ${formatNumber(run.home.bytes.total / 1e9)} GB, ${run.home.counts.sessions} sessions ` +
        `(load ${formatNumber(run.machine.loadAverageStart)} → ${formatNumber(run.machine.loadAverageEnd)})`,
    ),
  ];
  const rows: string[][] = [];
  for (const id of FIGURE_IDS) {
    const cells = ordered.map((run) => {
      const figure = run.figures[id];
      if (figure?.status !== 'ok' || figure.median === null || figure.min === null || figure.max === null) return null;
      return `${formatNumber(figure.median)} (${formatNumber(figure.min)}–${formatNumber(figure.max)})`;
    });
    if (cells.every((cell) => cell === null)) continue;
    const labelled = ordered.find((run) => run.figures[id]?.status === 'ok')!.figures[id];
    rows.push([labelled.label, labelled.unit, ...cells.map((cell) => cell ?? '–')]);
  }
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n') + '\n';
}
