import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { createStandardScenario, type StandardScenario } from '../../fixtures/standardScenario';
import { expect, serveEnv, startServe, test } from './serveFixture';

test.describe.configure({ mode: 'serial' });

test.describe('the web shell never leaves a blank wait', () => {
  let scenario: StandardScenario;

  test.beforeAll(async () => {
    scenario = await createStandardScenario();
  });

  test.afterAll(async () => {
    await scenario?.home.cleanup();
  });

  async function openWebshop(page: Page, url: string, tab: 'Memory' | 'History') {
    await page.goto(url);
    await page.getByRole('navigation', { name: 'Projects' }).getByText(scenario.webshop.path, { exact: true }).click();
    await page.getByRole('tab', { name: tab }).click();
  }

  test('says at once that the server is gone, fails what is asked meanwhile, and reads the page again when it is back', async ({
    page,
  }) => {
    // The same token across restarts, as a supervisor restarting `ccmem serve` would keep it.
    const env = { ...serveEnv(scenario.home), CCMEM_SERVE_TOKEN: randomBytes(32).toString('base64url') };
    let served = await startServe(env);
    const port = Number(new URL(served.url).port);
    try {
      // The page's timers stand still from here: it reconnects only when "Retry now" says so, never by chance mid-test.
      await page.clock.install();
      await openWebshop(page, served.url, 'Memory');
      const topics = page.getByRole('table', { name: 'Topic files' });
      await expect(topics.getByRole('row')).toHaveCount(scenario.webshop.memoryFileCount + 1);
      await page.clock.pauseAt(Date.now() + 1_000);
      const banner = page.getByRole('region', { name: 'Connection' });
      await expect(banner).toHaveCount(0);

      await served.stop();
      await expect(banner.getByRole('alert')).toHaveText('Lost the connection to ccmem serve — reconnecting…');
      await expect(banner.getByLabel('Next try')).toContainText(/Next try in \d+ s/);
      // Claude Code saves a memory meanwhile; no one hears of it while the connection is down.
      await writeFile(
        join(scenario.webshop.memoryDir, 'outage_note.md'),
        '---\nname: Written during the outage\ndescription: Saved while the page was cut off\ntype: project\n---\nBody.\n',
      );
      // A page opened meanwhile says why it has nothing instead of waiting on a spinner.
      await page.getByRole('tab', { name: 'History' }).click();
      const history = page.getByRole('region', { name: 'History' });
      await expect(history.getByText(/^Lost the connection to ccmem serve/)).toBeVisible();
      await expect(history.getByRole('status', { name: 'Reading the history' })).toHaveCount(0);

      served = await startServe(env, [], port);
      await banner.getByRole('button', { name: 'Retry now' }).click();
      await expect(banner).toHaveCount(0);
      // The page open during the outage reads again by itself, and so does the memory review left behind.
      await expect(history.getByText(/Lost the connection/)).toHaveCount(0);
      await expect(history.getByRole('heading', { name: 'History', level: 1 })).toBeVisible();
      await page.getByRole('tab', { name: 'Memory' }).click();
      await expect(topics.getByRole('row')).toHaveCount(scenario.webshop.memoryFileCount + 2);
      await expect(topics).toContainText('Written during the outage');

      // A server that came back with another token turns the page away: it says which URL to open instead.
      await served.stop();
      await expect(banner.getByRole('alert')).toBeVisible();
      served = await startServe(serveEnv(scenario.home), [], port);
      await banner.getByRole('button', { name: 'Retry now' }).click();
      await expect(page.getByRole('heading', { name: 'Open the URL that ccmem serve printed' })).toBeVisible();
    } finally {
      await served.stop();
    }
  });

  test('shows how far the first read of a slow memory folder got, file by file', async ({ page }) => {
    // The test seam slows every file read of a review, so the progress is there long enough to be seen.
    const served = await startServe({ ...serveEnv(scenario.home), CCMEM_TEST_MEMORY_READ_DELAY_MS: '300' });
    try {
      await openWebshop(page, served.url, 'Memory');
      const progress = page.getByRole('status', { name: 'Reading memory files' });
      await expect(progress).toContainText(/\d+ of \d+ topic files/);
      const total = Number(/of (\d+) topic files/.exec((await progress.textContent()) ?? '')?.[1]);
      await expect(progress.getByRole('progressbar')).toHaveAttribute('max', String(total));
      await expect(page.getByRole('table', { name: 'Topic files' }).getByRole('row')).toHaveCount(total + 1);
      await expect(progress).toHaveCount(0);
    } finally {
      await served.stop();
    }
  });
});
