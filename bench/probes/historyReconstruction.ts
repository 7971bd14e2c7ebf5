import { join } from 'node:path';
import { ChangeSetWriter } from '../../electron/core/changes/changeSetWriter';
import { HistoryService } from '../../electron/core/history/HistoryService';
import { HistoryStore } from '../../electron/core/changes/HistoryStore';
import { HomeService } from '../../electron/core/home/HomeService';
import { peakRssMB, serveProbe } from './probeProtocol';

export interface HistoryReconstructionInput {
  readonly root: string;
  /** An empty app data folder: no history, no evidence read before, so every transcript is read. */
  readonly dataDir: string;
}

export interface HistoryReconstructionOutput {
  readonly seconds: number;
  readonly bytesRead: number;
  readonly transcriptsRead: number;
  readonly versions: number;
  readonly changeSets: number;
  readonly peakRssMB: number;
}

/**
 * A first run's history over a home it has never seen, as `ccmem history` does it: the first look at every
 * memory folder, then the reconstruction of what came before from every transcript, in a new process.
 */
serveProbe<HistoryReconstructionInput, HistoryReconstructionOutput>(async ({ root, dataDir }) => {
  const home = new HomeService({
    roots: [{ path: root, source: 'CLAUDE_CONFIG_DIR' }],
    dataDir,
    demoHomeSource: null,
    shell: 'cli',
    readOnly: true,
  });
  const historyDir = join(dataDir, 'history');
  const store = new HistoryStore(historyDir);
  const history = new HistoryService({ home, store, historyDir, live: null, writer: new ChangeSetWriter({ history: store }) });
  const started = performance.now();
  await history.recordNow();
  const seconds = (performance.now() - started) / 1000;
  const { reconstruction } = await history.status();
  await history.dispose();
  home.dispose();
  if (reconstruction.state !== 'done') throw new Error(`the reconstruction ended ${reconstruction.state}: ${reconstruction.error ?? ''}`);
  return {
    seconds,
    bytesRead: reconstruction.bytesRead,
    transcriptsRead: reconstruction.transcriptsRead,
    versions: reconstruction.versionCount,
    changeSets: reconstruction.changeSetCount,
    peakRssMB: peakRssMB(),
  };
});
