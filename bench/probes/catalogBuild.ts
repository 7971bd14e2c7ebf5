import { SessionCatalog } from '../../electron/core/catalog/SessionCatalog';
import { peakRssMB, serveProbe } from './probeProtocol';

export interface CatalogBuildInput {
  readonly root: string;
  /** An empty app data folder: nothing cached, so every transcript is read. */
  readonly dataDir: string;
  /** The built catalog scan worker, as the app shells pass it. */
  readonly scanWorker: string;
}

export interface CatalogBuildOutput {
  readonly seconds: number;
  readonly bytesRead: number;
  readonly filesRead: number;
  readonly sessions: number;
  readonly peakRssMB: number;
  /** CPU time of the whole process over the build (both threads, the garbage collector's and the thread pool's). */
  readonly cpuSeconds: number;
}

/** The catalog's first build over a home it has never seen, in a new process, as `SessionCatalog.build()` does it. */
serveProbe<CatalogBuildInput, CatalogBuildOutput>(async ({ root, dataDir, scanWorker }) => {
  const catalog = new SessionCatalog({ dataDir, roots: [root], scanWorker: { script: scanWorker } });
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const result = await catalog.build();
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  await catalog.dispose();
  if (result.cancelled) throw new Error('the catalog build was cancelled');
  return {
    seconds,
    bytesRead: result.bytesRead,
    filesRead: result.filesRead,
    sessions: result.sessions,
    peakRssMB: peakRssMB(),
    cpuSeconds: (cpu.user + cpu.system) / 1e6,
  };
});
