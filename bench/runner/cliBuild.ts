import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'vite';

const REPO_ROOT = join(import.meta.dirname, '..', '..');

/**
 * Builds the `ccmem` command with the app's own config (vite.cli.config.ts) into `<workDir>/cli`, laid out as the
 * installed package has it: the scan worker in `<workDir>/worker` beside it (the runner builds it there), the
 * dependencies resolved from a `node_modules` link and the files read as ES modules. Returns `index.js`.
 */
export async function buildCli(workDir: string): Promise<string> {
  mkdirSync(workDir, { recursive: true });
  writeFileSync(join(workDir, 'package.json'), `${JSON.stringify({ type: 'module' })}\n`);
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(workDir, 'node_modules'), 'dir');
  const outDir = join(workDir, 'cli');
  await build({ root: REPO_ROOT, configFile: join(REPO_ROOT, 'vite.cli.config.ts'), logLevel: 'silent', build: { outDir } });
  return join(outDir, 'index.js');
}
