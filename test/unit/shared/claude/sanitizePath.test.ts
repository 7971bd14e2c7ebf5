import { describe, expect, it } from 'vitest';
import { MAX_SANITIZED_LENGTH, sanitizePathPrefix, slugDisplayName, slugMatchesPath } from '../../../../shared/claude/sanitizePath';
import { djb2Base36, nodeSlugFor } from '../../../fixtures/scenarioHome';

describe('sanitizePathPrefix', () => {
  it.each([
    ['/Users/tachikawa_eiji/EijiCode/UTAGE3.0/utage3', '-Users-tachikawa-eiji-EijiCode-UTAGE3-0-utage3'],
    ['X:\\03_ACG\\Custom_Addons', 'X--03-ACG-Custom-Addons'],
    ['D:\\OneDrive\\16 - Obsidian\\01_Claude_Home', 'D--OneDrive-16---Obsidian-01-Claude-Home'],
    ['C:\\Users\\eduar\\.claude', 'C--Users-eduar--claude'],
    ['/home/vwestberg', '-home-vwestberg'],
    ['/home/vwestberg/Claude', '-home-vwestberg-Claude'],
    ['/a-b/c.d e_f', '-a-b-c-d-e-f'],
  ])('%s → %s', (path, slug) => {
    expect(sanitizePathPrefix(path)).toBe(slug);
  });

  it('turns every UTF-16 code unit outside [A-Za-z0-9] into one dash: é and 中 one each, an emoji two', () => {
    expect(sanitizePathPrefix('/tmp/café')).toBe('-tmp-caf-');
    expect(sanitizePathPrefix('/tmp/中文')).toBe('-tmp---');
    expect(sanitizePathPrefix('/tmp/😀')).toBe('-tmp---');
    expect(sanitizePathPrefix('/tmp/a😀b')).toBe('-tmp-a--b');
    expect(sanitizePathPrefix('😀')).toHaveLength(2);
  });

  it('does not collapse runs of separators or trim anything', () => {
    expect(sanitizePathPrefix('//a//')).toBe('--a--');
    expect(sanitizePathPrefix('')).toBe('');
  });
});

describe('slugMatchesPath', () => {
  it('matches short paths exactly', () => {
    expect(slugMatchesPath('-home-vwestberg', '/home/vwestberg')).toBe(true);
    expect(slugMatchesPath('X--03-ACG-Custom-Addons', 'X:\\03_ACG\\Custom_Addons')).toBe(true);
    expect(slugMatchesPath('D--OneDrive-16---Obsidian-01-Claude-Home', 'D:\\OneDrive\\16 - Obsidian\\01_Claude_Home')).toBe(true);
    expect(slugMatchesPath('-home-vwestberg-', '/home/vwestberg')).toBe(false);
    expect(slugMatchesPath('-home-vwestberg', '/home/vwestberg/x')).toBe(false);
    // Lossy by design: different paths collide on one slug (anthropics/claude-code #7009).
    expect(slugMatchesPath('-a-b-c', '/a_b/c')).toBe(true);
    expect(slugMatchesPath('-a-b-c', '/a/b.c')).toBe(true);
  });

  it('matches a 200-character slug exactly, without any hash', () => {
    const path = `/${'a'.repeat(MAX_SANITIZED_LENGTH - 1)}`;
    expect(sanitizePathPrefix(path)).toHaveLength(MAX_SANITIZED_LENGTH);
    expect(slugMatchesPath(sanitizePathPrefix(path), path)).toBe(true);
    expect(slugMatchesPath(`${sanitizePathPrefix(path)}-abc`, path)).toBe(false);
  });

  describe('paths longer than 200 sanitized characters', () => {
    const path = `/home/dev/${'very-long-folder-name/'.repeat(12)}project`;
    const prefix = sanitizePathPrefix(path).slice(0, MAX_SANITIZED_LENGTH);

    it('is really longer than the limit', () => {
      expect(sanitizePathPrefix(path).length).toBeGreaterThan(MAX_SANITIZED_LENGTH);
    });

    it('matches the Node (djb2) form, a Bun-like hash and any other suffix by the 200-char prefix', () => {
      expect(nodeSlugFor(path)).toBe(`${prefix}-${djb2Base36(path)}`);
      expect(slugMatchesPath(nodeSlugFor(path), path)).toBe(true);
      expect(slugMatchesPath(`${prefix}-1v7ka0p3xq9zz`, path)).toBe(true);
      expect(slugMatchesPath(`${prefix}-x`, path)).toBe(true);
    });

    it('does not match without the dash, with a different prefix, or the full untruncated string', () => {
      expect(slugMatchesPath(prefix, path)).toBe(false);
      expect(slugMatchesPath(`${prefix}x1234`, path)).toBe(false);
      expect(slugMatchesPath(`${prefix.slice(0, -1)}Z-1234`, path)).toBe(false);
      expect(slugMatchesPath(sanitizePathPrefix(path), path)).toBe(false);
    });
  });

  it('djb2 base36 matches the reference implementation on a known value', () => {
    // djb2("abc") = 96354 → base36 "22ci"
    expect(djb2Base36('abc')).toBe((96354).toString(36));
  });
});

describe('slugDisplayName', () => {
  it('guesses a readable path for display only', () => {
    expect(slugDisplayName('X--03-ACG-Custom-Addons')).toBe('X:\\03\\ACG\\Custom\\Addons');
    expect(slugDisplayName('-home-vwestberg-Claude')).toBe('/home/vwestberg/Claude');
    expect(slugDisplayName('sample-project')).toBe('sample-project');
  });
});
