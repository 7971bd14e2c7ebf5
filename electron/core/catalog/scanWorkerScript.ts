import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** The file vite.worker.config.ts writes into out/worker. */
export const SCAN_WORKER_FILE = 'catalogScanWorker.mjs';

/**
 * The built scan worker beside the bundle that is running (out/main or out/cli, next to out/worker), or null
 * when the engine runs from its TypeScript sources, which have no such file beside them. In a packaged app
 * the bundles run from app.asar and the worker from its unpacked copy (electron-builder.yml's asarUnpack).
 */
export function bundledScanWorkerScript(bundleDir: string): string | null {
  const script = join(bundleDir, '..', 'worker', SCAN_WORKER_FILE).replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2');
  return existsSync(script) ? script : null;
}
