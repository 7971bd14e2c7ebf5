import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchHit } from '../../../shared/model/search';
import { autoMemoryRoot } from '../../../electron/core/changes/writeRoot';
import type { Engine } from '../../../electron/core/engine';
import { createScenarioHome, type ProjectBuilder, type ScenarioHome } from '../../fixtures/scenarioHome';
import { seededUuid } from '../../fixtures/sessionLines';
import { createTestEngine } from '../../fixtures/testEngine';
import { userPrompt } from '../../fixtures/transcriptLines';

const WORD = 'osprey';

describe('the app’s search keeps its listing and follows the watchers and its own writes', () => {
  let home: ScenarioHome;
  let project: ProjectBuilder;
  let engine: Engine;

  async function search(): Promise<string[]> {
    const hits: SearchHit[] = [];
    const finished = new Promise<void>((resolve) => {
      const stopHits = engine.search.onDidFindHits((event) => hits.push(...event.hits));
      const stopDone = engine.search.onDidFinish(() => {
        stopHits();
        stopDone();
        resolve();
      });
    });
    engine.search.start(WORD);
    await finished;
    return hits.map((hit) => `${hit.path}:${hit.line}`);
  }

  /** Resolves once the engine's watcher has reported `path`. */
  function reported(path: string): Promise<void> {
    return new Promise((resolve) => {
      const stop = engine.live!.onDidChange((changes) => {
        if (!changes.some((change) => change.path === path)) return;
        stop();
        resolve();
      });
    });
  }

  beforeAll(async () => {
    home = await createScenarioHome();
    project = home.project(home.workPath('birds'));
    const first = seededUuid('kept-first');
    await project.rawFile(`${first}.jsonl`, `${userPrompt(`an ${WORD}`, { sessionId: first })}\n`, { mtime: '2026-05-01T00:00:00.000Z' });
    await project.memory('MEMORY.md', '# Memory\n', { mtime: '2026-05-01T00:00:00.000Z' });
    engine = await createTestEngine(home, { watch: true });
    await engine.ready;
  });
  afterAll(async () => {
    await engine.dispose();
    await home.cleanup();
  });

  it('finds a session Claude Code wrote after the last search, newest first', async () => {
    const before = await search();
    expect(before).toHaveLength(1);
    const second = seededUuid('kept-second');
    const path = join(project.dir, `${second}.jsonl`);
    const seen = reported(path);
    await project.rawFile(`${second}.jsonl`, `${userPrompt(`another ${WORD}`, { sessionId: second })}\n`);
    await seen;
    expect(await search()).toEqual([`${path}:1`, ...before]);
  });

  it('finds a memory file the app itself wrote, which the watchers pass over', async () => {
    const before = await search();
    const root = autoMemoryRoot(project.memoryDir);
    const current = await engine.writer.readCurrent(root, 'birds.md');
    await engine.writer.apply({
      root,
      changes: [{ path: 'birds.md', base: current.hash, after: `# Birds\n\nThe ${WORD} nests here.\n` }],
      cause: 'app-edit',
      summary: 'a note on birds',
    });
    expect(await search()).toEqual([`${join(project.memoryDir, 'birds.md')}:3`, ...before]);
  });
});
