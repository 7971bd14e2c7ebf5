import fc from 'fast-check';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isReallyWithin, realPathOf, resolveInside } from '../../../../electron/core/fs/pathContainment';

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

describe('realPathOf and isReallyWithin: where a path really leads', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'ccmem-realpath-')));
    await mkdir(join(dir, 'project', 'sub'), { recursive: true });
    await mkdir(join(dir, 'outside'), { recursive: true });
    await writeFile(join(dir, 'project', 'file.md'), 'x');
    await symlink(join(dir, 'outside'), join(dir, 'project', 'out'));
    await symlink(join(dir, 'project', 'sub'), join(dir, 'project', 'in'));
    await symlink('../outside/not-yet', join(dir, 'project', 'dangling'));
    await symlink('loop-b', join(dir, 'project', 'loop-a'));
    await symlink('loop-a', join(dir, 'project', 'loop-b'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('follows links at every level, also to paths that do not exist yet', async () => {
    const project = join(dir, 'project');
    expect(await realPathOf(join(project, 'sub', 'new', 'x.md'))).toBe(join(project, 'sub', 'new', 'x.md'));
    expect(await realPathOf(join(project, 'out', 'new', 'x.md'))).toBe(join(dir, 'outside', 'new', 'x.md'));
    expect(await realPathOf(join(project, 'in', 'x.md'))).toBe(join(project, 'sub', 'x.md'));
    // A dangling link leads where a write through it would create its target.
    expect(await realPathOf(join(project, 'dangling'))).toBe(join(dir, 'outside', 'not-yet'));
    expect(await realPathOf(join(project, 'dangling', 'deeper.md'))).toBe(join(dir, 'outside', 'not-yet', 'deeper.md'));
    // Under a file, the rest is taken as it is (nothing can be created there).
    expect(await realPathOf(join(project, 'file.md', 'x'))).toBe(join(project, 'file.md', 'x'));
  });

  it('gives up on a loop and a NUL', async () => {
    expect(await realPathOf(join(dir, 'project', 'loop-a', 'x.md'))).toBeNull();
    expect(await realPathOf(join(dir, 'project', 'a\0b'))).toBeNull();
  });

  it('tells a folder inside its boundary from one that leads out', async () => {
    const project = join(dir, 'project');
    expect(await isReallyWithin(project, join(project, 'in', 'x.md'))).toBe(true);
    expect(await isReallyWithin(project, project)).toBe(true);
    expect(await isReallyWithin(project, join(project, 'out', 'x.md'))).toBe(false);
    expect(await isReallyWithin(project, join(project, 'dangling'))).toBe(false);
    expect(await isReallyWithin(project, join(project, 'loop-a'))).toBe(false);
    expect(await isReallyWithin(join(project, 'sub'), join(project, 'sub-sibling'))).toBe(false);
  });
});
