import fc from 'fast-check';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CodedError } from '../../../shared/result';
import { ABSENT } from '../../../electron/core/fs/contentHash';
import { resolveInside } from '../../../electron/core/fs/pathContainment';
import { SafeWriter } from '../../../electron/core/fs/safeWriter';
import { snapshotTree } from '../../fixtures/treeSnapshot';
import { recordFigure } from '../support/figureLog';
import { hostilePath } from '../support/hostilePaths';
import { posixLanding } from '../support/pathOracle';
import { atScale, timeoutAtScale } from '../support/reliabilityScale';

/** Names the file system itself will not take: too long, or not valid for it. */
const FILE_SYSTEM_REFUSALS = new Set(['ENAMETOOLONG', 'EINVAL', 'EILSEQ']);

const sandbox = realpathSync(mkdtempSync(join(tmpdir(), 'ccmem-safe-paths-')));
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

describe("the safe writer's containment against the oracle", () => {
  it(
    'resolves a relative path only when it lands strictly inside the memory folder, and exactly where the oracle says',
    () => {
      const root = join(sandbox, 'projects', 'p', 'memory');
      let tried = 0;
      fc.assert(
        fc.property(hostilePath(['memory', 'p', 'projects', 'MEMORY.md']), (candidate) => {
          tried++;
          const resolved = resolveInside(root, candidate);
          if (resolved === null) return;
          const landing = posixLanding(root, candidate);
          expect(landing.kind, JSON.stringify(candidate)).toBe('inside');
          if (landing.kind === 'inside') expect(resolved, JSON.stringify(candidate)).toBe(join(root, ...landing.segments));
          expect(resolved.startsWith(root + sep)).toBe(true);
        }),
        { numRuns: atScale(3_000, 100_000) },
      );
      recordFigure('badInputs', { tried }, 'paths');
      // Liveness: ordinary names are accepted.
      expect(resolveInside(root, 'notes/a.md')).toBe(join(root, 'notes', 'a.md'));
    },
    timeoutAtScale(20_000, 600_000),
  );

  it(
    'writes nothing outside the memory folder and nothing through a symlink, whatever name it is given',
    async () => {
      const outside = join(sandbox, 'outside');
      mkdirSync(outside, { recursive: true });
      writeFileSync(join(outside, 'target.md'), 'outside, must not change\n');
      const root = join(sandbox, 'writes', 'memory');
      mkdirSync(join(root, 'sub'), { recursive: true });
      // Ways out that exist on disk: a symlinked folder, a symlinked file, a dangling symlink, a sibling with a look-alike name.
      symlinkSync(outside, join(root, 'linked'));
      symlinkSync(join(outside, 'target.md'), join(root, 'evil.md'));
      symlinkSync(join(outside, 'created-through-dangling.md'), join(root, 'dangling.md'));
      mkdirSync(join(sandbox, 'writes', 'memory-evil'), { recursive: true });
      const outsideBefore = await snapshotTree(outside);
      const siblingBefore = await snapshotTree(join(sandbox, 'writes', 'memory-evil'));
      const realRoot = await realpath(root);
      const writer = new SafeWriter();
      let tried = 0;
      let escaped = 0;
      const names = fc.oneof(
        hostilePath(['linked', 'evil.md', 'dangling.md', 'sub', 'memory', 'memory-evil', 'outside', 'target.md']).map(
          (path) => `${path}.md`,
        ),
        fc.constantFrom(
          'linked/target.md',
          'linked/new.md',
          'evil.md',
          'dangling.md',
          'sub/../linked/x.md',
          '../memory-evil/x.md',
          '../outside/target.md',
        ),
      );
      await fc.assert(
        fc.asyncProperty(names, async (name) => {
          tried++;
          let written: string | null = null;
          try {
            written = (await writer.write(root, name, `written as ${name}\n`, ABSENT)).absolutePath;
          } catch (error) {
            // A typed refusal (a CONFLICT means an earlier run wrote that name), or the file system's own refusal of the name.
            const refusal = error instanceof CodedError || FILE_SYSTEM_REFUSALS.has((error as NodeJS.ErrnoException).code ?? '');
            expect(refusal, String(error).slice(0, 300)).toBe(true);
          }
          if (written !== null) {
            const real = await realpath(written);
            const inside = real.startsWith(realRoot + sep);
            if (!inside) escaped++;
            expect(inside, `${JSON.stringify(name)} landed at ${real}`).toBe(true);
            expect(posixLanding(root, name).kind, JSON.stringify(name)).toBe('inside');
          }
        }),
        { numRuns: atScale(300, 5_000) },
      );
      recordFigure('badInputs', { tried }, 'paths');
      recordFigure('outOfRootWrites', { writes: escaped, attempts: tried });
      expect(await snapshotTree(outside)).toEqual(outsideBefore);
      expect(await snapshotTree(join(sandbox, 'writes', 'memory-evil'))).toEqual(siblingBefore);
      expect(escaped).toBe(0);
    },
    timeoutAtScale(60_000, 1_800_000),
  );
});
