import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const repoRoot = resolve(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: repoRoot });

/** Lints a snippet as if it lived at `file`, returning the layer-rule messages only. */
async function layerErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(repoRoot, file) });
  return result.messages.filter((m) => m.ruleId === 'layers/boundaries').map((m) => m.message);
}

describe('layer rules (architecture.md §1)', () => {
  it('refuses electron in the engine, the server, the CLI, shared and the renderer', async () => {
    for (const file of ['electron/core/x.ts', 'electron/server/x.ts', 'electron/cli/x.ts', 'shared/x.ts', 'renderer/src/x.ts']) {
      expect(await layerErrors(file, "import { app } from 'electron';\nexport const a = app;\n")).toHaveLength(1);
    }
  });

  it('allows electron in main and preload, but raw IPC only in the two wrappers', async () => {
    expect(
      await layerErrors('electron/main/window.ts', "import { BrowserWindow } from 'electron';\nexport const b = BrowserWindow;\n"),
    ).toEqual([]);
    expect(await layerErrors('electron/main/window.ts', "import { ipcMain } from 'electron';\nexport const b = ipcMain;\n")).toHaveLength(
      1,
    );
    expect(await layerErrors('electron/main/ipc.ts', "import { ipcMain } from 'electron';\nexport const b = ipcMain;\n")).toEqual([]);
  });

  it('refuses Node built-ins in shared and the renderer', async () => {
    expect(await layerErrors('shared/x.ts', "import { readFile } from 'node:fs';\nexport const r = readFile;\n")).toHaveLength(1);
    expect(await layerErrors('renderer/src/x.ts', "import path from 'path';\nexport const p = path;\n")).toHaveLength(1);
    expect(await layerErrors('electron/core/x.ts', "import { readFile } from 'node:fs';\nexport const r = readFile;\n")).toEqual([]);
  });

  it('refuses imports against the arrows', async () => {
    expect(await layerErrors('shared/x.ts', "import { a } from '../electron/core/a';\nexport const b = a;\n")).toHaveLength(1);
    expect(await layerErrors('electron/core/x.ts', "import { a } from '../main/a';\nexport const b = a;\n")).toHaveLength(1);
    expect(await layerErrors('renderer/src/x.ts', "import { a } from '../../electron/core/a';\nexport const b = a;\n")).toHaveLength(1);
    expect(await layerErrors('electron/preload/x.ts', "import { a } from '../core/a';\nexport const b = a;\n")).toHaveLength(1);
    expect(await layerErrors('electron/server/x.ts', "import { a } from '../cli/a';\nexport const b = a;\n")).toHaveLength(1);
    expect(await layerErrors('electron/main/x.ts', "import { a } from '../core/a';\nexport const b = a;\n")).toEqual([]);
  });

  it('keeps every arrow inside the engine pointing down its folder levels', async () => {
    const importing = (source: string) => `import { a } from '${source}';\nexport const b = a;\n`;
    expect(await layerErrors('electron/core/memory/x.ts', importing('../home/HomeService'))).toEqual([]);
    expect(await layerErrors('electron/core/fs/x.ts', importing('../events'))).toEqual([]);
    expect(await layerErrors('electron/core/engine.ts', importing('./jobs/JobService'))).toEqual([]);
    expect(await layerErrors('electron/core/engine.ts', importing('./engineServices'))).toEqual([]);
    // Back up, sideways between folders on one level, from a folder into the composition, from a folder with no level.
    expect(await layerErrors('electron/core/home/x.ts', importing('../memory/memoryFileSummary'))).toHaveLength(1);
    expect(await layerErrors('electron/core/agents/x.ts', importing('../transcripts/transcriptSources'))).toHaveLength(1);
    expect(await layerErrors('electron/core/home/x.ts', importing('../engineServices'))).toHaveLength(1);
    expect(await layerErrors('electron/core/newFolder/x.ts', importing('../fs/errno'))).toHaveLength(1);
    // A type-only import is an arrow too.
    expect(await layerErrors('electron/core/watch/x.ts', "import type { A } from '../catalog/a';\nexport type B = A;\n")).toHaveLength(1);
  });

  it('keeps wrapped libraries behind their one wrapper', async () => {
    expect(
      await layerErrors('electron/core/memory/memoryScan.ts', "import { parse } from 'yaml';\nexport const p = parse;\n"),
    ).toHaveLength(1);
    expect(await layerErrors('electron/core/memory/frontmatter.ts', "import { parse } from 'yaml';\nexport const p = parse;\n")).toEqual(
      [],
    );
    expect(
      await layerErrors('electron/core/jobs/x.ts', "import Anthropic from '@anthropic-ai/sdk';\nexport const a = Anthropic;\n"),
    ).toHaveLength(1);
    const mcp = "import { Server } from '@modelcontextprotocol/sdk/server/index.js';\nexport const s = Server;\n";
    expect(await layerErrors('electron/core/llm/claudeCodeProcess.ts', mcp)).toHaveLength(1);
    expect(await layerErrors('electron/core/llm/mcpToolServer.ts', mcp)).toEqual([]);
    const ws = "import { WebSocketServer } from 'ws';\nexport const w = WebSocketServer;\n";
    expect(await layerErrors('electron/server/otherServer.ts', ws)).toHaveLength(1);
    expect(await layerErrors('electron/server/WebShellServer.ts', ws)).toEqual([]);
    expect(await layerErrors('test/integration/server/x.test.ts', ws)).toEqual([]);
    const secretlint = "import { lintSource } from '@secretlint/core';\nexport const l = lintSource;\n";
    expect(await layerErrors('electron/core/memory/x.ts', secretlint)).toHaveLength(1);
    expect(await layerErrors('electron/core/secrets/secretScan.ts', secretlint)).toEqual([]);
    const markdown = "import MarkdownIt from 'markdown-it';\nexport const m = MarkdownIt;\n";
    expect(await layerErrors('renderer/src/features/x.tsx', markdown)).toHaveLength(1);
  });
});
