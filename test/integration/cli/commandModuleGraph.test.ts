/**
 * `ccmem` loads a command's module only when that command runs (electron/cli/main.ts), so a one-shot read pays only
 * for the code it uses. This builds the CLI as the package ships it and follows the static imports of each chunk.
 */
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { build, type Rollup } from 'vite';

const REPO_ROOT = join(import.meta.dirname, '..', '..', '..');
const BUILTINS = new Set([...builtinModules, ...builtinModules.map((name) => `node:${name}`)]);
/** Packages a one-shot read of one session has no use for: model and MCP clients, the web server, settings and memory parsers. */
const NOT_FOR_READING_A_TRANSCRIPT = ['@anthropic-ai/sdk', '@modelcontextprotocol/sdk', 'ws', 'markdown-it', 'gray-matter', 'yaml', 'zod'];

describe('the ccmem build', () => {
  let chunks: Rollup.OutputChunk[];

  beforeAll(async () => {
    const output = (await build({
      root: REPO_ROOT,
      configFile: join(REPO_ROOT, 'vite.cli.config.ts'),
      logLevel: 'silent',
      build: { write: false },
    })) as Rollup.RollupOutput;
    chunks = output.output.filter((item): item is Rollup.OutputChunk => item.type === 'chunk');
  }, 60_000);

  /**
   * The packages a chunk loads before it runs (its static imports, followed through the other chunks), or with
   * `dynamic` every package it may load later too.
   */
  function packagesLoadedBy(chunk: Rollup.OutputChunk, dynamic = false): Set<string> {
    const byFile = new Map(chunks.map((each) => [each.fileName, each]));
    const packages = new Set<string>();
    const seen = new Set<string>();
    const visit = (current: Rollup.OutputChunk): void => {
      if (seen.has(current.fileName)) return;
      seen.add(current.fileName);
      for (const imported of dynamic ? [...current.imports, ...current.dynamicImports] : current.imports) {
        const next = byFile.get(imported);
        if (next) visit(next);
        else if (!BUILTINS.has(imported))
          packages.add(imported.startsWith('@') ? imported.split('/').slice(0, 2).join('/') : imported.split('/')[0]);
      }
    };
    visit(chunk);
    return packages;
  }

  function commandChunk(command: string): Rollup.OutputChunk {
    const chunk = chunks.find((each) => each.facadeModuleId?.endsWith(`electron/cli/commands/${command}.ts`));
    if (!chunk) throw new Error(`no chunk for the ${command} command`);
    return chunk;
  }

  it('starts without loading any package: every command is loaded when it runs', () => {
    const entry = chunks.find((chunk) => chunk.isEntry);
    expect(entry?.fileName).toBe('index.js');
    expect([...packagesLoadedBy(entry!)]).toEqual([]);
    expect(entry!.dynamicImports.length).toBeGreaterThanOrEqual(15);
  });

  it('reads a transcript without the model SDKs, the web server or the settings and memory parsers', () => {
    const loaded = packagesLoadedBy(commandChunk('transcript'));
    for (const name of NOT_FOR_READING_A_TRANSCRIPT) expect(loaded, name).not.toContain(name);
  });

  it('carries secretlint in its own chunks, so masking an export loads no package files', () => {
    const loaded = packagesLoadedBy(commandChunk('transcript'), true);
    expect([...loaded].filter((name) => name.startsWith('@secretlint/'))).toEqual([]);
    expect(chunks.some((chunk) => chunk.moduleIds.some((id) => id.includes('secretlint-rule-preset-recommend')))).toBe(true);
  });

  it('searches without loading any package: a one-shot search is timed against grep, and zod alone costs ~40 ms', () => {
    expect([...packagesLoadedBy(commandChunk('search'))]).toEqual([]);
  });

  it('runs the one-shot commands that build the engine without loading the model SDKs or the web server', () => {
    for (const command of ['search', 'projects', 'sessions', 'doctor', 'history', 'blame', 'extract']) {
      const loaded = packagesLoadedBy(commandChunk(command));
      for (const name of ['@anthropic-ai/sdk', '@modelcontextprotocol/sdk', 'ws'])
        expect(loaded, `${command}: ${name}`).not.toContain(name);
    }
  });

  it('loads the SDKs and the web server where a command uses them (the checks above can fail)', () => {
    expect(packagesLoadedBy(commandChunk('serve'))).toContain('ws');
    const extractMayLoad = packagesLoadedBy(commandChunk('extract'), true);
    expect(extractMayLoad).toContain('@anthropic-ai/sdk');
    expect(extractMayLoad).toContain('@modelcontextprotocol/sdk');
  });
});
