import { builtinModules } from 'node:module';
import { defineConfig } from 'vite';
import pkg from './package.json' with { type: 'json' };

const BUILTINS = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);
/**
 * Dependencies stay in node_modules, loaded as installed, except secretlint: every export masks secrets before its
 * first byte, and secretlint's core and rules (with the two packages they use) as some forty CommonJS files took about
 * 35 ms to resolve and load, a third of `ccmem transcript`'s first byte; bundled into the chunk that masks, about 5 ms.
 */
const LOADED_AS_INSTALLED = Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@secretlint/'));

function isExternal(id: string): boolean {
  return BUILTINS.has(id) || LOADED_AS_INSTALLED.some((name) => id === name || id.startsWith(`${name}/`));
}

/** Builds the `ccmem` command into out/cli for the installed package; a checkout runs it from source with tsx. */
export default defineConfig({
  // Everything is bundled unless `isExternal` says otherwise (an SSR build would leave every package in node_modules).
  ssr: { noExternal: true },
  build: {
    ssr: 'electron/cli/index.ts',
    outDir: 'out/cli',
    emptyOutDir: true,
    target: 'node20',
    rolldownOptions: {
      external: isExternal,
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
