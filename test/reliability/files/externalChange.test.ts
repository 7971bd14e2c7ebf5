import fc from 'fast-check';
import { appendFile, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CodedError } from '../../../shared/result';
import type { MemoryConflictDetails } from '../../../shared/memory/memoryReview';
import type { MemoryFolderRef } from '../../../shared/memory/memoryFolderRef';
import { contentHash } from '../../../electron/core/fs/contentHash';
import { HistoryStore } from '../../../electron/core/changes/HistoryStore';
import { HomeService } from '../../../electron/core/home/HomeService';
import { MemoryReviewService } from '../../../electron/core/memory/MemoryReviewService';
import { createScenarioHome, topicFile, type ProjectBuilder, type ScenarioHome } from '../../fixtures/scenarioHome';
import { recordFigure } from '../support/figureLog';
import { atScale, timeoutAtScale } from '../support/reliabilityScale';
import { ChangeSetWriter } from '../../../electron/core/changes/changeSetWriter';

type ExternalChange = 'rewrite in place' | 'temp and rename' | 'append' | 'delete' | 'touch only' | 'same bytes rewritten';
type AppChange = 'save' | 'prune' | 'rename';

const externalChanges: readonly ExternalChange[] = [
  'rewrite in place',
  'temp and rename',
  'append',
  'delete',
  'touch only',
  'same bytes rewritten',
];
const appChanges: readonly AppChange[] = ['save', 'prune', 'rename'];

describe('a change on disk between the app reading a file and saving it', () => {
  let home: ScenarioHome;
  let project: ProjectBuilder;
  let service: MemoryReviewService;
  let ref: MemoryFolderRef;

  beforeAll(async () => {
    home = await createScenarioHome({ prefix: 'ccmem-external-' });
    project = home.project(home.workPath('raced'));
    await project.session({ turns: 1 });
    const homeService = new HomeService({
      roots: [{ path: home.root, source: 'CLAUDE_CONFIG_DIR' }],
      dataDir: join(home.tmp, 'data'),
      demoHomeSource: null,
      shell: 'cli',
      readOnly: false,
    });
    const writer = new ChangeSetWriter({ history: new HistoryStore(join(home.tmp, 'data', 'history')) });
    service = new MemoryReviewService({ home: homeService, writer, live: null });
    ref = { kind: 'project', configRoot: home.root, slug: project.slug };
  });

  afterAll(async () => {
    service.dispose();
    await home.cleanup();
  });

  async function changeExternally(file: string, kind: ExternalChange, text: string, round: number): Promise<string | null> {
    const external = `${text}Claude Code added line ${round}.\n`;
    switch (kind) {
      case 'rewrite in place':
        await writeFile(file, external);
        return external;
      case 'temp and rename':
        await writeFile(`${file}.cc-tmp`, external);
        await rename(`${file}.cc-tmp`, file);
        return external;
      case 'append':
        await appendFile(file, `Claude Code added line ${round}.\n`);
        return external;
      case 'delete':
        await rm(file);
        return null;
      case 'touch only': {
        const later = new Date((await stat(file)).mtimeMs + 60_000);
        await utimes(file, later, later);
        return text;
      }
      case 'same bytes rewritten':
        await writeFile(file, text);
        return text;
    }
  }

  it(
    'is refused with both versions, and the disk keeps what the other program wrote',
    async () => {
      let detected = 0;
      let recovered = 0;
      let round = 0;
      const problems: string[] = [];
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...externalChanges), fc.constantFrom(...appChanges), async (kind, appChange) => {
          round++;
          const name = `raced_${round}.md`;
          const text = topicFile({ variant: 'flat', name: `raced ${round}`, description: 'd', type: 'project', body: `Body ${round}.\n` });
          const file = await project.memory(name, text);
          const opened = await service.readFile(ref, name);
          const external = await changeExternally(file, kind, text, round);
          const bytesChanged = external !== text;
          let error: unknown = null;
          try {
            if (appChange === 'save') await service.save(ref, { relativePath: name, baseHash: opened.hash, body: 'The app version.\n' });
            if (appChange === 'prune') await service.prune(ref, { relativePath: name, baseHash: opened.hash });
            if (appChange === 'rename') await service.rename(ref, { from: name, to: `moved_${round}.md`, baseHash: opened.hash });
          } catch (caught) {
            error = caught;
          }
          const onDisk = await readFile(file, 'utf8').catch(() => null);
          if (!bytesChanged) {
            // Only the time changed, or the same bytes came back: the app's change is not a conflict.
            if (error !== null) problems.push(`${kind} then ${appChange}: refused without a reason: ${String(error)}`);
            return;
          }
          const isConflict = error instanceof CodedError && error.code === 'CONFLICT';
          if (isConflict) detected++;
          const details = isConflict ? ((error as CodedError).details as MemoryConflictDetails) : null;
          const keptExternal = onDisk === external;
          const toldBoth =
            details !== null &&
            details.currentHash === (external === null ? null : contentHash(external)) &&
            details.baseHash === opened.hash;
          if (isConflict && keptExternal && toldBoth) recovered++;
          else
            problems.push(
              `${kind} then ${appChange}: ${isConflict ? '' : `not refused (${String(error)}); `}disk ${keptExternal ? 'kept' : 'lost'} the external version`,
            );
        }),
        { numRuns: atScale(60, 3_000) },
      );
      recordFigure('conflicts', { detected, recovered, foreignWrites: round });
      recordFigure('badInputs', { tried: round }, 'files');
      expect(problems).toEqual([]);
      expect(recovered).toBe(detected);
    },
    timeoutAtScale(30_000, 1_800_000),
  );
});
