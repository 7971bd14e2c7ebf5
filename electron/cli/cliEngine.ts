import { createEngine, type Engine, type EngineOptions } from '../core/engine';
import { bundledScanWorkerScript } from '../core/catalog/scanWorkerScript';
import { configRootsFromEnv } from '../core/layout/configRoots';
import { defaultDataDir } from '../core/home/dataDir';
import type { CliIo } from './cliIo';

/** The engine for one CLI command: the config roots and app data folder its environment names, nothing watched. */
export function createCliEngine(io: CliIo, options: { readonly readOnly: boolean; readonly llm?: EngineOptions['llm'] }): Promise<Engine> {
  return createEngine({
    roots: configRootsFromEnv(io.env),
    dataDir: defaultDataDir(io.env),
    demoHomeSource: null,
    shell: 'cli',
    readOnly: options.readOnly,
    watch: false,
    llm: options.llm,
    catalogScanWorker: bundledScanWorkerScript(import.meta.dirname),
  });
}
