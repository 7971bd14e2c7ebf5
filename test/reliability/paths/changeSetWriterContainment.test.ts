import fc from 'fast-check';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CodedError } from '../../../shared/result';
import { ChangeSetWriter } from '../../../electron/core/changes/changeSetWriter';
import { HistoryStore } from '../../../electron/core/changes/HistoryStore';
import { agentMemoryRoot, autoMemoryRoot, type WriteRoot } from '../../../electron/core/changes/writeRoot';
import { recordFigure } from '../support/figureLog';
import { hostilePath } from '../support/hostilePaths';
import { OutsideTree } from '../support/outsideTree';
import { atScale, timeoutAtScale } from '../support/reliabilityScale';

/** Names the file system itself will not take: too long, or not valid for it. */
const FILE_SYSTEM_REFUSALS = new Set(['ENAMETOOLONG', 'EINVAL', 'EILSEQ']);

const sandbox = realpathSync(mkdtempSync(join(tmpdir(), 'ccmem-writer-paths-')));
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

function file(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

/**
 * A project with roots of every kind: one that lies inside it (holding symlinks out at every level below it), one
 * reached through a symlinked folder above it, one that is itself a symlink out, an auto memory folder that links
 * out, and a settings-like root that takes one listed file. Beside them: a sibling folder and a tree outside.
 */
function buildWorld(): { roots: WriteRoot[]; watched: string[]; names: string[] } {
  const outside = join(sandbox, 'outside');
  const project = join(sandbox, 'project');
  for (const name of ['a.md', 'MEMORY.md', 'sub/b.md', 'team/t.md', 'settings.json']) file(join(outside, name), `outside ${name}\n`);
  file(join(project, 'sibling', 'c.md'), 'sibling\n');
  const contained = join(project, '.claude', 'agent-memory', 'ok');
  for (const name of ['MEMORY.md', 'note.md', 'sub/deep.md', 'team/t.md']) file(join(contained, name), `inside ${name}\n`);
  symlinkSync(outside, join(contained, 'linked'));
  symlinkSync(join(outside, 'a.md'), join(contained, 'linkfile.md'));
  symlinkSync(join(outside, 'created-through-a-dangling-link.md'), join(contained, 'dangling.md'));
  symlinkSync(join(contained, 'sub'), join(contained, 'inner'));
  symlinkSync(join(project, 'sibling'), join(contained, 'to-sibling'));
  mkdirSync(join(project, '.claude'), { recursive: true });
  symlinkSync(outside, join(project, '.claude', 'agent-memory-local'));
  symlinkSync(join(outside, 'sub'), join(project, 'rootlink'));
  mkdirSync(join(project, 'auto'), { recursive: true });
  symlinkSync(outside, join(project, 'auto', 'memory'));
  const settings = join(project, 'settings-home');
  file(join(settings, 'settings.json'), '{}\n');
  const roots: WriteRoot[] = [
    agentMemoryRoot(contained, project),
    agentMemoryRoot(join(project, '.claude', 'agent-memory-local', 'sub'), project),
    agentMemoryRoot(join(project, '.claude', 'agent-memory-local', 'not-yet'), project),
    agentMemoryRoot(join(project, 'rootlink'), project),
    autoMemoryRoot(join(project, 'auto', 'memory')),
    { dir: settings, boundary: project, writable: { kind: 'listed', paths: ['settings.json'] }, shared: null },
  ];
  const names = ['linked', 'linkfile.md', 'dangling.md', 'inner', 'to-sibling', 'sub', 'team', 'MEMORY.md', 'note.md', 'settings.json'];
  return { roots, watched: [outside, join(project, 'sibling')], names };
}

describe('the change-set writer keeps every read and write inside its root', () => {
  it(
    'whatever the path and the root: nothing outside is read or written, and what is written lands inside',
    async () => {
      const { roots, watched, names } = buildWorld();
      const outside = await OutsideTree.watch(watched);
      const writer = new ChangeSetWriter({ history: new HistoryStore(join(sandbox, 'data', 'history')) });
      const realRoots = new Map<string, string>();
      let tried = 0;
      let escaped = 0;
      const paths = fc.oneof(
        hostilePath(names),
        hostilePath(names).map((path) => `${path}.md`),
        fc.constantFrom(
          'linked/a.md',
          'linked/new.md',
          'linkfile.md',
          'dangling.md',
          'inner/deep.md',
          'to-sibling/c.md',
          'sub/../linked/a.md',
          '../../../sibling/c.md',
          '..\\..\\outside\\a.md',
          'C:\\outside\\a.md',
          '\\\\?\\C:\\outside\\a.md',
          'note\n.md',
          `${'n'.repeat(300)}.md`,
          'a\0b.md',
        ),
      );
      const cases = fc.record({
        root: fc.constantFrom(...roots),
        path: paths,
        operation: fc.constantFrom('read', 'write', 'delete'),
      });
      await fc.assert(
        fc.asyncProperty(cases, async ({ root, path, operation }) => {
          tried++;
          let landed: string | null = null;
          try {
            const current = await writer.readCurrent(root, path);
            if (operation !== 'read') {
              const after = operation === 'write' ? `written as ${JSON.stringify(path)}\n` : null;
              await writer.apply({ root, changes: [{ path, base: current.hash, after }], cause: 'app-edit', summary: 'property' });
              if (after !== null) landed = join(root.dir, path);
            }
          } catch (error) {
            // A typed refusal (a CONFLICT means the file changed under a delete), or the file system's own refusal of the name.
            const refusal = error instanceof CodedError || FILE_SYSTEM_REFUSALS.has((error as NodeJS.ErrnoException).code ?? '');
            expect(refusal, String(error).slice(0, 300)).toBe(true);
          }
          if (landed !== null) {
            let realRoot = realRoots.get(root.dir);
            if (!realRoot) realRoots.set(root.dir, (realRoot = await realpath(root.dir)));
            const real = await realpath(landed);
            const inside = real.startsWith(realRoot + sep) && realRoot.startsWith((await realpath(root.boundary)) + sep);
            if (!inside) escaped++;
            expect(inside, `${JSON.stringify(path)} landed at ${real}`).toBe(true);
          }
        }),
        { numRuns: atScale(400, 5_000) },
      );
      const access = await outside.accesses();
      recordFigure('badInputs', { tried }, 'paths');
      recordFigure('outOfRootWrites', { writes: escaped + access.writes.length, attempts: tried });
      recordFigure('outOfRootReads', { reads: access.reads.length, attempts: tried });
      expect(access).toEqual({ reads: [], writes: [] });
      expect(escaped).toBe(0);
      // Liveness: an ordinary change lands, and the oracle sees a read where there is one.
      const contained = roots[0];
      const note = await writer.readCurrent(contained, 'note.md');
      await writer.apply({
        root: contained,
        changes: [{ path: 'note.md', base: note.hash, after: 'changed\n' }],
        cause: 'app-edit',
        summary: 'x',
      });
      expect((await writer.readCurrent(contained, 'note.md')).bytes?.toString()).toBe('changed\n');
      expect(await outside.seesARead()).toBe(true);
    },
    timeoutAtScale(120_000, 1_800_000),
  );
});
