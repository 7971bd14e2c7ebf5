import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../../electron/core/engine';
import type { SessionCatalogEntry, SessionUpdate } from '../../../shared/model/catalog';
import type { HomeSnapshot } from '../../../shared/model/home';
import { createScenarioHome, type ProjectBuilder, type ScenarioHome } from '../../fixtures/scenarioHome';
import { createTestEngine, createTestHomeService } from '../../fixtures/testEngine';

let home: ScenarioHome;
let newest: ProjectBuilder;
const engines: Engine[] = [];

/** The timeline as the renderer's store keeps it: the listing, then each `sessionUpdated` on top. */
class Timeline {
  private readonly rows = new Map<string, SessionCatalogEntry>();
  apply(update: SessionUpdate): void {
    for (const entry of update.updated) this.rows.set(`${entry.slug}\0${entry.sessionId}`, entry);
    for (const key of update.removed) this.rows.delete(`${key.slug}\0${key.sessionId}`);
  }
  of(slug: string): SessionCatalogEntry[] {
    return [...this.rows.values()].filter((row) => row.slug === slug).sort((a, b) => a.sessionId.localeCompare(b.sessionId));
  }
  all(): SessionCatalogEntry[] {
    return [...this.rows.values()];
  }
}

beforeEach(async () => {
  home = await createScenarioHome({ prefix: 'ccmem-firstpage-' });
  for (const name of ['shop', 'blog', 'docs']) {
    const older = home.project(home.workPath(name));
    await older.session({ title: `${name} work`, start: '2025-01-01T10:00:00Z' });
  }
  newest = home.project(home.workPath('app'));
  await newest.session({ title: 'Login form', start: '2025-03-01T10:00:00Z' });
  await newest.session({ title: 'Signup form', start: '2025-03-02T10:00:00Z' });
});

afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.dispose();
  await home.cleanup();
});

describe('the app’s first start (empty app data)', () => {
  it('shows the newest project and its sessions while the rest of the home is still being found, and ends as a full discovery', async () => {
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    // Discovery stops after its first part until the test lets it go on: what the UI has by then came before the rest.
    const engine = await createTestEngine(home, { shell: 'web', readOnly: true, watch: true, afterFirstPart: () => held });
    engines.push(engine);
    const pushedHomes: HomeSnapshot[] = [];
    const updates: SessionUpdate[] = [];
    engine.subscribe((event, payload) => {
      if (event === 'homeChanged') pushedHomes.push(payload as HomeSnapshot);
      if (event === 'sessionUpdated') updates.push(payload as SessionUpdate);
    });

    const first = await engine.handlers.getHome({});
    expect(first.discovering).toEqual({ projectsRead: 1, projectsFound: 4 });
    expect(first.projects.map((project) => project.slug)).toEqual([newest.slug]);
    const timeline = new Timeline();
    const listing = await engine.handlers.getSessionCatalog({});
    timeline.apply({ updated: listing.sessions, removed: [] });
    expect(listing.building).toBe(true);
    const caughtUp = (): Timeline => {
      for (const update of updates.splice(0)) timeline.apply(update);
      return timeline;
    };
    await expect.poll(() => caughtUp().of(newest.slug).length).toBe(2);
    expect(new Set(timeline.of(newest.slug).map((row) => row.title))).toEqual(new Set(['Login form', 'Signup form']));
    // Still held: nothing told the UI the home was whole.
    expect(pushedHomes.every((snapshot) => snapshot.discovering !== null)).toBe(true);

    release();
    await expect.poll(() => pushedHomes.at(-1)?.discovering, { timeout: 10_000 }).toBeNull();
    const expected = await createTestHomeService(home).getHome();
    expect(pushedHomes.at(-1)?.projects).toEqual(expected.projects);
    await engine.catalog.buildNow();
    // The rows made from discovery's reads are all replaced by what the catalog read.
    expect(
      caughtUp()
        .all()
        .filter((row) => row.provisional),
    ).toEqual([]);
    const catalog = engine.catalog.catalog.list();
    expect(
      timeline
        .all()
        .map((row) => row.sessionId)
        .sort(),
    ).toEqual(catalog.map((entry) => entry.sessionId).sort());
    expect(catalog).toHaveLength(5);
  });

  it('lists every session discovery read when the window asks after discovery is done, until the build reads each', async () => {
    // The web shell's way: the engine starts with the command, the browser opens later, when the home is found.
    const engine = await createTestEngine(home, { shell: 'web', readOnly: true, watch: true });
    engines.push(engine);
    const updates: SessionUpdate[] = [];
    engine.subscribe((event, payload) => {
      if (event === 'sessionUpdated') updates.push(payload as SessionUpdate);
    });
    const whole = await engine.home.getHome();
    expect(whole.discovering).toBeNull();

    const first = await engine.handlers.getSessionCatalog({ limit: 3 });
    expect(first.building).toBe(true);
    expect(first.total).toBe(5);
    expect(first.snapshot).not.toBeNull();
    const rest = await engine.handlers.getSessionCatalog({ snapshot: first.snapshot ?? '', offset: 3, limit: 3 });
    const timeline = new Timeline();
    timeline.apply({ updated: [...first.sessions, ...rest.sessions], removed: [] });
    expect(timeline.all()).toHaveLength(5);
    expect(new Set(timeline.of(newest.slug).map((row) => row.title))).toEqual(new Set(['Login form', 'Signup form']));
    // Read by the build before this listing or not yet: each row is either the catalog's or discovery's.
    const catalogued = new Set(engine.catalog.catalog.list().map((entry) => entry.sessionId));
    for (const row of timeline.all()) expect(row.provisional === true).toBe(!catalogued.has(row.sessionId));

    await engine.catalog.buildNow();
    for (const update of updates.splice(0)) timeline.apply(update);
    expect(timeline.all().filter((row) => row.provisional)).toEqual([]);
    expect(timeline.all()).toHaveLength(5);
  });
});
