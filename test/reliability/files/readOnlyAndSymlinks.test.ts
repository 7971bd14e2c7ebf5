import { chmod, mkdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodedError } from '../../../shared/result';
import type { MemoryFolderRef } from '../../../shared/memory/memoryFolderRef';
import { HistoryStore } from '../../../electron/core/changes/HistoryStore';
import { HomeService } from '../../../electron/core/home/HomeService';
import { MemoryReviewService } from '../../../electron/core/memory/MemoryReviewService';
import { createScenarioHome, topicFile, type ProjectBuilder, type ScenarioHome } from '../../fixtures/scenarioHome';
import { snapshotTree } from '../../fixtures/treeSnapshot';
import { recordFigure } from '../support/figureLog';
import { ChangeSetWriter } from '../../../electron/core/changes/changeSetWriter';

const TEXT = topicFile({ variant: 'flat', name: 'x', description: 'd', type: 'user', body: 'Body.\n' });

describe('read-only files and symlinks that lead out of the memory folder', () => {
  let home: ScenarioHome;
  let project: ProjectBuilder;
  let service: MemoryReviewService;
  let ref: MemoryFolderRef;
  let outside: string;

  beforeAll(async () => {
    home = await createScenarioHome({ prefix: 'ccmem-ro-links-' });
    project = home.project(home.workPath('linked'));
    await project.session({ turns: 1 });
    await project.memoryIndex('- [Plain](plain.md) — a plain file\n- [Evil](evil.md) — a symlink\n');
    await project.memory('plain.md', TEXT);
    outside = join(home.tmp, 'outside');
    await mkdir(join(outside, 'folder'), { recursive: true });
    await writeFile(join(outside, 'secret.md'), TEXT);
    await writeFile(join(outside, 'folder', 'inner.md'), TEXT);
    await symlink(join(outside, 'secret.md'), join(project.memoryDir, 'evil.md'));
    await symlink(join(outside, 'folder'), join(project.memoryDir, 'linked'));
    await symlink(join(outside, 'not-yet.md'), join(project.memoryDir, 'dangling.md'));
    const homeService = new HomeService({
      roots: [{ path: home.root, source: 'CLAUDE_CONFIG_DIR' }],
      dataDir: join(home.tmp, 'data'),
      demoHomeSource: null,
      shell: 'cli',
      readOnly: false,
    });
    const writer = new ChangeSetWriter({ history: new HistoryStore(join(home.tmp, 'data', 'history')) });
    service = new MemoryReviewService({ home: homeService, writer, live: null });
    ref = { kind: 'project', configRoot: home.root, slug: project.slug };
  });

  afterAll(async () => {
    service.dispose();
    await home.cleanup();
  });

  it('changes nothing outside through a symlinked file or folder, whatever the operation', async () => {
    const before = await snapshotTree(outside);
    const plain = await service.readFile(ref, 'plain.md');
    const someHash = plain.hash;
    const attempts: [string, () => Promise<unknown>][] = [
      ['save through a symlinked file', () => service.save(ref, { relativePath: 'evil.md', baseHash: someHash, body: 'changed\n' })],
      ['prune a symlinked file', () => service.prune(ref, { relativePath: 'evil.md', baseHash: someHash })],
      ['rename a symlinked file', () => service.rename(ref, { from: 'evil.md', to: 'moved.md', baseHash: someHash })],
      ['rename onto a symlink', () => service.rename(ref, { from: 'plain.md', to: 'dangling.md', baseHash: someHash })],
      ['save in a symlinked folder', () => service.save(ref, { relativePath: 'linked/inner.md', baseHash: someHash, body: 'changed\n' })],
      [
        'create in a symlinked folder',
        () => service.create(ref, { scope: 'private', fileName: 'linked/new.md', name: 'n', description: 'd', type: 'user', body: 'b' }),
      ],
      [
        'create through a dangling symlink',
        () => service.create(ref, { scope: 'private', fileName: 'dangling.md', name: 'n', description: 'd', type: 'user', body: 'b' }),
      ],
      ['read a symlinked file that leads outside', () => service.readFile(ref, 'evil.md')],
    ];
    let survived = 0;
    const problems: string[] = [];
    for (const [name, attempt] of attempts) {
      try {
        await attempt();
        problems.push(`${name}: was allowed`);
      } catch (error) {
        if (error instanceof CodedError) survived++;
        else problems.push(`${name}: ${String(error)}`);
      }
    }
    const outsideChanged = JSON.stringify([...(await snapshotTree(outside))]) !== JSON.stringify([...before]);
    recordFigure('faults', { injected: attempts.length, survived: outsideChanged ? 0 : survived }, 'symlink out of the memory folder');
    recordFigure('outOfRootWrites', { writes: outsideChanged ? 1 : 0, attempts: attempts.length });
    expect(problems).toEqual([]);
    expect(await snapshotTree(outside)).toEqual(before);
    expect(await readFile(join(project.memoryDir, 'plain.md'), 'utf8')).toBe(TEXT);
  });

  it('keeps a read-only file read-only: an edit is refused or lands whole with the mode kept', async () => {
    await project.memory('readonly.md', TEXT);
    const file = join(project.memoryDir, 'readonly.md');
    await chmod(file, 0o444);
    const { hash } = await service.readFile(ref, 'readonly.md');
    let outcome: 'refused' | 'saved' | 'broken' = 'broken';
    try {
      await service.save(ref, { relativePath: 'readonly.md', baseHash: hash, body: 'New body.\n' });
      outcome = 'saved';
    } catch (error) {
      outcome = error instanceof CodedError ? 'refused' : 'broken';
    }
    const text = await readFile(file, 'utf8');
    const mode = (await stat(file)).mode & 0o777;
    const intact = outcome === 'refused' ? text === TEXT : outcome === 'saved' && text.endsWith('New body.\n');
    recordFigure('faults', { injected: 1, survived: intact && mode === 0o444 ? 1 : 0 }, 'read-only file');
    expect(outcome).not.toBe('broken');
    expect(intact).toBe(true);
    expect(mode).toBe(0o444);
  });
});
