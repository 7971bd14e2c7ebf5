import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentMemoryWatch } from '../../../electron/core/agents/AgentMemoryWatch';
import type { HomeService } from '../../../electron/core/home/HomeService';
import type { LiveHome } from '../../../electron/core/watch/liveHome';
import { createStandardScenario, type StandardScenario } from '../../fixtures/scenarioHome';
import { startWatchedHome } from '../../fixtures/watchedHome';

let scenario: StandardScenario;
let home: HomeService;
let live: LiveHome;
let watch: AgentMemoryWatch;

function nextFolders(predicate: (folders: readonly string[]) => boolean, timeoutMs = 9000): Promise<readonly string[]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no matching agent change')), timeoutMs);
    const stop = watch.onDidChange((folders) => {
      if (!predicate(folders)) return;
      clearTimeout(timer);
      stop();
      resolve(folders);
    });
  });
}

beforeEach(async () => {
  scenario = await createStandardScenario();
  ({ home, live } = await startWatchedHome(scenario.home));
  watch = AgentMemoryWatch.start(home, live);
  await watch.ready;
});

afterEach(async () => {
  await watch.dispose();
  await live.dispose();
  await scenario.home.cleanup();
});

describe('AgentMemoryWatch', () => {
  it('reports project agent memory that Claude Code writes, by agent folder', async () => {
    const changed = nextFolders((folders) => folders.includes(scenario.agents.projectQa.dir));
    await writeFile(join(scenario.agents.projectQa.dir, 'new-topic.md'), '# new\n');
    expect(await changed).toEqual([scenario.agents.projectQa.dir]);
  });

  it('reports a snapshot arriving in the project (a pull) and user-scope memory under the config root', async () => {
    const snapshotDir = join(scenario.webshop.path, '.claude', 'agent-memory-snapshots', 'qa');
    const snapshotSeen = nextFolders((folders) => folders.includes(snapshotDir));
    await mkdir(snapshotDir, { recursive: true });
    await writeFile(join(snapshotDir, 'snapshot.json'), '{"updatedAt":"2026-05-01T00:00:00.000Z"}');
    await snapshotSeen;
    const userSeen = nextFolders((folders) => folders.includes(scenario.agents.userCodeReviewer.dir));
    await writeFile(join(scenario.agents.userCodeReviewer.dir, 'MEMORY.md'), '# changed\n');
    await userSeen;
  });

  it('stays quiet about our own writes and about other files in .claude', async () => {
    let reported: readonly string[] = [];
    watch.onDidChange((folders) => (reported = [...reported, ...folders]));
    const own = join(scenario.agents.projectQa.dir, 'own.md');
    watch.expectOwnWrite(own);
    await writeFile(own, '# ours\n');
    await writeFile(join(scenario.webshop.path, '.claude', 'settings.local.json'), '{}');
    // Well past the watcher's batching window: nothing may have been reported.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(reported).toEqual([]);
    // A later foreign write proves the watcher was listening all along.
    const later = nextFolders((folders) => folders.includes(scenario.agents.projectQa.dir));
    await writeFile(join(scenario.agents.projectQa.dir, 'theirs.md'), '# theirs\n');
    await later;
    expect(reported).toEqual([scenario.agents.projectQa.dir]);
  });
});
