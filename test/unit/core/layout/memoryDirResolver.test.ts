import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveMemoryDir } from '../../../../electron/core/layout/memoryDirResolver';
import type { SettingsRead } from '../../../../electron/core/layout/settingsFiles';
import { createScenarioHome, type ScenarioHome } from '../../../fixtures/scenarioHome';

let home: ScenarioHome;
beforeAll(async () => {
  home = await createScenarioHome();
});
afterAll(async () => {
  await home.cleanup();
});

const noSettings: SettingsRead = { values: null, warning: null };
const userSays = (dir: unknown): SettingsRead => ({ values: { autoMemoryDirectory: dir }, warning: null });

describe('resolveMemoryDir', () => {
  it('defaults to <root>/projects/<slug>/memory', async () => {
    const choice = await resolveMemoryDir(home.root, '-a-b', noSettings, null);
    expect(choice).toEqual({ memoryDir: join(home.root, 'projects', '-a-b', 'memory'), source: 'default', warnings: [] });
  });

  it('user settings move it', async () => {
    const choice = await resolveMemoryDir(home.root, '-a-b', userSays('/srv/memory'), null);
    expect(choice).toEqual({ memoryDir: '/srv/memory', source: 'user-settings', warnings: [] });
  });

  it('local settings beat user settings', async () => {
    const project = home.workPath('local-beats-user');
    await home.localSettings(project, { autoMemoryDirectory: join(project, '.claude', 'memory') });
    const choice = await resolveMemoryDir(home.root, 'slug', userSays('/srv/memory'), project);
    expect(choice).toEqual({ memoryDir: join(project, '.claude', 'memory'), source: 'local-settings', warnings: [] });
  });

  it("the repository's committed settings are ignored WITH a settings-ignored warning", async () => {
    const project = home.workPath('committed');
    const committed = await home.projectSettings(project, { autoMemoryDirectory: '/evil/place' });
    const choice = await resolveMemoryDir(home.root, 'slug-c', noSettings, project);
    expect(choice.memoryDir).toBe(join(home.root, 'projects', 'slug-c', 'memory'));
    expect(choice.source).toBe('default');
    expect(choice.warnings).toEqual([expect.objectContaining({ code: 'settings-ignored', path: committed })]);
    // …and user settings still apply.
    const withUser = await resolveMemoryDir(home.root, 'slug-c', userSays('/srv/memory'), project);
    expect(withUser).toMatchObject({ memoryDir: '/srv/memory', source: 'user-settings' });
    expect(withUser.warnings.map((w) => w.code)).toEqual(['settings-ignored']);
  });

  it('an invalid local value is reported and user settings apply', async () => {
    const project = home.workPath('invalid-local');
    const local = await home.localSettings(project, { autoMemoryDirectory: 'relative/dir' });
    const choice = await resolveMemoryDir(home.root, 's', userSays('/srv/memory'), project);
    expect(choice).toMatchObject({ memoryDir: '/srv/memory', source: 'user-settings' });
    expect(choice.warnings).toEqual([expect.objectContaining({ code: 'settings-invalid-path', path: local })]);
  });

  it('a broken local settings file is reported and ignored', async () => {
    const project = home.workPath('broken-local');
    const local = await home.localSettings(project, '{ not json');
    const choice = await resolveMemoryDir(home.root, 's', noSettings, project);
    expect(choice.source).toBe('default');
    expect(choice.warnings).toEqual([expect.objectContaining({ code: 'settings-invalid-json', path: local })]);
  });

  it('~/ in settings is expanded against the home folder', async () => {
    const choice = await resolveMemoryDir(home.root, 's', userSays('~/claude-memory'), null);
    expect(choice.source).toBe('user-settings');
    expect(choice.memoryDir.endsWith('/claude-memory')).toBe(true);
    expect(choice.memoryDir.startsWith('/')).toBe(true);
  });
});
