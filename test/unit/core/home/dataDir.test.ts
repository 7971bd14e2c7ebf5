import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { APP_FOLDER_NAME, defaultDataDir } from '../../../../electron/core/home/dataDir';

const HOME = '/home/dev';

describe('defaultDataDir', () => {
  it('CCMEM_DATA_DIR wins and is resolved', () => {
    expect(defaultDataDir({ CCMEM_DATA_DIR: '/data/ccmem', XDG_DATA_HOME: '/xdg' }, 'linux', HOME)).toBe('/data/ccmem');
    expect(defaultDataDir({ CCMEM_DATA_DIR: ' rel/data ' }, 'linux', HOME)).toBe(resolve('rel/data'));
  });

  it('then $XDG_DATA_HOME/claude-memory-manager', () => {
    expect(defaultDataDir({ XDG_DATA_HOME: '/xdg' }, 'darwin', HOME)).toBe('/xdg/claude-memory-manager');
    expect(defaultDataDir({ CCMEM_DATA_DIR: '  ', XDG_DATA_HOME: '/xdg' }, 'linux', HOME)).toBe('/xdg/claude-memory-manager');
  });

  it('then the platform default', () => {
    expect(APP_FOLDER_NAME).toBe('claude-memory-manager');
    expect(defaultDataDir({}, 'linux', HOME)).toBe('/home/dev/.local/share/claude-memory-manager');
    expect(defaultDataDir({}, 'darwin', HOME)).toBe('/home/dev/Library/Application Support/claude-memory-manager');
    expect(defaultDataDir({ APPDATA: '/appdata' }, 'win32', HOME)).toBe(join('/appdata', 'claude-memory-manager'));
    expect(defaultDataDir({}, 'win32', HOME)).toBe(join(HOME, 'AppData', 'Roaming', 'claude-memory-manager'));
  });
});
