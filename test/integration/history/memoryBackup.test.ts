import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contentHash } from '../../../electron/core/fs/contentHash';
import { readTar, writeTarGz } from '../../../electron/core/history/backup/tarArchive';
import type { BackupManifest } from '../../../shared/history/backupModel';
import { createStandardScenario, type StandardScenario } from '../../fixtures/scenarioHome';
import { snapshotTree } from '../../fixtures/treeSnapshot';
import { openHistory, setMtime, type OpenHistory } from './historyFixtures';

let scenario: StandardScenario;
let opened: OpenHistory;

beforeEach(async () => {
  scenario = await createStandardScenario();
  opened = openHistory(scenario.home);
  await opened.history.recordNow();
});

afterEach(async () => {
  await opened.close();
  await scenario.home.cleanup();
});

const webshop = () => ({ kind: 'project' as const, configRoot: scenario.home.root, slug: scenario.webshop.slug });
const monorepo = () => ({ kind: 'project' as const, configRoot: scenario.home.root, slug: scenario.monorepo.memorySlug });

function unpack(base64: string) {
  const { files } = readTar(Buffer.from(base64, 'base64'));
  const manifest = JSON.parse(
    Buffer.from(files.find((f) => f.name === 'history-manifest.json')?.bytes ?? []).toString('utf8'),
  ) as BackupManifest;
  const memory = new Map(
    files.filter((f) => f.name.startsWith('memory/')).map((f) => [f.name.slice('memory/'.length), Buffer.from(f.bytes).toString('utf8')]),
  );
  return { manifest, memory };
}

describe('memory backups', () => {
  it("exports a project's memory now, and as it was at a chosen time, with its history manifest", async () => {
    const rel = 'user_prefers_pnpm.md';
    const path = join(scenario.webshop.memoryDir, rel);
    const before = await readFile(path, 'utf8');
    const firstRecorded = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await writeFile(path, 'Now prefers bun.\n');
    await setMtime(path, new Date());
    await opened.history.recordNow();

    const now = unpack((await opened.history.exportBackup(webshop(), null)).base64);
    expect(now.memory.get(rel)).toBe('Now prefers bun.\n');
    expect([...now.memory.keys()].sort()).toEqual(['MEMORY.md', ...scenario.webshop.topicFiles, 'team/MEMORY.md'].sort());
    expect(now.manifest).toMatchObject({
      format: 'claude-memory-manager/memory-backup',
      version: 1,
      source: { memoryDir: scenario.webshop.memoryDir },
    });
    // What came before history started, reconstructed from the file's frontmatter, then first sight and the edit.
    expect(now.manifest.history.filter((line) => line.path === rel).map((line) => line.cause)).toEqual(['session', 'external', 'external']);

    const then = await opened.history.exportBackup(webshop(), new Date(firstRecorded).toISOString());
    expect(then.fileName).toMatch(/^memory-webshop-\d{8}-\d{6}Z\.tar\.gz$/);
    const old = unpack(then.base64);
    expect(old.memory.get(rel)).toBe(before);
    expect(old.manifest.history.filter((line) => line.path === rel)).toHaveLength(2);
  });

  it('previews an import into another folder as a diff, then writes it as one app edit; files it does not hold stay', async () => {
    const archive = Buffer.from((await opened.history.exportBackup(webshop(), null)).base64, 'base64');
    const target = scenario.monorepo.memoryDir;
    const untouchedBefore = await readFile(join(target, 'api_conventions.md'), 'utf8');
    const rootBefore = await snapshotTree(scenario.home.root);
    const preview = await opened.history.previewImport(monorepo(), archive);
    expect(await snapshotTree(scenario.home.root)).toEqual(rootBefore);
    expect(preview.untouched).toEqual(['api_conventions.md']);
    const index = preview.files.find((f) => f.path === 'MEMORY.md');
    expect(index).toMatchObject({ status: 'changed', current: expect.any(String) });
    expect(preview.files.find((f) => f.path === 'user_prefers_pnpm.md')).toMatchObject({ status: 'new', current: null, linesRemoved: 0 });

    const expected = Object.fromEntries(preview.files.map((f) => [f.path, f.current]));
    const result = await opened.history.applyImport(monorepo(), archive, expected);
    expect(result.written).toHaveLength(preview.files.length);
    expect(await readFile(join(target, 'user_prefers_pnpm.md'), 'utf8')).toBe(
      await readFile(join(scenario.webshop.memoryDir, 'user_prefers_pnpm.md'), 'utf8'),
    );
    expect(await readFile(join(target, 'api_conventions.md'), 'utf8')).toBe(untouchedBefore);
    const recorded = await opened.history.getChangeSet(result.changeSetId as string);
    expect(recorded.cause).toBe('app-edit');
    // The index it replaced is kept in history.
    const replaced = await opened.store.readBlob(index?.current as string);
    expect(replaced.toString('utf8')).toContain('API conventions');

    // The same import again: nothing left to write.
    const again = await opened.history.previewImport(monorepo(), archive);
    expect(again.files.every((f) => f.status === 'same')).toBe(true);
  });

  it('refuses a file changed since the preview, and never writes archive entries outside the folder or that are not memory', async () => {
    const crafted = writeTarGz([
      { name: 'memory/../escape.md', bytes: Buffer.from('x'), mtimeMs: Date.now() },
      { name: 'memory/script.sh', bytes: Buffer.from('rm -rf /'), mtimeMs: Date.now() },
      { name: 'memory/.consolidate-lock', bytes: Buffer.from('1'), mtimeMs: Date.now() },
      { name: 'memory/api_conventions.md', bytes: Buffer.from('replaced\n'), mtimeMs: Date.now() },
    ]);
    const preview = await opened.history.previewImport(monorepo(), crafted);
    expect(Object.fromEntries(preview.files.map((f) => [f.path, f.status]))).toEqual({
      '../escape.md': 'refused',
      'script.sh': 'refused',
      '.consolidate-lock': 'refused',
      'api_conventions.md': 'changed',
    });
    const expected = { 'api_conventions.md': preview.files[3].current };
    await writeFile(join(scenario.monorepo.memoryDir, 'api_conventions.md'), 'someone else wrote this\n');
    // The same CONFLICT as any other write over a changed file: both versions, for the conflict view.
    await expect(opened.history.applyImport(monorepo(), crafted, expected)).rejects.toMatchObject({
      code: 'CONFLICT',
      details: {
        relativePath: 'api_conventions.md',
        baseHash: expected['api_conventions.md'],
        currentHash: contentHash(Buffer.from('someone else wrote this\n')),
        currentText: 'someone else wrote this\n',
      },
    });
    expect(await readFile(join(scenario.monorepo.memoryDir, 'api_conventions.md'), 'utf8')).toBe('someone else wrote this\n');
  });
});
