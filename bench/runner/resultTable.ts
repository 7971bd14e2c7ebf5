import { FIGURE_IDS } from './figures';
import type { BenchResults } from './runBenchmarks';

/** Three significant-ish digits: 1.23, 12.3, 123, 1234. */
function formatNumber(value: number): string {
  const abs = Math.abs(value);
  const decimals = abs >= 100 ? 0 : abs >= 10 ? 1 : 2;
  return value.toFixed(decimals);
}

function mb(bytes: number): string {
  return `${formatNumber(bytes / 1e6)} MB`;
}

function columns(rows: readonly (readonly string[])[], rightAligned: ReadonlySet<number>): string {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => (rightAligned.has(column) ? cell.padStart(widths[column]) : cell.padEnd(widths[column])))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** The one table the runner prints: a header about the home and the machine, then every figure. */
export function resultTable(results: BenchResults): string {
  const { home, machine } = results;
  const header = [
    `ccmem bench — ${results.size} (seed ${results.seed}), ${results.runs} runs per figure, ${results.date.slice(0, 16).replace('T', ' ')} UTC`,
    `home: ${mb(home.bytes.total)} (sessions ${mb(home.bytes.sessions)}, sub-agents ${mb(home.bytes.subagents)}, sidecars ${mb(home.bytes.sidecars)}, memory ${mb(home.bytes.memory)}); ` +
      `${home.counts.projects} projects, ${home.counts.sessions} sessions, ${home.jsonlFiles} JSONL files (${mb(home.jsonlBytes)}), largest transcript ${mb(home.largestTranscriptBytes)}`,
    `generated in ${formatNumber(home.generationSeconds)} s (${formatNumber(home.generationMBps)} MB/s)`,
    `machine: ${machine.cpus} × ${machine.cpuModel}, ${machine.totalMemoryMB} MB, Node ${machine.node}; load average ${formatNumber(machine.loadAverageStart)} → ${formatNumber(machine.loadAverageEnd)}`,
    results.cacheNote,
  ];
  const rows: string[][] = [['figure', 'median', 'min', 'max', 'unit']];
  for (const id of FIGURE_IDS) {
    const figure = results.figures[id];
    if (figure.status === 'ok' && figure.median !== null && figure.min !== null && figure.max !== null) {
      rows.push([figure.label, formatNumber(figure.median), formatNumber(figure.min), formatNumber(figure.max), figure.unit]);
    } else {
      // The error itself is in the results file and was logged while running.
      const shown = { 'not-built': 'n/a (not built yet)', skipped: 'skipped', failed: 'failed', ok: 'failed' }[figure.status];
      rows.push([figure.label, shown, '', '', '']);
    }
  }
  return `${header.join('\n')}\n\n${columns(rows, new Set([1, 2, 3]))}\n`;
}
