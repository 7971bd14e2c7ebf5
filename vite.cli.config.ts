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
      output: { format: 'es', entryFileNames: 'index.js', banner: '#!/usr/bin/env node' },
    },
  },
});
