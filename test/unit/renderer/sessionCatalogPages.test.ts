import { rm } from 'node:fs/promises';
import { FIRST_LISTING_PAGE } from '../../../shared/model/catalog';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as SessionCatalogStore from '../../../renderer/src/features/sessions/sessionCatalogStore';
import { createScenarioHome, type ScenarioHome } from '../../fixtures/scenarioHome';
import { longListSessionId as idOf, writeLongSessionList } from '../../fixtures/longSessionList';
import { EngineApi } from './support/engineApi';
import { PageWindow } from './support/pageWindow';

/** More than the first page holds, so the listing comes in two pages. */
const SESSIONS = 450;
let home: ScenarioHome;
let engine: EngineApi;
let store: typeof SessionCatalogStore;
/** Session number → transcript path; the higher the number, the newer the session. */
let files: string[] = [];

beforeAll(async () => {
  home = await createScenarioHome({ prefix: 'ccmem-listing-pages-' });
  const project = home.project(home.workPath('shop'));
  files = await writeLongSessionList(project, SESSIONS);
  engine = await EngineApi.start(home);
  // What the last run saved: the listing answers from it at once.
  await engine.engine.catalog.buildNow();
  new PageWindow('#/page=sessions', engine.api).install();
  store = await import('../../../renderer/src/features/sessions/sessionCatalogStore');
});

afterAll(async () => {
  await engine.dispose();
  await home.cleanup();
});

async function heldAnswer(): Promise<{ request: string; release(): void }> {
  for (let waited = 0; engine.held.length === 0; waited += 10) {
    if (waited > 5000) throw new Error('no answer came');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return engine.held.shift()!;
}

async function settled(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 50));
}

describe('the session listing in pages', () => {
  it('shows the newest sessions from the first page, then the rest, without bringing back what changed in between', async () => {
    expect(FIRST_LISTING_PAGE).toBeLessThan(SESSIONS);
    engine.holdAnswers(true);
    const loaded = store.loadSessionCatalog();
    // The first page is answered, then two sessions go away before the page reaches the store: one that page shows,
    // one the second page will carry. The second page is asked for after that, from the listing as it was.
    const firstPage = await heldAnswer();
    await rm(files[SESSIONS - 1]);
    await rm(files[10]);
    await engine.engine.catalog.buildNow();
    await settled();
    firstPage.release();
    await settled();
    // The newest sessions are shown while the rest is on its way; the one gone meanwhile is not brought back.
    const first = store.useSessionCatalogStore.getState();
    expect(first.loaded).toBe(true);
    expect(first.listingTotal).toBe(SESSIONS);
    expect(first.sessions).toHaveLength(FIRST_LISTING_PAGE - 1);
    expect(first.sessions[0].sessionId).toBe(idOf(SESSIONS - 2));
    engine.holdAnswers(false);
    (await heldAnswer()).release();
    await loaded;

    const done = store.useSessionCatalogStore.getState();
    expect(done.listingTotal).toBeNull();
    expect(done.error).toBeNull();
    const ids = done.sessions.map((session) => session.sessionId);
    expect(ids).toHaveLength(SESSIONS - 2);
    expect(ids).not.toContain(idOf(SESSIONS - 1));
    expect(ids).not.toContain(idOf(10));
    const whole = await engine.engine.catalog.listing({});
    expect(done.sessions.map(store.sessionKey)).toEqual(whole.sessions.map(store.sessionKey));
  });
});
