import { describe, expect, it } from 'vitest';
import { FIGURE_IDS, FIGURES, type FigureId, type FigureResult } from '../../../bench/runner/figures';
import type { BenchResults } from '../../../bench/runner/runBenchmarks';
import { scaleTable } from '../../../bench/runner/scaleTable';

function figure(id: FigureId, samples: readonly number[] | null): FigureResult {
  const { label, unit } = FIGURES[id];
  if (!samples) return { label, unit, status: 'skipped', median: null, min: null, max: null, samples: [], note: null };
  const sorted = [...samples].sort((a, b) => a - b);
  return { label, unit, status: 'ok', median: sorted[1], min: sorted[0], max: sorted[2], samples, note: null };
}

/** A results file as the runner writes it, with only the given figures measured. */
function run(size: BenchResults['size'], gigabytes: number, measured: Partial<Record<FigureId, readonly number[]>>): BenchResults {
  const figures = Object.fromEntries(FIGURE_IDS.map((id) => [id, figure(id, measured[id] ?? null)])) as Record<FigureId, FigureResult>;
  const bytes = { total: gigabytes * 1e9, sessions: 0, subagents: 0, sidecars: 0, memory: 0 };
  return {
    schema: 1 as BenchResults['schema'],
    date: '2026-11-26T23:00:00.000Z',
    size,
    seed: 1,
    runs: 3,
    machine: { cpuModel: 'cpu', cpus: 2, totalMemoryMB: 1, node: 'v20', platform: 'linux', loadAverageStart: 0.5, loadAverageEnd: 1.25 },
    home: {
      generationSeconds: 1,
      generationMBps: 1,
      bytes: bytes as BenchResults['home']['bytes'],
      counts: { projects: 1, sessions: gigabytes * 2000 } as BenchResults['home']['counts'],
      jsonlFiles: 1,
      jsonlBytes: gigabytes * 1e9,
      largestTranscriptBytes: 1,
      doctorTopicFiles: 1,
      searchNeedle: { text: 'needle', transcriptOccurrences: 1, memoryFiles: 1 },
    },
    cacheNote: '',
    figures,
  };
}

describe('the scale curve table', () => {
  it('puts the homes side by side, smallest first, and marks a figure one run did not measure', () => {
    const large = run('large', 2.5, { catalogColdBuildSeconds: [5, 4, 6], enginePeakRssMB: [250, 240, 260] });
    const medium = run('medium', 1, { catalogColdBuildSeconds: [2, 1.5, 2.5] });
    const lines = scaleTable([large, medium]).trimEnd().split('\n');
    expect(lines[0]).toBe(
      '| figure | unit | medium: 1.00 GB, 2000 sessions (load 0.50 → 1.25) | large: 2.50 GB, 5000 sessions (load 0.50 → 1.25) |',
    );
    expect(lines[1]).toBe('| --- | --- | --- | --- |');
    expect(lines).toContain(`| ${FIGURES.catalogColdBuildSeconds.label} | s | 2.00 (1.50–2.50) | 5.00 (4.00–6.00) |`);
    expect(lines).toContain(`| ${FIGURES.enginePeakRssMB.label} | MB | – | 250 (240–260) |`);
    // Figures no run measured are left out: a header, a rule and the two measured rows.
    expect(lines).toHaveLength(4);
  });
});
