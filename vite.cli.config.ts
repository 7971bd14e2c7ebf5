import { builtinModules } from 'node:module';
import { defineConfig } from 'vite';
import pkg from './package.json' with { type: 'json' };

const BUILTINS = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);
/**
 * Dependencies stay in node_modules, loaded as installed, except the two every transcript export loads before its
 * first byte, which are bundled into the chunks that use them:
 * - secretlint (every export masks secrets first): its core and rules (with the two packages they use) as some forty
 *   CommonJS files took about 35 ms to resolve and load, a third of `ccmem transcript`'s first byte; bundled, about 5 ms.
 * - diff (the transcript reader shows file edits as patches): its ES module build is twenty files, read one import
 *   level at a time, about 20 ms of the first byte's 107 ms on the medium home.
 */
const BUNDLED = (name: string): boolean => name.startsWith('@secretlint/') || name === 'diff';
const LOADED_AS_INSTALLED = Object.keys(pkg.dependencies).filter((name) => !BUNDLED(name));

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
