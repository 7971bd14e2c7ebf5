import { describe, expect, it } from 'vitest';
import { pathAndAncestors } from '../../../../shared/claude/pathAncestors';

describe('pathAndAncestors', () => {
  it('lists a POSIX path and every ancestor up to /', () => {
    expect(pathAndAncestors('/a/b/c')).toEqual(['/a/b/c', '/a/b', '/a', '/']);
    expect(pathAndAncestors('/home/dev/repo/packages/api')).toEqual([
      '/home/dev/repo/packages/api',
      '/home/dev/repo/packages',
      '/home/dev/repo',
      '/home/dev',
      '/home',
      '/',
    ]);
  });

  it('ignores trailing separators', () => {
    expect(pathAndAncestors('/a/b/')).toEqual(['/a/b', '/a', '/']);
    expect(pathAndAncestors('/a/b//')).toEqual(['/a/b', '/a', '/']);
  });

  it('handles the root itself', () => {
    expect(pathAndAncestors('/')).toEqual(['/']);
  });

  it('lists a Windows path with backslashes up to the drive root', () => {
    expect(pathAndAncestors('X:\\03_ACG\\Custom_Addons')).toEqual(['X:\\03_ACG\\Custom_Addons', 'X:\\03_ACG', 'X:\\']);
    expect(pathAndAncestors('C:\\Users\\dev\\tool\\')).toEqual(['C:\\Users\\dev\\tool', 'C:\\Users\\dev', 'C:\\Users', 'C:\\']);
  });

  it('keeps a drive root as the drive root (a session started at C:\\)', () => {
    expect(pathAndAncestors('C:\\')).toEqual(['C:\\']);
    expect(pathAndAncestors('c:/')).toEqual(['c:/']);
  });

  it('accepts Windows paths written with forward slashes', () => {
    expect(pathAndAncestors('C:/Users/dev')).toEqual(['C:/Users/dev', 'C:/Users', 'C:/']);
  });

  it('stops at the top of a relative path', () => {
    expect(pathAndAncestors('a/b')).toEqual(['a/b', 'a']);
    expect(pathAndAncestors('a')).toEqual(['a']);
  });
});
