/**
 * A project's last activity is the newest of its sessions' last timestamps, its memory index's time and its topic
 * files' times, and the home lists projects by it: a memory file written after the last session moves its project up.
 * The topic files' times are read with blocking stats (projectDiscovery's `newestMtimeSync`); a file that cannot be
 * read (a broken link) is left out, as before.
 */
import { symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discoverHome } from '../../../electron/core/home/projectDiscovery';
import { readSessionQuickInfo } from '../../../electron/core/layout/sessionQuickInfo';
import { createScenarioHome, type ScenarioHome } from '../../fixtures/scenarioHome';

describe('project activity', () => {
  let home: ScenarioHome;

  beforeEach(async () => {
    home = await createScenarioHome();
  });

  afterEach(async () => {
    await home.cleanup();
  });

  const discover = () => discoverHome([{ path: home.root, source: 'CLAUDE_CONFIG_DIR' }], readSessionQuickInfo);

  it('counts the newest topic file, even in a sub-folder, and orders the projects by it', async () => {
    const older = home.project(home.workPath('older'));
    const newer = home.project(home.workPath('newer'));
    await older.session({ start: '2026-03-01T10:00:00.000Z' });
    await newer.session({ start: '2026-04-01T10:00:00.000Z' });
    await older.memory('notes/deep.md', '# Deep\n', { mtime: '2026-05-02T08:00:00.000Z' });
    await older.memory('shallow.md', '# Shallow\n', { mtime: '2026-03-02T08:00:00.000Z' });
    await symlink(join(home.tmp, 'nowhere.md'), join(older.memoryDir, 'broken.md'));

    const { projects } = await discover();
    expect(projects.map((project) => project.slug)).toEqual([older.slug, newer.slug]);
    expect(projects[0].lastActivity).toBe('2026-05-02T08:00:00.000Z');
    expect(projects[1].lastActivity?.startsWith('2026-04-01T')).toBe(true);
  });

  it('keeps the sessions’ time when every topic file is older', async () => {
    const project = home.project(home.workPath('steady'));
    await project.session({ start: '2026-04-10T10:00:00.000Z' });
    await project.memory('old.md', '# Old\n', { mtime: '2026-01-01T00:00:00.000Z' });

    const { projects } = await discover();
    expect(projects[0].lastActivity?.startsWith('2026-04-10T')).toBe(true);
  });
});
