import { join } from 'node:path';
import type { MemoryDirSource } from '../../../shared/model/home';
import type { ItemWarning } from '../../../shared/model/warnings';
import { warning } from '../fs/readSafely';
import { readSettingsFile, validateMemoryDirectory, type SettingsRead } from './settingsFiles';

const SETTING = 'autoMemoryDirectory';

export interface MemoryDirChoice {
  readonly memoryDir: string;
  readonly source: MemoryDirSource;
  readonly warnings: readonly ItemWarning[];
}

function settingFrom(read: SettingsRead, path: string, warnings: ItemWarning[]): string | null {
  if (read.warning) warnings.push(read.warning);
  const raw = read.values?.[SETTING];
  if (raw === undefined) return null;
  const valid = validateMemoryDirectory(raw);
  if (!valid) {
    warnings.push(
      warning('settings-invalid-path', `${SETTING} ${JSON.stringify(raw)} is not an absolute path or ~/ path; it was ignored`, path),
    );
  }
  return valid;
}

/**
 * Where one project's auto memory lives. Local settings beat user settings; a repository's committed
 * `.claude/settings.json` may never move the memory folder, so its value is reported and ignored.
 */
export async function resolveMemoryDir(
  configRoot: string,
  slug: string,
  userSettings: SettingsRead,
  projectPath: string | null,
  /** The project folder of the repository's root, when the project is one of its sub-folders. */
  gitRootSlug: string | null = null,
): Promise<MemoryDirChoice> {
  const warnings: ItemWarning[] = [];
  const userSettingsPath = join(configRoot, 'settings.json');
  let chosen: { dir: string; source: MemoryDirSource } | null = null;
  if (projectPath) {
    const localPath = join(projectPath, '.claude', 'settings.local.json');
    const local = settingFrom(await readSettingsFile(localPath), localPath, warnings);
    if (local) chosen = { dir: local, source: 'local-settings' };
    const committedPath = join(projectPath, '.claude', 'settings.json');
    const committed = await readSettingsFile(committedPath);
    if (committed.values && committed.values[SETTING] !== undefined) {
      warnings.push(
        warning(
          'settings-ignored',
          `${SETTING} in the repository's committed .claude/settings.json is ignored: a repository may not move where memory is kept`,
          committedPath,
        ),
      );
    }
  }
  if (!chosen) {
    const user = settingFrom(userSettings, userSettingsPath, []);
    if (user) chosen = { dir: user, source: 'user-settings' };
  }
  return {
    memoryDir: chosen?.dir ?? join(configRoot, 'projects', gitRootSlug ?? slug, 'memory'),
    source: chosen?.source ?? 'default',
    warnings,
  };
}
