import fc from 'fast-check';
import { relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveInside } from '../../../electron/core/fs/pathContainment';

const ROOT = resolve('/tmp/ccmem-root/memory');
const segment = fc.oneof(fc.constantFrom('..', '.', '', 'a', 'b.md', '..a', 'a..', '~', 'C:', '\\', '/'), fc.string({ maxLength: 6 }));

describe('resolveInside', () => {
  it('keeps ordinary relative paths', () => {
    expect(resolveInside(ROOT, 'team/a.md')).toBe(`${ROOT}${sep}team${sep}a.md`);
    expect(resolveInside(ROOT, './a/../b.md')).toBe(`${ROOT}${sep}b.md`);
  });

  it.each(['../x.md', '/etc/passwd', 'a/../../x.md', '', '.', 'a/..', 'a\0.md', 'C:/x.md'])('refuses %j', (path) => {
    expect(resolveInside(ROOT, path)).toBeNull();
  });

  it('never yields a path outside the root, whatever the input (property)', () => {
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 8 }), fc.constantFrom('/', '\\'), (parts, joiner) => {
        const result = resolveInside(ROOT, parts.join(joiner));
        if (result === null) return;
        expect(result.startsWith(ROOT + sep)).toBe(true);
        expect(relative(ROOT, result).split(sep)).not.toContain('..');
        expect(result).not.toContain('\0');
      }),
      { numRuns: 2000 },
    );
  });
});
