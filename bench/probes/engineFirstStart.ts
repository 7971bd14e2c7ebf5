import { createWebShellEngine } from './webShellEngine';
import { peakRssMB, serveProbe } from './probeProtocol';

export interface EngineFirstStartInput {
  readonly root: string;
  /** An empty app data folder: the app's first start on this home. */
  readonly dataDir: string;
  /** The built catalog scan worker, as the app shells pass it. */
  readonly scanWorker: string;
}

export interface EngineFirstStartOutput {
  /** Up to the end of the catalog build. */
  readonly peakRssMB: number;
  /** Up to the end of the background work that follows the build (the saved line indexes, the archive's first run). */
  readonly peakRssWithBackgroundMB: number;
  readonly sessions: number;
}

/**
 * The app's main process on its first start: the engine as the web shell creates it (watching the home),
 * the timeline's first request and the full catalog build that follows (the first figure), then the background work
 * that follows the build (the second).
 */
serveProbe<EngineFirstStartInput, EngineFirstStartOutput>(async ({ root, dataDir, scanWorker }) => {
  const engine = await createWebShellEngine({ root, dataDir, watch: true, scanWorker });
  await engine.handlers.getSessionCatalog({});
  const built = await engine.catalog.buildNow();
  const peakAfterBuild = peakRssMB();
  // What follows the build in the background: the big transcripts' saved line indexes, then the archive's first run
  // (which waits for them). Letting them finish also leaves the later probes' copies of this app data what a running
  // app would have.
  await engine.lineIndexes.bringUpToDate();
  await engine.archive.bringUpToDate();
  const output = { peakRssMB: peakAfterBuild, peakRssWithBackgroundMB: peakRssMB(), sessions: built.sessions };
  // The probe process ends as soon as it has answered; teardown is no part of the figure.
  void engine.dispose();
  return output;
});
