import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export const APP_FOLDER_NAME = 'claude-memory-manager';

/**
 * Where the CLI and the web shell keep the app's own data (the Electron shell uses app.getPath('userData')):
 * `CCMEM_DATA_DIR`, else `$XDG_DATA_HOME/claude-memory-manager`, else the platform's usual place.
 */
export function defaultDataDir(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
  home = homedir(),
): string {
  if (env.CCMEM_DATA_DIR?.trim()) return resolve(env.CCMEM_DATA_DIR.trim());
  if (env.XDG_DATA_HOME?.trim()) return join(env.XDG_DATA_HOME.trim(), APP_FOLDER_NAME);
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', APP_FOLDER_NAME);
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), APP_FOLDER_NAME);
  return join(home, '.local', 'share', APP_FOLDER_NAME);
}
