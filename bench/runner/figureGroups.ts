import { join } from 'node:path';
import { SAVED_INDEX_DEFAULTS, SAVED_LINE_INDEX_FOLDER } from '../../electron/core/transcripts/savedLineIndexes';
import type { GeneratedHome } from '../generator/generateHome';
import type { AppendInput, AppendOutput } from '../probes/append';
import type { ArchiveBuildInput, ArchiveBuildOutput } from '../probes/archiveBuild';
import type { ArchiveCodecsInput, ArchiveCodecsOutput } from '../probes/archiveCodecs';
import type { CatalogBuildInput, CatalogBuildOutput } from '../probes/catalogBuild';
import type { WarmStartInput, WarmStartOutput } from '../probes/catalogWarmStart';
import type { ColdFirstPageInput, ColdFirstPageOutput } from '../probes/coldFirstPage';
import type { TranscriptViewerOpenInput, TranscriptViewerOpenOutput } from '../probes/transcriptViewerOpen';
import type { CeilingsInput, CeilingsOutput } from '../probes/ceilings';
import type { ScanCeilingInput, ScanCeilingOutput } from '../probes/scanCeiling';
import type { DiscoveryInput, DiscoveryOutput } from '../probes/discovery';
import type { DoctorInput, DoctorOutput } from '../probes/doctor';
import type { MemoryReviewInput, MemoryReviewOutput } from '../probes/memoryReview';
import type { DreamGateCheckInput, DreamGateCheckOutput } from '../probes/dreamGateCheck';
import type { HistoryReconstructionInput, HistoryReconstructionOutput } from '../probes/historyReconstruction';
import type { EngineFirstStartInput, EngineFirstStartOutput } from '../probes/engineFirstStart';
import type { SearchInput, SearchOutput } from '../probes/search';
import type { TranscriptOpenInput, TranscriptOpenOutput } from '../probes/transcriptOpen';
import { statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { isUuid } from '../../shared/claude/sessionIds';
import { runCcusageSession } from './ccusageRun';
import { withCpuCompetitor } from './cpuCompetitor';
import type { FigureId } from './figures';
import { runProbe } from './runProbe';
import { measureServeFirstStart } from './serveFirstStart';
import { percentile } from './sampleStats';
import { timeCommand } from './timedCommand';

/** What every measurement needs: the generated home and a place for app data. */
export interface BenchContext {
  readonly home: GeneratedHome;
  /** Every transcript file (sessions and sub-agents): what the catalog, ccusage and the ceilings read. */
  readonly jsonlFiles: readonly string[];
  readonly jsonlBytes: number;
  /** The catalog scan worker, built for this run (the probes run the engine from source, the worker only bundled). */
  readonly scanWorker: string;
  /** A new, empty app data folder for one probe. */
  newDataDir(label: string): string;
  /** A new app data folder holding a copy of what the app's first start saved: catalog, discovery (probes may change theirs). */
  savedAppDataCopy(label: string): string;
  /** Called by the app's first start with its app data folder; the first one is kept for the copies. */
  keepAppData(dataDir: string): void;
  /** The `ccmem` command as the package installs it (out/cli/index.js), built for this run on first use. */
  builtCli(): Promise<string>;
}

export type Samples = Partial<Record<FigureId, number>>;

/** Figures measured together, one run at a time; each run in new processes. */
export interface FigureGroup {
  readonly name: string;
  readonly figures: readonly FigureId[];
  /** How the group's figures are measured, for the results' notes. */
  readonly note: string;
  measure(context: BenchContext, run: number): Promise<Samples>;
}

/** The transcript viewer's page size (renderer `transcriptStore` PAGE_SIZE). */
const VIEWER_PAGE_ROWS = 100;
/** A text no generated file contains: the search must read everything to be sure. */
const ABSENT_TEXT = 'zx-no-such-text-qv';
const APPENDS_PER_RUN = 20;
const GATE_CHECK_EVENTS = 5_000;
/** Transcript bytes each codec compresses for the codec figures: enough for steady figures, quick on any home. */
const CODEC_SAMPLE_BYTES = 64 * 1024 * 1024;
const APPEND_INTERVAL_MS = 150;

/** The id of the smallest session transcript (`projects/<slug>/<uuid>.jsonl`, sub-agents aside): a one-shot read of a small session. */
function smallestSessionId(jsonlFiles: readonly string[]): string {
  let smallest: { id: string; bytes: number } | null = null;
  for (const file of jsonlFiles) {
    const id = basename(file, '.jsonl');
    if (!isUuid(id) || basename(dirname(dirname(file))) !== 'projects') continue;
    const bytes = statSync(file).size;
    if (bytes > 0 && (smallest === null || bytes < smallest.bytes)) smallest = { id, bytes };
  }
  if (!smallest) throw new Error('the home has no session transcript');
  return smallest.id;
}

export const FIGURE_GROUPS: readonly FigureGroup[] = [
  {
    name: 'ceilings',
    figures: ['ceilingRawReadMBps', 'ceilingJsonParseMBps'],
    note: 'every session and sub-agent JSONL file, read with readSync into one 1 MiB buffer; then lines cut and JSON.parse’d (UTF-8 decoding included), in a new process',
    async measure(context) {
      const output = await runProbe<CeilingsInput, CeilingsOutput>('ceilings', { files: context.jsonlFiles });
      return { ceilingRawReadMBps: output.rawReadMBps, ceilingJsonParseMBps: output.jsonParseMBps };
    },
  },
  {
    name: 'scan ceiling',
    figures: ['ceilingScanOneThreadMBps', 'ceilingScanTwoThreadsMBps', 'ceilingScanTwoThreadsCpuSeconds'],
    note: 'every session and sub-agent JSONL file read from its start by the catalog’s reader, line scanner and aggregate, biggest first, in a new process: on its one thread, then (in another new process) shared with the scan worker through the build’s queue; nothing else a build does (no discovery, cache, session records or saved states); CPU = process.cpuUsage() over the two-thread run',
    async measure(context) {
      const input = (scanWorker: string | null): ScanCeilingInput => ({ root: context.home.root, files: context.jsonlFiles, scanWorker });
      const one = await runProbe<ScanCeilingInput, ScanCeilingOutput>('scanCeiling', input(null));
      const two = await runProbe<ScanCeilingInput, ScanCeilingOutput>('scanCeiling', input(context.scanWorker));
      return {
        ceilingScanOneThreadMBps: one.bytes / 1e6 / one.seconds,
        ceilingScanTwoThreadsMBps: two.bytes / 1e6 / two.seconds,
        ceilingScanTwoThreadsCpuSeconds: two.cpuSeconds,
      };
    },
  },
  {
    name: 'project discovery',
    figures: ['projectDiscoveryColdMs', 'projectDiscoveryWarmMs'],
    note: 'HomeService.getHome() in a new process (cold), then refresh() reusing its session cache (warm)',
    async measure(context) {
      const output = await runProbe<DiscoveryInput, DiscoveryOutput>('discovery', {
        root: context.home.root,
        dataDir: context.newDataDir('discovery'),
      });
      return { projectDiscoveryColdMs: output.coldMs, projectDiscoveryWarmMs: output.warmMs };
    },
  },
  {
    name: 'ccusage',
    figures: ['ccusageSessionSeconds'],
    note: 'ccusage 17.2.1 `session --json --offline` with CLAUDE_CONFIG_DIR set to the home, from spawn to exit',
    async measure(context) {
      return { ccusageSessionSeconds: (await runCcusageSession(context.home.root)).seconds };
    },
  },
  {
    name: 'catalog cold build',
    figures: ['catalogColdBuildSeconds', 'catalogColdBuildMBps', 'catalogColdBuildCpuSeconds', 'catalogBuildPeakRssMB'],
    note: 'SessionCatalog.build() in a new process with an empty app data folder, with the scan worker as the app shells pass it; MB/s over all JSONL bytes; CPU = process.cpuUsage() over the build (every thread); RSS = that process’s peak (process.resourceUsage().maxRSS)',
    async measure(context) {
      const dataDir = context.newDataDir('catalog');
      const output = await runProbe<CatalogBuildInput, CatalogBuildOutput>('catalogBuild', {
        root: context.home.root,
        dataDir,
        scanWorker: context.scanWorker,
      });
      return {
        catalogColdBuildSeconds: output.seconds,
        catalogColdBuildMBps: context.jsonlBytes / 1e6 / output.seconds,
        catalogColdBuildCpuSeconds: output.cpuSeconds,
        catalogBuildPeakRssMB: output.peakRssMB,
      };
    },
  },
  {
    name: 'busy machine',
    figures: ['ccusageSessionBusySeconds', 'catalogColdBuildBusySeconds', 'catalogColdBuildBusyMBps', 'catalogToCcusageBusyRatio'],
    note: 'ccusage, then the catalog cold build (each as above), both while another process spins one core at 100 % (a CPU-bound competitor, as another program building or indexing would); ratio run by run',
    async measure(context) {
      return withCpuCompetitor(async () => {
        const ccusage = await runCcusageSession(context.home.root);
        const output = await runProbe<CatalogBuildInput, CatalogBuildOutput>('catalogBuild', {
          root: context.home.root,
          dataDir: context.newDataDir('catalog-busy'),
          scanWorker: context.scanWorker,
        });
        return {
          ccusageSessionBusySeconds: ccusage.seconds,
          catalogColdBuildBusySeconds: output.seconds,
          catalogColdBuildBusyMBps: context.jsonlBytes / 1e6 / output.seconds,
          catalogToCcusageBusyRatio: output.seconds / ccusage.seconds,
        };
      });
    },
  },
  {
    name: 'engine first start',
    figures: ['enginePeakRssMB', 'engineBackgroundPeakRssMB'],
    note: 'the peak RSS (process.resourceUsage().maxRSS) of a new process running createEngine as the web shell does (watching the home), getSessionCatalog({}) and the full catalog build that follows, empty app data; then again once the background work that follows the build (the saved line indexes of the big transcripts, then the archive’s first run) is done',
    async measure(context) {
      const dataDir = context.newDataDir('engine');
      const output = await runProbe<EngineFirstStartInput, EngineFirstStartOutput>('engineFirstStart', {
        root: context.home.root,
        dataDir,
        scanWorker: context.scanWorker,
      });
      context.keepAppData(dataDir);
      return { enginePeakRssMB: output.peakRssMB, engineBackgroundPeakRssMB: output.peakRssWithBackgroundMB };
    },
  },
  {
    name: 'serve first start',
    figures: ['servePeakRssMB'],
    note: 'the built `ccmem serve --port 0` (out/cli/index.js, as installed) with an empty app data folder, as a user starts it: a WebSocket client asks getHome and the timeline’s first page as the page does, then getArchiveStatus every 250 ms until the archive’s first run is done (it follows the catalog build and the saved line indexes); the figure is the serving process’s VmHWM then (on Linux the process `ccmem serve` starts with glibc’s mmap threshold fixed, see allocatorRelaunch.ts)',
    async measure(context) {
      const output = await measureServeFirstStart({
        cli: await context.builtCli(),
        root: context.home.root,
        dataDir: context.newDataDir('serve'),
      });
      return { servePeakRssMB: output.peakRssMB };
    },
  },
  {
    name: 'cold first page',
    figures: ['coldStartFirstPageMs', 'coldStartWholeHomeMs', 'coldStartAskedLateFirstPageMs'],
    note: 'a new process with an empty app data folder: createEngine as the web shell does (watching the home), getHome({}), then getSessionCatalog({}) with the sessionUpdated events applied on top as the timeline’s store does; first page = the projects list and every session of the project the UI opens on (the first listed) in the timeline; whole list = the homeChanged that ends the streamed discovery; asked once the home is found = another new process whose window asks only after the whole home is found (`ccmem serve` with the browser opened later), timed from that ask',
    async measure(context) {
      const atOnce = await runProbe<ColdFirstPageInput, ColdFirstPageOutput>('coldFirstPage', {
        root: context.home.root,
        dataDir: context.newDataDir('cold-first-page'),
        scanWorker: context.scanWorker,
        ask: 'at-once',
      });
      const askedLate = await runProbe<ColdFirstPageInput, ColdFirstPageOutput>('coldFirstPage', {
        root: context.home.root,
        dataDir: context.newDataDir('cold-first-page-asked-late'),
        scanWorker: context.scanWorker,
        ask: 'after-discovery',
      });
      return {
        coldStartFirstPageMs: atOnce.firstPageMs,
        coldStartWholeHomeMs: atOnce.wholeHomeMs,
        coldStartAskedLateFirstPageMs: askedLate.askedToFirstPageMs,
      };
    },
  },
  {
    name: 'warm start',
    figures: ['warmStartFirstPageMs', 'warmStartListingMs'],
    note: 'a new process with a copy of the app data the first start saved: createEngine as the web shell does (watching the home), then getHome({}) and getSessionCatalog({}), the two requests the UI makes before it shows the timeline',
    async measure(context) {
      const output = await runProbe<WarmStartInput, WarmStartOutput>('catalogWarmStart', {
        root: context.home.root,
        dataDir: context.savedAppDataCopy('warm-start'),
        scanWorker: context.scanWorker,
      });
      return { warmStartFirstPageMs: output.firstPageMs, warmStartListingMs: output.listingMs };
    },
  },
  {
    name: 'largest transcript after first start',
    figures: ['largestTranscriptAfterFirstStartMs', 'largestTranscriptViewerAfterFirstStartMs'],
    note: `TranscriptDocument.open() of the largest session file and readPage(0, ${VIEWER_PAGE_ROWS}) of its live branch, in a new process with the saved-index folder of a copy of the app data the first start left (its catalog build is followed by the saved line indexes of the big transcripts): the first time the user opens it; through the viewer's requests = the same open as the viewer asks it of a web shell engine over a copy of that app data: openTranscript (the outline, its sub-agents linked to their calls), then readTranscriptPage of ${VIEWER_PAGE_ROWS} rows`,
    async measure(context) {
      const output = await runProbe<TranscriptOpenInput, TranscriptOpenOutput>('transcriptOpen', {
        path: context.home.largestTranscript.path,
        pageRows: VIEWER_PAGE_ROWS,
        savedIndexDir: join(context.savedAppDataCopy('transcript-after-first-start'), SAVED_LINE_INDEX_FOLDER),
        findText: ABSENT_TEXT,
      });
      if (!output.fromSavedIndex && context.home.largestTranscript.bytes >= SAVED_INDEX_DEFAULTS.minFileBytes)
        throw new Error('the first start left no saved index of the largest transcript');
      const viewer = await runProbe<TranscriptViewerOpenInput, TranscriptViewerOpenOutput>('transcriptViewerOpen', {
        root: context.home.root,
        dataDir: context.savedAppDataCopy('transcript-viewer-after-first-start'),
        path: context.home.largestTranscript.path,
        pageRows: VIEWER_PAGE_ROWS,
      });
      return { largestTranscriptAfterFirstStartMs: output.firstPageMs, largestTranscriptViewerAfterFirstStartMs: viewer.firstPageMs };
    },
  },
  {
    name: 'search',
    figures: ['searchFirstHitMs', 'searchFirstHitNewestMs', 'searchFirstHitListingMs', 'searchFullScanMs'],
    note: 'HomeSearch in a new process after a warm-up search, its listing kept between searches and followed by a watcher as in the app; first hit of the planted word, then of a text at the start of the first file read (the newest); the planted word again with a search that lists afresh (the first search after start, a one-shot search); full scan = a text found nowhere, every transcript and memory file read',
    async measure(context) {
      const output = await runProbe<SearchInput, SearchOutput>('search', {
        root: context.home.root,
        needle: context.home.searchNeedle.text,
        absent: ABSENT_TEXT,
      });
      return {
        searchFirstHitMs: output.firstHitMs,
        searchFirstHitNewestMs: output.firstHitNewestMs,
        searchFirstHitListingMs: output.firstHitListingMs,
        searchFullScanMs: output.fullScanMs,
      };
    },
  },
  {
    name: 'largest transcript',
    figures: ['largestTranscriptFirstPageMs', 'largestTranscriptSecondOpenMs', 'largestTranscriptUsageMs', 'largestTranscriptFindMs'],
    note: `TranscriptDocument.open() of the largest session file and readPage(0, ${VIEWER_PAGE_ROWS}) of its live branch, in a new process with an empty saved-index folder (first page; the index is saved after the timed part), then in another new process with what that one saved (second open), where the usage chart's turnUsage() of the live branch is then timed as the side panel asks for it, and find(${ABSENT_TEXT}) over the live branch (every line read)`,
    async measure(context) {
      const input: TranscriptOpenInput = {
        path: context.home.largestTranscript.path,
        pageRows: VIEWER_PAGE_ROWS,
        savedIndexDir: join(context.newDataDir('transcript-index'), SAVED_LINE_INDEX_FOLDER),
        findText: ABSENT_TEXT,
      };
      const first = await runProbe<TranscriptOpenInput, TranscriptOpenOutput>('transcriptOpen', input);
      const second = await runProbe<TranscriptOpenInput, TranscriptOpenOutput>('transcriptOpen', input);
      // A transcript below the app's size threshold is not saved: its second open indexes it again, as the app's does.
      const saves = context.home.largestTranscript.bytes >= SAVED_INDEX_DEFAULTS.minFileBytes;
      if (first.fromSavedIndex || second.fromSavedIndex !== saves)
        throw new Error('the second open did not go on from the index the first saved');
      return {
        largestTranscriptFirstPageMs: first.firstPageMs,
        largestTranscriptSecondOpenMs: second.firstPageMs,
        largestTranscriptUsageMs: second.usageMs,
        largestTranscriptFindMs: second.findMs,
      };
    },
  },
  {
    name: 'one-shot cli',
    figures: ['cliTranscriptFirstByteMs', 'cliSearchOneShotMs', 'grepSearchMs', 'cliSearchToGrepRatio'],
    note: `the built ccmem (out/cli/index.js, as installed) in a new process with CLAUDE_CONFIG_DIR set to the home and an empty app data folder: \`ccmem transcript <id>\` of the smallest session, spawn to first stdout byte; \`ccmem search ${ABSENT_TEXT}\` (found nowhere, so every file is read) spawn to exit, and \`grep -r -F\` of the same text over the config root right after it; ratio run by run`,
    async measure(context) {
      const cli = await context.builtCli();
      const env = { CLAUDE_CONFIG_DIR: context.home.root, CCMEM_DATA_DIR: context.newDataDir('cli') };
      const transcript = await timeCommand(process.execPath, [cli, 'transcript', smallestSessionId(context.jsonlFiles)], env);
      if (transcript.firstByteMs === null) throw new Error('ccmem transcript printed nothing');
      const search = await timeCommand(process.execPath, [cli, 'search', ABSENT_TEXT], env);
      const grep = await timeCommand('grep', ['-r', '-F', ABSENT_TEXT, context.home.root], {}, [1]);
      return {
        cliTranscriptFirstByteMs: transcript.firstByteMs,
        cliSearchOneShotMs: search.totalMs,
        grepSearchMs: grep.totalMs,
        cliSearchToGrepRatio: search.totalMs / grep.totalMs,
      };
    },
  },
  {
    name: 'history reconstruction',
    figures: ['historyReconstructionSeconds', 'historyReconstructionMBps', 'historyReconstructionPeakRssMB'],
    note: 'HistoryService.recordNow() in a new process with an empty app data folder, as `ccmem history` runs it: the first look at every memory folder, then every transcript read for memory evidence and every memory file’s version chain built; MB/s over all JSONL bytes; RSS = that process’s peak',
    async measure(context) {
      const output = await runProbe<HistoryReconstructionInput, HistoryReconstructionOutput>('historyReconstruction', {
        root: context.home.root,
        dataDir: context.newDataDir('history'),
      });
      return {
        historyReconstructionSeconds: output.seconds,
        historyReconstructionMBps: context.jsonlBytes / 1e6 / output.seconds,
        historyReconstructionPeakRssMB: output.peakRssMB,
      };
    },
  },
  {
    name: 'doctor',
    figures: ['doctorWarmMs', 'doctorColdMs'],
    note: 'runDoctor() for the project with 1,000 topic files in a new process: first run (cold), second run with the same analyzer (warm)',
    async measure(context) {
      const output = await runProbe<DoctorInput, DoctorOutput>('doctor', {
        root: context.home.root,
        dataDir: context.newDataDir('doctor'),
        slug: context.home.doctorProject.slug,
      });
      return { doctorWarmMs: output.warmMs, doctorColdMs: output.coldMs };
    },
  },
  {
    name: 'memory review',
    figures: ['memoryReviewColdMs', 'memoryReviewWarmMs'],
    note: 'the Memory page’s request, getMemoryReview, through the engine’s request handlers for the project with 1,000 topic files: first in a new process with empty app data (cold, after getHome), then again (warm); the engine does not watch the home, so the first start’s background work is not in the figure',
    async measure(context) {
      const output = await runProbe<MemoryReviewInput, MemoryReviewOutput>('memoryReview', {
        root: context.home.root,
        dataDir: context.newDataDir('memory-review'),
        slug: context.home.doctorProject.slug,
      });
      return { memoryReviewColdMs: output.coldMs, memoryReviewWarmMs: output.warmMs };
    },
  },
  {
    name: 'reviewed-dream gate check',
    figures: ['dreamGateCheckMeanMs', 'dreamGateCheckP99Ms'],
    note: `BackgroundJobScheduler.sessionsChanged() in a new process, reviewed dreams on for every project and automatic extraction on, after the gates were read once: ${GATE_CHECK_EVENTS} session changes (one session growing each), the synchronous part of each timed; mean and p99 per change`,
    async measure(context) {
      const output = await runProbe<DreamGateCheckInput, DreamGateCheckOutput>('dreamGateCheck', {
        root: context.home.root,
        dataDir: context.newDataDir('dream-gate'),
        events: GATE_CHECK_EVENTS,
      });
      return { dreamGateCheckMeanMs: output.meanMs, dreamGateCheckP99Ms: output.p99Ms };
    },
  },
  {
    name: 'transcript archive',
    figures: [
      'archiveBuildSeconds',
      'archiveBuildMBps',
      'archiveBuildCpuSeconds',
      'archiveCompressedMB',
      'archiveCompressedPercent',
      'archiveUpToDateMs',
    ],
    note: 'in a new process with an empty app data folder: SessionCatalog.build() (not timed), then TranscriptArchive.update() over every transcript the catalog lists (its first run; MB/s over all JSONL bytes; CPU = process.cpuUsage() over the run, thread pool included), then a second update() that finds nothing new',
    async measure(context) {
      const output = await runProbe<ArchiveBuildInput, ArchiveBuildOutput>('archiveBuild', {
        root: context.home.root,
        dataDir: context.newDataDir('archive'),
        scanWorker: context.scanWorker,
      });
      return {
        archiveBuildSeconds: output.seconds,
        archiveBuildMBps: output.bytes / 1e6 / output.seconds,
        archiveBuildCpuSeconds: output.cpuSeconds,
        archiveCompressedMB: output.compressedBytes / 1e6,
        archiveCompressedPercent: (output.compressedBytes / output.bytes) * 100,
        archiveUpToDateMs: output.upToDateMs,
      };
    },
  },
  {
    name: 'archive codecs',
    figures: ['codecBrotliMBps', 'codecBrotliPercent', 'codecGzip1MBps', 'codecGzip1Percent', 'codecGzip6MBps', 'codecGzip6Percent'],
    note: `up to ${CODEC_SAMPLE_BYTES / 1024 / 1024} MiB of the home's transcripts in the archive's 1 MiB slices, compressed on one thread (zlib's sync calls) with each codec, in a new process; size = compressed / original`,
    async measure(context) {
      const output = await runProbe<ArchiveCodecsInput, ArchiveCodecsOutput>('archiveCodecs', {
        files: context.jsonlFiles,
        sampleBytes: CODEC_SAMPLE_BYTES,
      });
      return {
        codecBrotliMBps: output.brotli.mbps,
        codecBrotliPercent: output.brotli.percent,
        codecGzip1MBps: output.gzip1.mbps,
        codecGzip1Percent: output.gzip1.percent,
        codecGzip6MBps: output.gzip6.mbps,
        codecGzip6Percent: output.gzip6.percent,
      };
    },
  },
  {
    // Last: it appends to a session, so every other figure sees the home exactly as generated.
    name: 'append',
    figures: ['appendToChangeEventP50Ms', 'appendToChangeEventP95Ms', 'appendToSessionUpdateP50Ms', 'appendToSessionUpdateP95Ms'],
    note: `createEngine as the web shell does, catalog current; another process appends ${APPENDS_PER_RUN} lines ${APPEND_INTERVAL_MS} ms apart to a session; time from each write to engine.live.onDidChange for that file, and to the sessionUpdated event the shell forwards; p50/p95 per run`,
    async measure(context) {
      const target = context.home.appendTarget;
      const output = await runProbe<AppendInput, AppendOutput>('append', {
        root: context.home.root,
        dataDir: context.savedAppDataCopy('append'),
        scanWorker: context.scanWorker,
        path: target.path,
        sessionId: target.sessionId,
        cwd: target.cwd,
        appends: APPENDS_PER_RUN,
        intervalMs: APPEND_INTERVAL_MS,
      });
      return {
        appendToChangeEventP50Ms: percentile(output.changeEventMs, 0.5),
        appendToChangeEventP95Ms: percentile(output.changeEventMs, 0.95),
        appendToSessionUpdateP50Ms: percentile(output.sessionUpdatedMs, 0.5),
        appendToSessionUpdateP95Ms: percentile(output.sessionUpdatedMs, 0.95),
      };
    },
  },
];
