import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configRootsFromEnv } from '../../../../electron/core/layout/configRoots';

const HOME = '/home/dev';

describe('configRootsFromEnv', () => {
  it('defaults to ~/.claude', () => {
    expect(configRootsFromEnv({}, HOME)).toEqual([{ path: '/home/dev/.claude', source: 'default' }]);
    expect(configRootsFromEnv({ CLAUDE_CONFIG_DIR: '   ' }, HOME)).toEqual([{ path: '/home/dev/.claude', source: 'default' }]);
    expect(configRootsFromEnv({ CLAUDE_CONFIG_DIR: ' , ,' }, HOME)).toEqual([{ path: '/home/dev/.claude', source: 'default' }]);
  });

  it('takes one CLAUDE_CONFIG_DIR', () => {
    expect(configRootsFromEnv({ CLAUDE_CONFIG_DIR: '/srv/claude' }, HOME)).toEqual([{ path: '/srv/claude', source: 'CLAUDE_CONFIG_DIR' }]);
  });

  it('accepts a comma list, trims, expands ~/, resolves and dedupes (first wins, order kept)', () => {
    const roots = configRootsFromEnv(
      { CLAUDE_CONFIG_DIR: ' /a/claude , ~/.claude-work,/b/claude/,/a/claude,/a/x/../claude,, relative ' },
      HOME,
    );
    expect(roots).toEqual([
      { path: '/a/claude', source: 'CLAUDE_CONFIG_DIR' },
      { path: '/home/dev/.claude-work', source: 'CLAUDE_CONFIG_DIR' },
      { path: '/b/claude', source: 'CLAUDE_CONFIG_DIR' },
      { path: resolve('relative'), source: 'CLAUDE_CONFIG_DIR' },
    ]);
  });

  it('NFC-normalises paths', () => {
    const [root] = configRootsFromEnv({ CLAUDE_CONFIG_DIR: '/srv/cafe\u0301' }, HOME);
    expect(root.path).toBe('/srv/caf\u00e9');
    const defaults = configRootsFromEnv({}, '/home/jose\u0301');
    expect(defaults[0].path).toBe(join('/home/jos\u00e9', '.claude'));
  });
});
