import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'vite';

const REPO_ROOT = join(import.meta.dirname, '..', '..');

/**
 * What `ccmem serve` serves as its page in this layout: the bench's client speaks to the WebSocket alone, and building
 * the real web UI (the app's renderer) would add its build to every run for files no figure reads.
 */
const PAGE_NEVER_LOADED =
  '<!doctype html><title>ccmem bench</title><p>The bench measures the engine behind ccmem serve; this page is never loaded.</p>\n';

/**
 * Builds the `ccmem` command with the app's own config (vite.cli.config.ts) into `<workDir>/cli`, laid out as the
 * installed package has it: the scan worker in `<workDir>/worker` beside it (the runner builds it there), the
 * dependencies resolved from a `node_modules` link, the files read as ES modules, and the package's name, by which
 * `ccmem serve` finds its page (`out/renderer`, here `PAGE_NEVER_LOADED`). Returns `index.js`.
 */
export async function buildCli(workDir: string): Promise<string> {
  mkdirSync(join(workDir, 'out', 'renderer'), { recursive: true });
  const { name } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { name: string };
  writeFileSync(join(workDir, 'package.json'), `${JSON.stringify({ name, type: 'module' })}\n`);
  writeFileSync(join(workDir, 'out', 'renderer', 'index.html'), PAGE_NEVER_LOADED);
  symlinkSync(join(REPO_ROOT, 'node_modules'), join(workDir, 'node_modules'), 'dir');
  const outDir = join(workDir, 'cli');
  await build({ root: REPO_ROOT, configFile: join(REPO_ROOT, 'vite.cli.config.ts'), logLevel: 'silent', build: { outDir } });
  return join(outDir, 'index.js');
}
