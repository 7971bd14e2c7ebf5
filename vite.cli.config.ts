import { builtinModules } from 'node:module';
import { defineConfig } from 'vite';
import pkg from './package.json' with { type: 'json' };

/** Builds the `ccmem` command into out/cli for the installed package; a checkout runs it from source with tsx. */
export default defineConfig({
  build: {
    ssr: 'electron/cli/index.ts',
    outDir: 'out/cli',
    emptyOutDir: true,
    target: 'node20',
    rolldownOptions: {
      external: [...builtinModules, ...builtinModules.map((m) => `node:${m}`), ...Object.keys(pkg.dependencies)],
      // Each command is a chunk of its own (electron/cli/main.ts loads it when run), beside index.js: the commands
      // find the scan worker and the app root from their own folder (import.meta.dirname).
      output: {
        format: 'es',
        entryFileNames: 'index.js',
        chunkFileNames: '[name]-[hash].js',
        banner: (chunk) => (chunk.isEntry ? '#!/usr/bin/env node' : ''),
      },
    },
  },
});
