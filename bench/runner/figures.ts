/** Every figure the runner reports, in table order. Ids and units are part of the results file's stable shape. */
export const FIGURES = {
  catalogColdBuildSeconds: { label: 'catalog cold build', unit: 's' },
  catalogColdBuildMBps: { label: 'catalog cold build throughput', unit: 'MB/s' },
  catalogColdBuildCpuSeconds: { label: 'catalog cold build CPU time', unit: 's' },
  ccusageSessionSeconds: { label: 'ccusage 17.2.1 session --json', unit: 's' },
  catalogToCcusageRatio: { label: 'catalog time / ccusage time', unit: 'ratio' },
  catalogColdBuildBusySeconds: { label: 'busy machine: catalog cold build', unit: 's' },
  catalogColdBuildBusyMBps: { label: 'busy machine: catalog cold build throughput', unit: 'MB/s' },
  ccusageSessionBusySeconds: { label: 'busy machine: ccusage 17.2.1 session --json', unit: 's' },
  catalogToCcusageBusyRatio: { label: 'busy machine: catalog time / ccusage time', unit: 'ratio' },
  coldStartFirstPageMs: { label: 'cold start to first useful page', unit: 'ms' },
  coldStartWholeHomeMs: { label: 'cold start to the whole projects list', unit: 'ms' },
  coldStartAskedLateFirstPageMs: { label: 'cold start, asked once the home is found: first useful page', unit: 'ms' },
  warmStartFirstPageMs: { label: 'warm start to first timeline page', unit: 'ms' },
  warmStartListingMs: { label: 'warm start: the listing request alone', unit: 'ms' },
  searchFirstHitMs: { label: 'search: first hit', unit: 'ms' },
  searchFirstHitNewestMs: { label: 'search: first hit, a text of the newest file', unit: 'ms' },
  searchFirstHitListingMs: { label: 'search: first hit, listing afresh', unit: 'ms' },
  searchFullScanMs: { label: 'search: full scan', unit: 'ms' },
  largestTranscriptFirstPageMs: { label: 'open largest transcript: first page', unit: 'ms' },
  largestTranscriptSecondOpenMs: { label: 'open largest transcript again: first page', unit: 'ms' },
  largestTranscriptUsageMs: { label: 'largest transcript: usage chart (turn by turn), first ask', unit: 'ms' },
  largestTranscriptFindMs: { label: 'largest transcript: find a text it does not hold', unit: 'ms' },
  largestTranscriptAfterFirstStartMs: { label: 'open largest transcript after the first start: first page', unit: 'ms' },
  largestTranscriptViewerAfterFirstStartMs: {
    label: 'open largest transcript after the first start, through the viewer’s requests: first page',
    unit: 'ms',
  },
  cliTranscriptFirstByteMs: { label: 'ccmem transcript <small session>: first byte', unit: 'ms' },
  cliSearchOneShotMs: { label: 'ccmem search, one-shot, text found nowhere', unit: 'ms' },
  grepSearchMs: { label: 'grep -r -F, the same text over the config root', unit: 'ms' },
  cliSearchToGrepRatio: { label: 'ccmem search time / grep time', unit: 'ratio' },
  appendToChangeEventP50Ms: { label: 'append to change event, p50', unit: 'ms' },
  appendToChangeEventP95Ms: { label: 'append to change event, p95', unit: 'ms' },
  appendToSessionUpdateP50Ms: { label: 'append to sessionUpdated, p50', unit: 'ms' },
  appendToSessionUpdateP95Ms: { label: 'append to sessionUpdated, p95', unit: 'ms' },
  historyReconstructionSeconds: { label: 'history reconstruction, empty data', unit: 's' },
  historyReconstructionMBps: { label: 'history reconstruction throughput', unit: 'MB/s' },
  historyReconstructionPeakRssMB: { label: 'history reconstruction peak RSS', unit: 'MB' },
  doctorWarmMs: { label: 'doctor, 1,000 topic files (warm)', unit: 'ms' },
  doctorColdMs: { label: 'doctor, 1,000 topic files (cold)', unit: 'ms' },
  memoryReviewColdMs: { label: 'memory review, 1,000 topic files (cold)', unit: 'ms' },
  memoryReviewWarmMs: { label: 'memory review, 1,000 topic files (warm)', unit: 'ms' },
  enginePeakRssMB: { label: 'engine peak RSS (first start)', unit: 'MB' },
  engineBackgroundPeakRssMB: { label: 'engine peak RSS (first start and the background work after it)', unit: 'MB' },
  servePeakRssMB: { label: 'ccmem serve peak RSS (first start and the background work after it)', unit: 'MB' },
  catalogBuildPeakRssMB: { label: 'catalog cold build peak RSS', unit: 'MB' },
  dreamGateCheckMeanMs: { label: 'reviewed-dream gate check per session change, mean', unit: 'ms' },
  dreamGateCheckP99Ms: { label: 'reviewed-dream gate check per session change, p99', unit: 'ms' },
  projectDiscoveryColdMs: { label: 'project discovery, cold', unit: 'ms' },
  projectDiscoveryWarmMs: { label: 'project discovery, warm', unit: 'ms' },
  ceilingRawReadMBps: { label: 'ceiling: raw read (readSync, 1 MiB)', unit: 'MB/s' },
  ceilingJsonParseMBps: { label: 'ceiling: split + JSON.parse', unit: 'MB/s' },
  ceilingScanOneThreadMBps: { label: 'ceiling: catalog reading alone, one thread', unit: 'MB/s' },
  ceilingScanTwoThreadsMBps: { label: 'ceiling: catalog reading alone, two threads', unit: 'MB/s' },
  ceilingScanTwoThreadsCpuSeconds: { label: 'ceiling: catalog reading alone, two threads, CPU time', unit: 's' },
  archiveBuildSeconds: { label: 'transcript archive: first run', unit: 's' },
  archiveBuildMBps: { label: 'transcript archive: first run throughput', unit: 'MB/s' },
  archiveBuildCpuSeconds: { label: 'transcript archive: first run CPU time', unit: 's' },
  archiveCompressedMB: { label: 'transcript archive: size on disk', unit: 'MB' },
  archiveCompressedPercent: { label: 'transcript archive: size / transcripts', unit: '%' },
  archiveUpToDateMs: { label: 'transcript archive: run with nothing new', unit: 'ms' },
  codecBrotliMBps: { label: 'codec: brotli quality 1 (the archive’s)', unit: 'MB/s' },
  codecBrotliPercent: { label: 'codec: brotli quality 1, size', unit: '%' },
  codecGzip1MBps: { label: 'codec: gzip level 1', unit: 'MB/s' },
  codecGzip1Percent: { label: 'codec: gzip level 1, size', unit: '%' },
  codecGzip6MBps: { label: 'codec: gzip level 6', unit: 'MB/s' },
  codecGzip6Percent: { label: 'codec: gzip level 6, size', unit: '%' },
} as const satisfies Record<string, { label: string; unit: string }>;

export type FigureId = keyof typeof FIGURES;

export const FIGURE_IDS = Object.keys(FIGURES) as FigureId[];

/**
 * One figure in the results: `ok` with the median, min and max of its samples; `not-built` when the engine
 * part it measures does not exist yet; `failed` with the error; `skipped` when the run measured other groups
 * only (`--only`). Never a made-up number.
 */
export interface FigureResult {
  readonly label: string;
  readonly unit: string;
  readonly status: 'ok' | 'not-built' | 'failed' | 'skipped';
  readonly median: number | null;
  readonly min: number | null;
  readonly max: number | null;
  readonly samples: readonly number[];
  /** How it was measured, or why there is no number. */
  readonly note: string | null;
}
