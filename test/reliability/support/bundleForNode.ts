import { basename, dirname } from 'node:path';
import { build } from 'vite';

/**
 * Bundles a TypeScript entry (and what it imports from the app) into one plain JavaScript file, so a child
 * process that is killed and restarted many times costs a Node start each time and no TypeScript compile.
 */
export async function bundleForNode(entry: string, outFile: string): Promise<void> {
  await build({
    configFile: false,
    logLevel: 'silent',
    build: {
      ssr: entry,
      outDir: dirname(outFile),
      emptyOutDir: true,
      minify: false,
      rolldownOptions: { output: { entryFileNames: basename(outFile) } },
    },
  });
}
