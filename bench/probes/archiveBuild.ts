import { SessionCatalog } from '../../electron/core/catalog/SessionCatalog';
import { candidatesFromCatalog } from '../../electron/core/history/archive/catalogCandidates';
import { TranscriptArchive } from '../../electron/core/history/archive/TranscriptArchive';
import { archiveDir } from '../../electron/core/history/archive/archiveDir';
import { serveProbe } from './probeProtocol';

export interface ArchiveBuildInput {
  readonly root: string;
  /** An empty app data folder: the archive's first run over the home. */
  readonly dataDir: string;
  /** The built catalog scan worker, as the app shells pass it. */
  readonly scanWorker: string;
}

export interface ArchiveBuildOutput {
  /** The first run: every session and sub-agent transcript compressed into the archive. */
  readonly seconds: number;
  /** CPU time of the whole process during that run (the engine's thread plus the thread pool's compression). */
  readonly cpuSeconds: number;
  readonly bytes: number;
  readonly compressedBytes: number;
  readonly files: number;
  /** A second run with nothing new: what every later run costs. */
  readonly upToDateMs: number;
}

/**
 * The archive as the engine runs it after the catalog's first build: the catalog is built first (not timed), then
 * the archive's first run over every transcript it lists, then a second run that finds nothing new.
 */
serveProbe<ArchiveBuildInput, ArchiveBuildOutput>(async ({ root, dataDir, scanWorker }) => {
  const archive = new TranscriptArchive(archiveDir(dataDir));
  const catalog = new SessionCatalog({ dataDir, roots: [root], scanWorker: { script: scanWorker }, archive });
  await catalog.build();
  const candidates = candidatesFromCatalog(catalog.transcriptFiles());
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const first = await archive.update(candidates);
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  if (first.cancelled) throw new Error('the archive run was cancelled');
  const again = performance.now();
  const second = await archive.update(candidatesFromCatalog(catalog.transcriptFiles()));
  const upToDateMs = performance.now() - again;
  if (second.filesArchived !== 0) throw new Error(`the second run archived ${second.filesArchived} files again`);
  const totals = archive.totals();
  await archive.dispose();
  await catalog.dispose();
  return {
    seconds,
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
    bytes: first.bytesArchived,
    compressedBytes: totals.compressedBytes,
    files: totals.files,
    upToDateMs,
  };
});
