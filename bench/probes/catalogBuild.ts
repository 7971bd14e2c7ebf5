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
}

/** The catalog's first build over a home it has never seen, in a new process, as `SessionCatalog.build()` does it. */
serveProbe<CatalogBuildInput, CatalogBuildOutput>(async ({ root, dataDir, scanWorker }) => {
  const catalog = new SessionCatalog({ dataDir, roots: [root], scanWorker: { script: scanWorker } });
  const started = performance.now();
  const result = await catalog.build();
  const seconds = (performance.now() - started) / 1000;
  await catalog.dispose();
  if (result.cancelled) throw new Error('the catalog build was cancelled');
  return { seconds, bytesRead: result.bytesRead, filesRead: result.filesRead, sessions: result.sessions, peakRssMB: peakRssMB() };
});
