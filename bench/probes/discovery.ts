import { HomeService } from '../../electron/core/home/HomeService';
import { peakRssMB, serveProbe } from './probeProtocol';

export interface DiscoveryInput {
  readonly root: string;
  readonly dataDir: string;
}

export interface DiscoveryOutput {
  readonly coldMs: number;
  readonly warmMs: number;
  readonly projects: number;
  readonly sessions: number;
  readonly peakRssMB: number;
}

/** Project discovery as every shell starts it: `getHome()` in a new process, then a `refresh()` that reuses the session cache. */
serveProbe<DiscoveryInput, DiscoveryOutput>(async ({ root, dataDir }) => {
  const home = new HomeService({
    roots: [{ path: root, source: 'CLAUDE_CONFIG_DIR' }],
    dataDir,
    demoHomeSource: null,
    shell: 'cli',
    readOnly: true,
  });
  const coldStarted = performance.now();
  const snapshot = await home.getHome();
  const coldMs = performance.now() - coldStarted;
  const warmStarted = performance.now();
  await home.refresh();
  const warmMs = performance.now() - warmStarted;
  home.dispose();
  return {
    coldMs,
    warmMs,
    projects: snapshot.projects.length,
    sessions: snapshot.projects.reduce((sum, p) => sum + p.sessionCount, 0),
    peakRssMB: peakRssMB(),
  };
});
