import { builtinModules } from 'node:module';
import { defineConfig } from 'vite';

/**
 * Builds the catalog's scan worker into one self-contained file, out/worker/catalogScanWorker.mjs: a worker
 * thread cannot load the TypeScript sources, and in the packaged app the file is unpacked from the asar
 * (electron-builder.yml), where no package.json says it is a module, hence `.mjs`.
 */
export default defineConfig({
  // Everything in the one file: nothing beside the unpacked worker could resolve a package.
  ssr: { noExternal: true },
  build: {
    ssr: 'electron/core/catalog/scanWorkerMain.ts',
    outDir: 'out/worker',
    emptyOutDir: true,
    target: 'node20',
    rolldownOptions: {
      external: [...builtinModules, ...builtinModules.map((m) => `node:${m}`)],
      output: { format: 'es', entryFileNames: 'catalogScanWorker.mjs' },
    },
  },
});
