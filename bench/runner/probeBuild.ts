import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { basename, join } from 'node:path';
import { build } from 'vite';

const REPO_ROOT = join(import.meta.dirname, '..', '..');
const PROBES_DIR = join(REPO_ROOT, 'bench', 'probes');
/** What the probes share (the message format, the web shell's engine); imported by them, not run on their own. */
const NOT_A_PROBE = new Set(['probeProtocol.ts', 'webShellEngine.ts']);

const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const packages = [...Object.keys(manifest.dependencies), ...Object.keys(manifest.devDependencies)];
const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

/** Packages stay outside the bundle, resolved from node_modules as the built CLI resolves them. */
function isExternal(id: string): boolean {
  return builtins.has(id) || packages.some((name) => id === name || id.startsWith(`${name}/`));
}

/** Built probes, until removed. */
export interface BuiltProbes {
  readonly dir: string;
  remove(): void;
}

/**
 * Builds every probe as one ES module each (`<name>.mjs`, shared code in chunks), the way the CLI bundle is built:
 * the probes then run the engine as the app and `ccmem` run it, bundled, not through tsx's loader, whose transform
 * thread and caches weighed on every peak RSS figure (the engine imported from source: 200 MB RSS, bundled: 88 MB; the
 * engine's first start on the large home: 359 MB from source, 281–288 MB built) and added its compile time to each
 * probe's start. They are written inside the repository's `out/` (a
 * folder of its own per run), where the packages they leave outside resolve from `node_modules`.
 */
export async function buildProbes(): Promise<BuiltProbes> {
  const parent = join(REPO_ROOT, 'out');
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(join(parent, 'bench-probes-'));
  const input = Object.fromEntries(
    readdirSync(PROBES_DIR)
      .filter((file) => file.endsWith('.ts') && !NOT_A_PROBE.has(file))
      .map((file) => [basename(file, '.ts'), join(PROBES_DIR, file)]),
  );
  await build({
    root: REPO_ROOT,
    configFile: false,
    logLevel: 'silent',
    build: {
      ssr: true,
      outDir: dir,
      emptyOutDir: true,
      target: 'node20',
      rolldownOptions: {
        input,
        external: isExternal,
        output: { format: 'es', entryFileNames: '[name].mjs', chunkFileNames: 'chunks/[name]-[hash].mjs' },
      },
    },
  });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
