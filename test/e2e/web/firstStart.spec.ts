import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createScenarioHome, type ScenarioHome } from '../../fixtures/scenarioHome';
import { expect, serveEnv, startServe, test } from './serveFixture';

test.describe('the app’s first start on a home (empty app data)', () => {
  let home: ScenarioHome;
  let newestPath: string;

  test.beforeAll(async () => {
    home = await createScenarioHome({ prefix: 'ccmem-e2e-first-start-' });
    for (const name of ['shop', 'blog', 'docs']) {
      await home.project(home.workPath(name)).session({ title: `Older ${name} work`, start: '2025-01-01T10:00:00Z' });
    }
    newestPath = home.workPath('app');
    const newest = home.project(newestPath);
    await newest.session({ title: 'Login form', start: '2025-03-01T10:00:00Z', turns: 2 });
    await newest.session({ title: 'Signup form', start: '2025-03-02T10:00:00Z', turns: 2 });
  });

  test.afterAll(async () => {
    await home.cleanup();
  });

  test('shows the newest project’s sessions while the rest of the home is still being found, then the whole home', async ({ page }) => {
    // The test seam holds discovery after its first part until the gate file exists: what the page shows by then came first.
    const gate = join(home.tmp, 'discovery-gate');
    const served = await startServe({ ...serveEnv(home), CCMEM_TEST_DISCOVERY_GATE: gate }, [], 0, 'listening');
    try {
      await page.goto(served.url);
      const sidebar = page.getByRole('navigation', { name: 'Projects' });
      const finding = sidebar.getByRole('status', { name: 'Finding projects' });
      await expect(finding).toContainText('1 of 4 folders read');
      await expect(sidebar.getByRole('listitem')).toHaveCount(1);
      await expect(sidebar.getByText(newestPath, { exact: true })).toBeVisible();
      await page.getByRole('tab', { name: 'Sessions' }).click();
      const table = page.getByRole('table', { name: 'Sessions' });
      await expect(table.getByRole('row')).toHaveCount(2 + 1);
      // Newest first, as discovery read them: the counts come once the catalog has read the transcripts.
      await expect(table.getByRole('row').nth(1)).toContainText('Signup form');
      await expect(table.getByRole('row').nth(2)).toContainText('Login form');
      await expect(table.getByRole('row').nth(1)).toContainText('reading…');

      await writeFile(gate, '');
      await expect(finding).toHaveCount(0);
      await expect(sidebar.getByRole('listitem')).toHaveCount(4);
      await expect(table.getByRole('row').nth(1)).toContainText('2 prompts');
      await expect(table).not.toContainText('reading…');
    } finally {
      await served.stop();
    }
  });
});
