import { createScenarioHome, type ScenarioHome } from '../../fixtures/scenarioHome';
import { writeLongSessionList } from '../../fixtures/longSessionList';
import { FIRST_LISTING_PAGE, LATER_LISTING_PAGE } from '../../../shared/model/catalog';
import { expect, serveEnv, startServe, test } from './serveFixture';

/** More than the listing's first page, so a warm start lists them in pages. */
const SESSIONS = 450;

test.describe('a long session list', () => {
  let home: ScenarioHome;

  test.beforeAll(async () => {
    home = await createScenarioHome({ prefix: 'ccmem-e2e-listing-pages-' });
    const project = home.project(home.workPath('shop'));
    await writeLongSessionList(project, SESSIONS);
  });

  test.afterAll(async () => {
    await home.cleanup();
  });

  test('comes in pages on a warm start: the newest first, then every session', async ({ page }) => {
    // The first start builds the catalog and saves it; the second lists from what it saved.
    const first = await startServe(serveEnv(home));
    try {
      await page.goto(first.url);
      await page.getByRole('tab', { name: 'Sessions' }).click();
      await expect(page.getByRole('region', { name: 'Sessions' })).toContainText(`${SESSIONS} sessions`);
    } finally {
      await first.stop();
    }

    const asked: string[] = [];
    page.on('websocket', (socket) =>
      socket.on('framesent', (frame) => {
        if (typeof frame.payload === 'string' && frame.payload.includes('"getSessionCatalog"')) asked.push(frame.payload);
      }),
    );
    const second = await startServe(serveEnv(home));
    try {
      await page.goto(second.url);
      await page.getByRole('tab', { name: 'Sessions' }).click();
      const timeline = page.getByRole('region', { name: 'Sessions' });
      await expect(timeline).toContainText(`${SESSIONS} sessions`);
      await expect(timeline.getByRole('table', { name: 'Sessions' }).getByRole('row').nth(1)).toContainText(`Task number ${SESSIONS - 1}`);
      await expect(timeline.getByLabel('Listing sessions')).toHaveCount(0);
      // A first page, then the rest from the listing it named.
      expect(asked.map((payload) => JSON.parse(payload).args)).toEqual([
        { limit: FIRST_LISTING_PAGE },
        { snapshot: expect.any(String), offset: FIRST_LISTING_PAGE, limit: LATER_LISTING_PAGE },
      ]);
    } finally {
      await second.stop();
    }
  });
});
