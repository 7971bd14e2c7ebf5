// @ts-check
import path from 'node:path';
import { builtinModules } from 'node:module';
import tseslint from 'typescript-eslint';

const root = import.meta.dirname;

/**
 * Which layers each layer may import (architecture.md §1). The CLI composes the web shell for `ccmem serve`;
 * the benchmarks measure the engine, and nothing in the product imports them.
 */
const allowedLayers = {
  shared: ['shared'],
  core: ['shared', 'core'],
  main: ['shared', 'core', 'main'],
  preload: ['shared', 'preload'],
  server: ['shared', 'core', 'server'],
  cli: ['shared', 'core', 'server', 'cli'],
  renderer: ['shared', 'renderer'],
  bench: ['shared', 'core', 'bench'],
};

/**
 * The engine's own folders, bottom to top (architecture.md §1): a folder imports only folders on a lower line, so
 * no arrow inside electron/core runs back up and no cycle (type-only ones included) can form. Files directly in
 * electron/core are the small shared pieces (`events.ts`, `appRoot.ts`) at the bottom and the engine's composition
 * (`engine.ts` and the files that wire its services) at the top.
 */
const coreLevels = [
  ['base', 'async', 'lock', 'secrets', 'llm'],
  ['fs'],
  ['jsonl', 'changes'],
  ['layout', 'settings'],
  ['home'],
  ['watch'],
  ['agents', 'transcripts'],
  ['memory', 'search'],
  ['catalog'],
  ['history'],
  ['jobs'],
  ['demo'],
  ['composition'],
];
const coreBaseFiles = new Set(['events.ts', 'appRoot.ts']);

/** @param {string} rel a path under electron/core/, or null when the path lies elsewhere */
function coreFolderOf(rel) {
  const match = /^electron\/core\/(.+)$/.exec(rel);
  if (!match) return null;
  const [first, ...rest] = match[1].split('/');
  if (rest.length > 0) return first;
  const file = first.endsWith('.ts') ? first : `${first}.ts`;
  return coreBaseFiles.has(file) ? 'base' : 'composition';
}

/** @param {string} folder */
const coreLevelOf = (folder) => coreLevels.findIndex((level) => level.includes(folder));

/**
 * Third-party packages the product wraps in exactly one place; importing them anywhere else in the product is an error.
 * Tests and the bench may use them directly (a WebSocket client of the web shell, say): they are not the product.
 */
const wrappedPackages = {
  yaml: 'electron/core/memory/frontmatter.ts',
  'gray-matter': 'electron/core/memory/frontmatter.ts',
  '@anthropic-ai/sdk': 'electron/core/llm/',
  '@modelcontextprotocol/sdk': 'electron/core/llm/mcpToolServer.ts',
  '@secretlint/core': 'electron/core/secrets/secretScan.ts',
  '@secretlint/profiler': 'electron/core/secrets/secretScan.ts',
  '@secretlint/types': 'electron/core/secrets/secretScan.ts',
  '@secretlint/secretlint-rule-preset-recommend': 'electron/core/secrets/secretScan.ts',
  'markdown-it': 'renderer/src/components/memoryMarkdown.ts',
  ws: 'electron/server/WebShellServer.ts',
};

/** Raw IPC objects may only be touched by the typed wrappers. */
const rawIpcNames = new Set(['ipcMain', 'ipcRenderer']);
const rawIpcFiles = ['electron/main/ipc.ts', 'electron/preload/index.ts'];

const nodeBuiltins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);

/** @param {string} file */
function layerOf(file) {
  const rel = path.relative(root, file).split(path.sep).join('/');
  if (rel.startsWith('shared/')) return 'shared';
  if (rel.startsWith('renderer/')) return 'renderer';
  if (rel.startsWith('bench/')) return 'bench';
  const match = /^electron\/(core|main|preload|server|cli)\//.exec(rel);
  return match ? match[1] : null;
}

/** @type {import('eslint').Rule.RuleModule} */
const layerBoundaries = {
  meta: { type: 'problem', schema: [], messages: { layer: '{{message}}' } },
  create(context) {
    const file = context.filename;
    const rel = path.relative(root, file).split(path.sep).join('/');
    const layer = layerOf(file);
    /** @param {import('estree').Node} node @param {unknown} source @param {string[]} names */
    function check(node, source, names) {
      if (typeof source !== 'string') return;
      const report = (/** @type {string} */ message) => context.report({ node, messageId: 'layer', data: { message } });
      for (const [pkg, home] of Object.entries(wrappedPackages)) {
        if (rel.startsWith('test/') || rel.startsWith('bench/')) break;
        if ((source === pkg || source.startsWith(`${pkg}/`)) && !rel.startsWith(home))
          report(`'${pkg}' is wrapped in ${home}; import that wrapper instead`);
      }
      if (source === 'electron') {
        if (layer !== null && layer !== 'main' && layer !== 'preload')
          report(`'electron' may only be imported in electron/main and electron/preload (this is ${layer})`);
        if (names.some((n) => rawIpcNames.has(n)) && !rawIpcFiles.includes(rel))
          report('raw ipcMain/ipcRenderer are only used by the typed wrappers in electron/main/ipc.ts and electron/preload/index.ts');
      }
      if (layer === null) return;
      if ((layer === 'shared' || layer === 'renderer') && nodeBuiltins.has(source))
        report(`Node built-in '${source}' may not be imported in ${layer}/`);
      if (!source.startsWith('.')) return;
      const resolved = path.resolve(path.dirname(file), source);
      const target = layerOf(resolved);
      if (layer === 'core' && target === 'core') {
        const from = coreFolderOf(rel);
        const to = coreFolderOf(path.relative(root, resolved).split(path.sep).join('/'));
        if (from && to && from !== to) {
          const fromLevel = coreLevelOf(from);
          const toLevel = coreLevelOf(to);
          if (fromLevel < 0) report(`electron/core/${from} has no place in coreLevels (eslint.config.js); give it one`);
          else if (toLevel < 0) report(`electron/core/${to} has no place in coreLevels (eslint.config.js); give it one`);
          else if (toLevel >= fromLevel)
            report(`electron/core/${from} may not import from electron/core/${to}, which is not below it ('${source}')`);
        }
      }
      if (target === null) {
        report(`${layer} may not import '${source}' from outside the layered folders`);
      } else if (!allowedLayers[layer].includes(target)) {
        report(`${layer} may not import from ${target} ('${source}')`);
      }
    }
    /** @param {any} node */
    const namesOf = (node) => (node.specifiers ?? []).map((/** @type {any} */ s) => s.imported?.name ?? s.local?.name).filter(Boolean);
    return {
      ImportDeclaration: (node) => check(node, node.source.value, namesOf(node)),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value, []),
      ExportAllDeclaration: (node) => check(node, node.source.value, []),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value, []),
    };
  },
};

export default tseslint.config(
  { ignores: ['node_modules/**', 'out/**', 'dist/**', 'test-results/**', 'playwright-report/**', 'resources/**', 'bench/results/**'] },
  ...tseslint.configs.recommended,
  {
    plugins: { layers: { rules: { boundaries: layerBoundaries } } },
    rules: {
      'layers/boundaries': 'error',
      'no-restricted-syntax': ['error', { selector: 'ExportAllDeclaration', message: 'Name what you export; no export *.' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-globals': ['error', { name: 'require', message: 'The renderer talks to the engine only through the Api.' }],
    },
  },
);
