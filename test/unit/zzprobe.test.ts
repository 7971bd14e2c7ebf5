import { it, expect } from 'vitest';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { mkdtempSync, writeFileSync, utimesSync, statSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryFolderAnalyzer } from '../../electron/core/memory/memoryFolderAnalyzer';

it('probe', async () => {
  const require = createRequire(import.meta.url);
  const fs = require('node:fs');
  const seen: string[] = [];
  const orig = fs.promises.readFile;
  fs.promises.readFile = function (p: unknown, ...rest: unknown[]) { seen.push(String(p)); return orig.call(this, p, ...rest); };
  const origSync = fs.readFileSync;
  fs.readFileSync = function (p: unknown, ...rest: unknown[]) { seen.push('sync:' + String(p)); return origSync.call(this, p, ...rest); };
  syncBuiltinESMExports();
  const dir = mkdtempSync(join(tmpdir(), 'probe-'));
  writeFileSync(join(dir, 'a.md'), 'hello');
  utimesSync(join(dir, 'a.md'), new Date(1000), new Date());
  const before = statSync(join(dir, 'a.md')).atimeMs;
  await readFile(join(dir, 'a.md'));
  const after = statSync(join(dir, 'a.md')).atimeMs;
  utimesSync(dir, new Date(1000), new Date());
  const d1 = statSync(dir).atimeMs; readdirSync(dir); const d2 = statSync(dir).atimeMs;
  await new MemoryFolderAnalyzer().analyze({ memoryDir: dir, kind: 'agent', projectPath: null });
  console.log(seen, before, after, d1, d2);
  expect(seen.length).toBeGreaterThan(1);
});
