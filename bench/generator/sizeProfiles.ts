export const BENCH_SIZES = ['small', 'medium', 'large', 'xlarge'] as const;
export type BenchSize = (typeof BENCH_SIZES)[number];

/** The shape of one synthetic home; totals are approximate, the generator reports what it wrote. */
export interface SizeProfile {
  readonly size: BenchSize;
  /** Everything written under the config root, in bytes (decimal MB throughout the benchmarks). */
  readonly targetBytes: number;
  readonly projects: number;
  readonly sessions: number;
  /** The one session that is far bigger than the rest (the "open the largest transcript" figure). */
  readonly largestTranscriptBytes: number;
  /** Topic files in the one big memory folder the doctor figure reads. */
  readonly doctorTopicFiles: number;
}

const MB = 1_000_000;

export const SIZE_PROFILES: Readonly<Record<BenchSize, SizeProfile>> = {
  small: { size: 'small', targetBytes: 50 * MB, projects: 8, sessions: 120, largestTranscriptBytes: 8 * MB, doctorTopicFiles: 1000 },
  medium: {
    size: 'medium',
    targetBytes: 1000 * MB,
    projects: 40,
    sessions: 2000,
    largestTranscriptBytes: 200 * MB,
    doctorTopicFiles: 1000,
  },
  large: { size: 'large', targetBytes: 2500 * MB, projects: 80, sessions: 5000, largestTranscriptBytes: 500 * MB, doctorTopicFiles: 1000 },
  /** The far end of the scale curve (measured once, not on every round): a home of many months of heavy use. */
  xlarge: {
    size: 'xlarge',
    targetBytes: 10_000 * MB,
    projects: 320,
    sessions: 20_000,
    largestTranscriptBytes: 500 * MB,
    doctorTopicFiles: 1000,
  },
};

export function isBenchSize(value: string): value is BenchSize {
  return (BENCH_SIZES as readonly string[]).includes(value);
}
