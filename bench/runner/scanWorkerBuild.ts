import { join } from 'node:path';
import { build } from 'vite';
import { SCAN_WORKER_FILE } from '../../electron/core/catalog/scanWorkerScript';

const REPO_ROOT = join(import.meta.dirname, '..', '..');

/**
 * Builds the catalog's scan worker with the app's own config (vite.worker.config.ts) into `outDir` and returns
 * the script's path: the benchmarks and tests run the engine from source, but its worker only runs bundled.
 */
export async function buildScanWorker(outDir: string): Promise<string> {
  await build({ root: REPO_ROOT, configFile: join(REPO_ROOT, 'vite.worker.config.ts'), logLevel: 'silent', build: { outDir } });
  return join(outDir, SCAN_WORKER_FILE);
}
