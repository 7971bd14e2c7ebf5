import { createEngine, type Engine } from '../../electron/core/engine';

/**
 * The engine as the web shell creates it over one config root (read-only, no demo home), for the probes that time what
 * the app does: watching the home as the app does, or not, when a figure is one request's own cost.
 */
export function createWebShellEngine(options: {
  readonly root: string;
  readonly dataDir: string;
  readonly watch: boolean;
  /** The built catalog scan worker, as the app shells pass it. */
  readonly scanWorker?: string;
}): Promise<Engine> {
  return createEngine({
    roots: [{ path: options.root, source: 'CLAUDE_CONFIG_DIR' }],
    dataDir: options.dataDir,
    demoHomeSource: null,
    shell: 'web',
    readOnly: true,
    watch: options.watch,
    catalogScanWorker: options.scanWorker,
  });
}
