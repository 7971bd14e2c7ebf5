import { createEngine } from '../../electron/core/engine';
import { peakRssMB, serveProbe } from './probeProtocol';

export interface EngineFirstStartInput {
  readonly root: string;
  /** An empty app data folder: the app's first start on this home. */
  readonly dataDir: string;
  /** The built catalog scan worker, as the app shells pass it. */
  readonly scanWorker: string;
}

export interface EngineFirstStartOutput {
  readonly peakRssMB: number;
  readonly sessions: number;
}

/**
 * The app's main process on its first start: the engine as the web shell creates it (watching the home),
 * the timeline's first request, and the full catalog build that follows. Its peak memory is the figure.
 */
serveProbe<EngineFirstStartInput, EngineFirstStartOutput>(async ({ root, dataDir, scanWorker }) => {
  const engine = await createEngine({
    roots: [{ path: root, source: 'CLAUDE_CONFIG_DIR' }],
    dataDir,
    demoHomeSource: null,
    shell: 'web',
    readOnly: true,
    watch: true,
    catalogScanWorker: scanWorker,
  });
  await engine.handlers.getSessionCatalog({});
  const built = await engine.catalog.buildNow();
  const output = { peakRssMB: peakRssMB(), sessions: built.sessions };
  // The archive's first run follows the build; letting it finish (outside the figure) leaves the later probes' copies of
  // this app data a complete archive, as a running app would have.
  await engine.archive.bringUpToDate();
  // So are the big transcripts' saved line indexes, which the keeper writes after each build.
  await engine.lineIndexes.bringUpToDate();
  // The probe process ends as soon as it has answered; teardown is no part of the figure.
  void engine.dispose();
  return output;
});
