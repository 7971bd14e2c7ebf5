import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { snapshotTree } from '../../fixtures/treeSnapshot';
import { expect, serveStandardScenario, startServe, test } from './serveFixture';

test.describe('the web shell on a scenario home', () => {
  const app = serveStandardScenario();

  test('the sidebar lists every project with its real path', async ({ page }) => {
    await page.goto(app.served.url);
    await expect(page.locator('#root[data-app-state="ready"]')).toBeAttached();
    const sidebar = page.getByRole('navigation', { name: 'Projects' });
    await expect(sidebar.getByRole('button')).toHaveCount(app.scenario.projectCount);
    for (const path of [
      app.scenario.webshop.path,
      app.scenario.monorepo.apiPath,
      app.scenario.monorepo.repoPath,
      app.scenario.windows.path,
    ]) {
      await expect(sidebar.getByText(path, { exact: true })).toBeVisible();
    }
  });

  test('every page opens and lists real data', async ({ page }) => {
    const before = await snapshotTree(app.scenario.home.root);
    await page.goto(app.served.url);
    await page.getByRole('navigation', { name: 'Projects' }).getByText(app.scenario.webshop.path, { exact: true }).click();

    await page.getByRole('tab', { name: 'Memory' }).click();
    const topics = page.getByRole('table', { name: 'Topic files' });
    await expect(topics.getByRole('row')).toHaveCount(app.scenario.webshop.memoryFileCount + 1);
    await expect(page.getByLabel('MEMORY.md')).toContainText(app.scenario.webshop.indexText.split('\n')[0]);

    await page.getByRole('tab', { name: 'Sessions' }).click();
    const sessions = page.getByRole('table', { name: 'Sessions' });
    await expect(sessions.getByRole('row')).toHaveCount(app.scenario.webshop.sessions.length + 1);
    for (const session of app.scenario.webshop.sessions) await expect(sessions).toContainText(session.title ?? session.sessionId);

    await page.getByRole('tab', { name: 'Dreams' }).click();
    await expect(page.getByLabel('Consolidation')).toContainText(`process ${app.scenario.webshop.lock.pid}`);

    await page.getByRole('tab', { name: 'Agents' }).click();
    const agents = page.getByRole('table', { name: 'Agent memories' });
    await expect(agents).toContainText(app.scenario.agents.userCodeReviewer.dir);
    await expect(agents).toContainText(app.scenario.agents.projectQa.dir);

    await page.getByRole('tab', { name: 'Settings' }).click();
    await expect(page.getByRole('list', { name: 'Config roots' })).toContainText(app.scenario.home.root);

    expect(await snapshotTree(app.scenario.home.root)).toEqual(before);
  });

  test('a reload keeps the chosen project and page', async ({ page }) => {
    await page.goto(app.served.url);
    await page.getByRole('navigation', { name: 'Projects' }).getByText(app.scenario.windows.path, { exact: true }).click();
    await page.getByRole('tab', { name: 'Sessions' }).click();
    await page.reload();
    await expect(page.getByRole('tab', { name: 'Sessions' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByLabel('Selected project')).toContainText(app.scenario.windows.path);
  });
});

test.describe('the web shell with no Claude Code folder', () => {
  test('shows the empty state and opens the demo data', async ({ page }) => {
    const tmp = mkdtempSync(join(tmpdir(), 'ccmem-empty-'));
    const served = await startServe({ HOME: tmp, CLAUDE_CONFIG_DIR: join(tmp, 'no-claude-here'), CCMEM_DATA_DIR: join(tmp, 'data') });
    try {
      await page.goto(served.url);
      await expect(page.getByRole('heading', { name: 'No Claude Code data found' })).toBeVisible();
      await page.getByRole('button', { name: 'Open demo data' }).click();
      const sidebar = page.getByRole('navigation', { name: 'Projects' });
      // The demo's project on disk (where its agents live) lies in the data folder.
      await expect(sidebar.getByRole('listitem')).toHaveCount(5);
      for (const path of [
        '/home/demo/code/webshop',
        '/home/demo/code/monorepo/packages/api',
        '/home/demo/code/monorepo',
        'C:\\Users\\demo\\notes',
        join(tmp, 'data', 'demo-workspace', 'design-system'),
      ]) {
        await expect(sidebar.getByText(path, { exact: true })).toBeVisible();
      }
      await expect(page.getByText('demo', { exact: true })).toBeVisible();
      await sidebar.getByText('/home/demo/code/webshop', { exact: true }).click();
      await expect(page.getByRole('table', { name: 'Topic files' }).getByRole('row')).toHaveCount(8);
    } finally {
      await served.stop();
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
