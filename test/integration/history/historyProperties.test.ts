import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createScenarioHome } from '../../fixtures/scenarioHome';
import { listMemoryFiles } from '../../../electron/core/history/memoryFileSet';
import { openHistory, type OpenHistory } from './historyFixtures';

const FILES = ['MEMORY.md', 'feedback_a.md', 'team/reference_b.md'];

type Step =
  | { readonly kind: 'write'; readonly file: number; readonly bytes: Uint8Array }
  | { readonly kind: 'delete'; readonly file: number }
  | { readonly kind: 'restart' }
  | { readonly kind: 'restore'; readonly pick: number };

const content = fc.oneof(
  fc.uint8Array({ maxLength: 64 }),
  fc.string({ unit: 'grapheme', maxLength: 80 }).map((s) => new TextEncoder().encode(s)),
  fc.constantFrom('---\nname: x\r\n---\r\nbody\r\n', '\ufeffBOM first\n', '').map((s) => new TextEncoder().encode(s)),
);
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('write' as const), file: fc.nat(FILES.length - 1), bytes: content }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), file: fc.nat(FILES.length - 1) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'restart' as const }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('restore' as const), pick: fc.nat() }) },
);

type State = ReadonlyMap<string, Buffer>;

function sha(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

async function readState(memoryDir: string): Promise<State> {
  const state = new Map<string, Buffer>();
  for (const file of (await listMemoryFiles(memoryDir)).files) state.set(file.path, await readFile(file.absolutePath));
  return state;
}

describe('history over any sequence of edits, deletes, outside changes and restarts', () => {
  it('can restore every state that existed, byte for byte', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 10 }), async (steps) => {
        const home = await createScenarioHome({ prefix: 'ccmem-history-prop-' });
        const project = home.project(home.workPath('app'));
        await project.memoryIndex('- [A](feedback_a.md) — a\n');
        let opened: OpenHistory = openHistory(home);
        const folder = { kind: 'project' as const, configRoot: home.root, slug: project.slug };
        const states: State[] = [];
        const observe = async () => {
          await opened.history.recordNow();
          states.push(await readState(project.memoryDir));
        };
        try {
          await observe();
          for (const s of steps) {
            if (s.kind === 'write') {
              const path = join(project.memoryDir, FILES[s.file]);
              await mkdir(dirname(path), { recursive: true });
              await writeFile(path, s.bytes);
            } else if (s.kind === 'delete') {
              await rm(join(project.memoryDir, FILES[s.file]), { force: true });
            } else if (s.kind === 'restart') {
              await opened.close();
              opened = openHistory(home);
            } else {
              const versions = states.flatMap((state) => [...state].map(([path, bytes]) => ({ path, bytes })));
              const chosen = versions[s.pick % versions.length];
              if (chosen) await opened.history.restore(folder, chosen.path, sha(chosen.bytes));
            }
            await observe();
          }
          // Every file of every state seen comes back exactly.
          for (const state of states) {
            for (const [path, bytes] of state) {
              await opened.history.restore(folder, path, sha(bytes));
              expect((await readFile(join(project.memoryDir, path))).equals(bytes)).toBe(true);
              await opened.history.recordNow();
            }
          }
        } finally {
          await opened.close();
          await home.cleanup();
        }
      }),
      { numRuns: 12 },
    );
  }, 120_000);
});
