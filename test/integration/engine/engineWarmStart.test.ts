import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../electron/core/engine';
import type { HomeSnapshot } from '../../../shared/model/home';
import { createScenarioHome, type ProjectBuilder, type ScenarioHome } from '../../fixtures/scenarioHome';
import { createTestEngine } from '../../fixtures/testEngine';

let home: ScenarioHome;
let project: ProjectBuilder;
const engines: Engine[] = [];

/** One start of the web shell's engine over the scenario home, with the same app data folder each time. */
async function start(): Promise<Engine> {
  const engine = await createTestEngine(home, { shell: 'web', readOnly: true, watch: true });
  engines.push(engine);
  return engine;
}

function sessionCount(snapshot: HomeSnapshot): number {
  return snapshot.projects.find((p) => p.slug === project.slug)?.sessionCount ?? -1;
}

beforeEach(async () => {
  home = await createScenarioHome({ prefix: 'ccmem-warmstart-' });
  project = home.project(home.workPath('shop'));
  await project.session({ title: 'Before the restart' });
});

afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.dispose();
  await home.cleanup();
});

describe('the engine restarting on the same app data', () => {
  it('shows the last run’s home at once, then pushes the home as it is on disk and follows changes', async () => {
    const first = await start();
    expect(sessionCount(await first.handlers.getHome({}))).toBe(1);
    await first.ready;
    await first.dispose();
    engines.length = 0;
    await project.session({ title: 'While the app was closed' });

    const second = await start();
    const pushed: HomeSnapshot[] = [];
    second.subscribe((event, payload) => {
      if (event === 'homeChanged') pushed.push(payload as HomeSnapshot);
    });
    expect(sessionCount(await second.handlers.getHome({}))).toBe(1);
    await expect.poll(() => pushed.map(sessionCount).at(-1), { timeout: 10_000 }).toBe(2);
    expect(sessionCount(await second.handlers.getHome({}))).toBe(2);

    // Once ready, the watcher follows the home: a session started now shows up too.
    await second.ready;
    await project.session({ title: 'After the restart' });
    await expect.poll(() => pushed.map(sessionCount).at(-1), { timeout: 10_000 }).toBe(3);
  });
});
