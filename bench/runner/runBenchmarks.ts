import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { generateHome, type GeneratedHome } from '../generator/generateHome';
import type { BenchSize } from '../generator/sizeProfiles';
import { FIGURE_GROUPS, type BenchContext } from './figureGroups';
import { FIGURE_IDS, FIGURES, type FigureId, type FigureResult } from './figures';
import { summarize } from './sampleStats';
import { buildScanWorker } from './scanWorkerBuild';
import { buildCli } from './cliBuild';
import { buildProbes } from './probeBuild';
import { useBuiltProbes } from './runProbe';

const RESULTS_SCHEMA = 1;

/** The page cache cannot be dropped here (no root `drop_caches`), so "cold" means new process and empty app data, never an empty OS cache. */
const CACHE_NOTE =
  'cold = a new process with an empty app data folder; the files themselves are in the OS page cache (just generated, and this machine cannot drop its caches), so no figure includes disk reads';

export interface BenchOptions {
  readonly size: BenchSize;
  readonly seed: number;
  /** Runs per figure; at least 3. */
  readonly runs: number;
  /** Where `<date>-<size>.json` is written. */
  readonly resultsDir: string;
  /** Progress lines (to stderr). */
  readonly log: (message: string) => void;
  /** Measure only the figure groups with these names (every group when absent). */
  readonly only?: readonly string[];
}

export interface BenchResults {
  readonly schema: typeof RESULTS_SCHEMA;
  readonly date: string;
  readonly size: BenchSize;
  readonly seed: number;
  readonly runs: number;
  readonly machine: {
    readonly cpuModel: string;
    readonly cpus: number;
    readonly totalMemoryMB: number;
    readonly node: string;
    readonly platform: string;
    /** 1-minute load average when the run started and ended: other work on the machine skews every figure. */
    readonly loadAverageStart: number;
    readonly loadAverageEnd: number;
  };
  readonly home: HomeFacts;
  readonly cacheNote: string;
  readonly figures: Record<FigureId, FigureResult>;
}

/** The generated home, without its (deleted) temporary paths. */
export interface HomeFacts {
  readonly generationSeconds: number;
  readonly generationMBps: number;
  readonly bytes: GeneratedHome['bytes'];
  readonly counts: GeneratedHome['counts'];
  /** Session and sub-agent transcripts: what the catalog, ccusage and the ceilings read. */
  readonly jsonlFiles: number;
  readonly jsonlBytes: number;
  readonly largestTranscriptBytes: number;
  readonly doctorTopicFiles: number;
  readonly searchNeedle: GeneratedHome['searchNeedle'];
}

/** Session and sub-agent transcripts: every `*.jsonl` under `projects/`. */
function transcriptFiles(root: string): { files: string[]; bytes: number } {
  const projects = join(root, 'projects');
  const files = (readdirSync(projects, { recursive: true, encoding: 'utf8' }) as string[])
    .filter((name) => name.endsWith('.jsonl'))
    .map((name) => join(projects, name))
    .sort();
  return { files, bytes: files.reduce((sum, file) => sum + statSync(file).size, 0) };
}

/** A missing engine module or export means the part is not built yet, which is not the same as broken. */
function isNotBuilt(error: unknown): boolean {
  const text = error instanceof Error ? error.message : String(error);
  return /ERR_MODULE_NOT_FOUND|Cannot find module|does not provide an export named|is not a constructor|is not a function/.test(text);
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0].slice(0, 300);
}

