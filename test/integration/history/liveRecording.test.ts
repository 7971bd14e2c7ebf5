import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HistoryService } from '../../../electron/core/history/HistoryService';
import { HistoryStore } from '../../../electron/core/history/HistoryStore';
import type { HomeService } from '../../../electron/core/home/HomeService';
import type { LiveHome } from '../../../electron/core/liveHome';
import { createDreamScenario, simulateDream, type DreamScenario } from './dreamSimulation';
import { startWatchedHome } from '../../fixtures/watchedHome';
import { ChangeSetWriter } from '../../../electron/core/history/changeSetWriter';

let scenario: DreamScenario;
let home: HomeService;
let live: LiveHome;
let history: HistoryService;

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

function until<T>(probe: () => Promise<T | null>, timeoutMs = 8000): Promise<T> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const tick = async () => {
      const value = await probe();
      if (value !== null) return resolve(value);
      if (Date.now() - started > timeoutMs) return reject(new Error('timed out'));
      setTimeout(() => void tick(), 100);
    };
    void tick();
  });
}

beforeEach(async () => {
  scenario = await createDreamScenario();
  let dataDir: string;
  ({ home, live, dataDir } = await startWatchedHome(scenario.home, { shell: 'web', readOnly: false }));
  const store = new HistoryStore(join(dataDir, 'history'));
  history = new HistoryService({
    home,
    store,
    historyDir: join(dataDir, 'history'),
    live,
    writer: new ChangeSetWriter({ history: store, onOwnWrite: (path) => live.expectOwnWrite(path) }),
    settleMs: 300,
  });
  history.start();
  await until(async () => ((await history.status()).versionCount > 0 ? true : null));
});

afterEach(async () => {
  await history.dispose();
  await live.dispose();
  home.dispose();
  await scenario.home.cleanup();
});

const folder = () => ({ kind: 'project' as const, configRoot: scenario.home.root, slug: scenario.project.slug });

describe('recording while the app runs', () => {
  it('keeps a version for every watcher event, even when the file changes again before recording settles', async () => {
    const name = scenario.names[0];
    const path = join(scenario.project.memoryDir, name);
    await writeFile(path, 'first rewrite\n');
    // Long enough for the watcher to deliver the event, shorter than the settle delay.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await writeFile(path, 'second rewrite\n');
    const versions = await until(async () => {
      const list = await history.listFileVersions(folder(), name);
      return list.some((v) => v.after === sha('second rewrite\n')) ? list : null;
    });
    expect(versions.map((v) => v.after)).toContain(sha('first rewrite\n'));
  });

  it('records a dream that happens while watching as one dream change set, and its own revert not as an outside change', async () => {
    await simulateDream(scenario, { improved: false });
    const dream = await until(async () => {
      const page = await history.listChangeSets({});
      const found = page.changeSets.find((c) => c.cause === 'dream');
      return found && found.totals.deleted === 5 && found.totals.modified === 21 ? found : null;
    });
    expect((await history.listChangeSets({})).changeSets).toHaveLength(1);
    const result = await history.revert(dream.id);
    expect(result.applied).toBe(true);
    // Give the watcher time to (not) report our own writes.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await history.recorder.flush();
    const causes = (await history.listChangeSets({})).changeSets.map((c) => c.cause);
    expect(causes.sort()).toEqual(['app-edit', 'dream']);
  });
});
