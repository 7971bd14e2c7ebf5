import { mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemoryFolderRef } from '../../../shared/memory/memoryFolderRef';
import { CodedError } from '../../../shared/result';
import type { Engine } from '../../../electron/core/engine';
import { contentHash } from '../../../electron/core/fs/contentHash';
import { writeTarGz } from '../../../electron/core/history/backup/tarArchive';
import { createScenarioHome, topicFile, type ProjectBuilder, type ScenarioHome } from '../../fixtures/scenarioHome';
import { recordFigure } from '../support/figureLog';
import { OutsideTree } from '../support/outsideTree';
import { createTestEngine } from '../../fixtures/testEngine';

const OUTSIDE_TEXT = '---\nname: secret\ndescription: never shown\ntype: user\n---\nThe outside file, which no reply may reveal.\n';
const PLAIN = topicFile({ variant: 'flat', name: 'plain', description: 'a plain file', type: 'user', body: 'Plain.\n' });

/** Memory folders that hold symlinks out of them: a file (`evil.md`) and a folder (`linkdir/`). */
describe('symlinks inside a memory folder that lead out of it', () => {
  let home: ScenarioHome;
  let project: ProjectBuilder;
  let engine: Engine;
  let ref: MemoryFolderRef;
  let outsideDir: string;

  beforeAll(async () => {
    home = await createScenarioHome({ prefix: 'ccmem-inner-links-' });
    project = home.project(home.workPath('linked'));
    await project.session({ turns: 1 });
    await project.memoryIndex('- [Plain](plain.md) — a plain file\n- [Evil](evil.md) — a symlink\n');
    await project.memory('plain.md', PLAIN);
    outsideDir = join(home.tmp, 'outside');
    await mkdir(join(outsideDir, 'folder'), { recursive: true });
    await writeFile(join(outsideDir, 'secret.md'), OUTSIDE_TEXT, { mode: 0o600 });
    await writeFile(join(outsideDir, 'folder', 'inner.md'), OUTSIDE_TEXT);
    await symlink(join(outsideDir, 'secret.md'), join(project.memoryDir, 'evil.md'));
    await symlink(join(outsideDir, 'folder'), join(project.memoryDir, 'linkdir'));
    engine = await createTestEngine(home);
    ref = { kind: 'project', configRoot: home.root, slug: project.slug };
  });

  afterAll(async () => {
    await engine.dispose();
    await home.cleanup();
  });

  /** Everything a reply carries, as text: no part of the outside file may be in it. */
  function reveals(value: unknown): boolean {
    const text = JSON.stringify(value, (_key, v: unknown) => (v instanceof Error ? { message: v.message, ...(v as object) } : v));
    return text.includes('no reply may reveal') || text.includes(contentHash(OUTSIDE_TEXT));
  }

  it('renaming a symlinked file is refused before anything is written, and the refusal names no outside hash', async () => {
    const outside = await OutsideTree.watch([outsideDir]);
    const before = (await readdir(project.memoryDir)).sort();
    const replies: unknown[] = [];
    const problems: string[] = [];
    for (const baseHash of [contentHash(OUTSIDE_TEXT), contentHash(PLAIN), '0'.repeat(64)]) {
      try {
        replies.push(await engine.memory.rename(ref, { from: 'evil.md', to: 'moved.md', baseHash }));
        problems.push(`rename with base ${baseHash.slice(0, 8)} was allowed`);
      } catch (error) {
        replies.push(error);
        if (!(error instanceof CodedError)) problems.push(String(error));
      }
    }
    const access = await outside.accesses();
    recordFigure('outOfRootReads', { reads: access.reads.length, attempts: 3 });
    recordFigure('outOfRootWrites', { writes: access.writes.length, attempts: 3 });
    expect(problems).toEqual([]);
    expect((await readdir(project.memoryDir)).sort()).toEqual(before);
    expect(replies.filter(reveals)).toEqual([]);
    expect(access).toEqual({ reads: [], writes: [] });
    expect(await outside.seesARead()).toBe(true);
  });

  it('an import preview reads nothing through a symlinked memory file', async () => {
    const outside = await OutsideTree.watch([outsideDir]);
    const archive = writeTarGz([
      { name: 'memory/evil.md', bytes: Buffer.from('What the backup holds.\n'), mtimeMs: Date.now() },
      { name: 'memory/linkdir/inner.md', bytes: Buffer.from('What the backup holds.\n'), mtimeMs: Date.now() },
      { name: 'memory/plain.md', bytes: Buffer.from(PLAIN), mtimeMs: Date.now() },
    ]);
    const preview = await engine.memoryHistory.previewImport(ref, archive);
    const access = await outside.accesses();
    recordFigure('outOfRootReads', { reads: access.reads.length, attempts: 2 });
    expect(reveals(preview)).toBe(false);
    expect(preview.files.map((file) => [file.path, file.status, file.currentText])).toEqual([
      ['evil.md', 'refused', null],
      ['linkdir/inner.md', 'refused', null],
      ['plain.md', 'same', PLAIN],
    ]);
    expect(access.reads).toEqual([]);
    expect(await outside.seesARead()).toBe(true);
  });

  it('the editor opens nothing through a symlinked sub-folder or file that leads out', async () => {
    const outside = await OutsideTree.watch([outsideDir]);
    const replies: unknown[] = [];
    const problems: string[] = [];
    for (const path of ['linkdir/inner.md', 'evil.md']) {
      try {
        replies.push(await engine.memory.readFile(ref, path));
        problems.push(`${path} was opened`);
      } catch (error) {
        replies.push(error);
        if (!(error instanceof CodedError && error.code === 'OUTSIDE_ROOT')) problems.push(`${path}: ${String(error)}`);
      }
    }
    const access = await outside.accesses();
    recordFigure('outOfRootReads', { reads: access.reads.length, attempts: 2 });
    expect(problems).toEqual([]);
    expect(replies.filter(reveals)).toEqual([]);
    expect(access.reads).toEqual([]);
    expect(await outside.seesARead()).toBe(true);
  });
});