/** Generates the home, measures every figure `runs` times in new processes, writes the results file and returns it. */
export async function runBenchmarks(options: BenchOptions): Promise<{ results: BenchResults; resultsFile: string }> {
  const unknown = options.only?.filter((name) => !FIGURE_GROUPS.some((group) => group.name === name)) ?? [];
  if (unknown.length > 0)
    throw new Error(`no figure group named ${unknown.join(', ')}; groups: ${FIGURE_GROUPS.map((g) => g.name).join(', ')}`);
  const loadAverageStart = loadavg()[0];
  const workDir = mkdtempSync(join(tmpdir(), 'ccmem-bench-'));
  let removeProbes = (): void => undefined;
  // An interrupted run must not leave gigabytes behind in the temporary folder.
  const removeOnInterrupt = () => {
    removeProbes();
    rmSync(workDir, { recursive: true, force: true });
    process.exit(130);
  };
  process.once('SIGINT', removeOnInterrupt);
  try {
    options.log(`generating the ${options.size} home (seed ${options.seed})…`);
    const home = await generateHome({ size: options.size, out: join(workDir, 'home'), seed: options.seed });
    options.log(`  ${(home.bytes.total / 1e6).toFixed(0)} MB in ${home.seconds.toFixed(1)} s (${home.mbPerSecond.toFixed(0)} MB/s)`);
    const transcripts = transcriptFiles(home.root);
    const scanWorker = await buildScanWorker(join(workDir, 'worker'));
    const probes = await buildProbes();
    removeProbes = probes.remove;
    useBuiltProbes(probes.dir);
    let dataDirs = 0;
    let savedAppData: string | null = null;
    let cli: Promise<string> | null = null;
    const newDataDir = (label: string) => {
      const dir = join(workDir, `data-${label}-${++dataDirs}`);
      mkdirSync(dir);
      return dir;
    };
    const context: BenchContext = {
      home,
      jsonlFiles: transcripts.files,
      jsonlBytes: transcripts.bytes,
      scanWorker,
      newDataDir,
      savedAppDataCopy: (label) => {
        if (!savedAppData) throw new Error('no first start saved app data to start from');
        const dir = newDataDir(label);
        cpSync(savedAppData, dir, { recursive: true });
        return dir;
      },
      keepAppData: (dataDir) => {
        savedAppData ??= dataDir;
      },
      // Beside the scan worker, where the installed command finds it.
      builtCli: () => (cli ??= buildCli(workDir)),
    };
    const samples = new Map<FigureId, number[]>();
    const outcomes = new Map<FigureId, { status: FigureResult['status']; note: string }>();
    const skipped = { status: 'skipped' as const, note: 'not measured in this run (--only)' };
    for (const group of FIGURE_GROUPS) {
      if (options.only && !options.only.includes(group.name)) {
        for (const id of group.figures) outcomes.set(id, skipped);
        continue;
      }
      for (let run = 0; run < options.runs; run++) {
        options.log(`${group.name}: run ${run + 1} of ${options.runs}`);
        try {
          const measured = await group.measure(context, run);
          for (const [id, value] of Object.entries(measured) as [FigureId, number][]) samples.set(id, [...(samples.get(id) ?? []), value]);
        } catch (error) {
          const status = isNotBuilt(error) ? 'not-built' : 'failed';
          options.log(`  ${status}: ${error instanceof Error ? error.message : String(error)}`);
          for (const id of group.figures)
            outcomes.set(id, { status, note: status === 'not-built' ? 'n/a (not built yet)' : `failed: ${firstLine(error)}` });
          break;
        }
      }
      for (const id of group.figures) if (!outcomes.has(id)) outcomes.set(id, { status: 'ok', note: group.note });
    }
    const ours = samples.get('catalogColdBuildSeconds') ?? [];
    const theirs = samples.get('ccusageSessionSeconds') ?? [];
    if (ours.length === options.runs && theirs.length === options.runs) {
      samples.set(
        'catalogToCcusageRatio',
        ours.map((seconds, run) => seconds / theirs[run]),
      );
      outcomes.set('catalogToCcusageRatio', {
        status: 'ok',
        note: 'catalog cold build seconds / ccusage seconds, run by run (below 1: we are faster)',
      });
    } else if (outcomes.get('catalogColdBuildSeconds') === skipped || outcomes.get('ccusageSessionSeconds') === skipped) {
      outcomes.set('catalogToCcusageRatio', skipped);
    } else {
      const missing = [outcomes.get('catalogColdBuildSeconds'), outcomes.get('ccusageSessionSeconds')].find((o) => o?.status !== 'ok');
      outcomes.set('catalogToCcusageRatio', { status: missing?.status ?? 'failed', note: missing?.note ?? 'failed: runs missing' });
    }
    const figures = Object.fromEntries(
      FIGURE_IDS.map((id): [FigureId, FigureResult] => {
        const values = samples.get(id) ?? [];
        const outcome = outcomes.get(id) ?? { status: 'failed' as const, note: 'failed: not measured' };
        const ok = outcome.status === 'ok' && values.length > 0;
        const summary = ok ? summarize(values) : null;
        return [
          id,
          {
            ...FIGURES[id],
            status: ok ? 'ok' : outcome.status,
            median: summary?.median ?? null,
            min: summary?.min ?? null,
            max: summary?.max ?? null,
            samples: ok ? values : [],
            note: outcome.note,
          },
        ];
      }),
    ) as Record<FigureId, FigureResult>;
    const date = new Date().toISOString();
    const resultsFile = join(options.resultsDir, `${date.slice(0, 10)}-${options.size}.json`);
    const results: BenchResults = {
      schema: RESULTS_SCHEMA,
      date,
      size: options.size,
      seed: options.seed,
      runs: options.runs,
      machine: {
        cpuModel: cpus()[0]?.model ?? 'unknown',
        cpus: cpus().length,
        totalMemoryMB: Math.round(totalmem() / 1e6),
        node: process.version,
        platform: process.platform,
        loadAverageStart,
        loadAverageEnd: loadavg()[0],
      },
      home: {
        generationSeconds: home.seconds,
        generationMBps: home.mbPerSecond,
        bytes: home.bytes,
        counts: home.counts,
        jsonlFiles: transcripts.files.length,
        jsonlBytes: transcripts.bytes,
        largestTranscriptBytes: home.largestTranscript.bytes,
        doctorTopicFiles: home.doctorProject.topicFiles,
        searchNeedle: home.searchNeedle,
      },
      cacheNote: CACHE_NOTE,
      figures,
    };
    mkdirSync(options.resultsDir, { recursive: true });
    writeFileSync(resultsFile, `${JSON.stringify(results, null, 2)}\n`);
    return { results, resultsFile };
  } finally {
    process.off('SIGINT', removeOnInterrupt);
    removeProbes();
    rmSync(workDir, { recursive: true, force: true });
  }
}
