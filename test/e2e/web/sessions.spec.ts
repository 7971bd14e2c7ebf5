import { appendFile } from 'node:fs/promises';
import { snapshotTree } from '../../fixtures/treeSnapshot';
import { assistantChunk, userPrompt } from '../../fixtures/transcriptLines';
import { expect, serveStandardScenario, test } from './serveFixture';

test.use({ timezoneId: 'UTC' });

test.describe('the sessions timeline', () => {
  const app = serveStandardScenario();

  test('lists sessions of one project or all, filters to a day from the chart, and opens a transcript', async ({ page }) => {
    const before = await snapshotTree(app.scenario.home.root);
    await page.goto(app.served.url);
    await page.getByRole('navigation', { name: 'Projects' }).getByText(app.scenario.webshop.path, { exact: true }).click();
    await page.getByRole('tab', { name: 'Sessions' }).click();
    const table = page.getByRole('table', { name: 'Sessions' });
    await expect(table.getByRole('row')).toHaveCount(app.scenario.webshop.sessions.length + 1);
    // Newest first.
    await expect(table.getByRole('row').nth(1)).toContainText('Explain how the product search index is built');
    await expect(page.getByRole('status', { name: 'Catalog progress' }).getByRole('button', { name: 'Refresh' })).toBeVisible();

    const filters = page.getByRole('form', { name: 'Filters' });
    await filters.getByLabel('Project').selectOption({ label: 'All projects' });
    await expect(table.getByRole('row')).toHaveCount(6 + 1);
    await expect(table).toContainText('Port the tool to PowerShell 7');

    await page.getByRole('button', { name: /^2026-05-03: 1 session,/ }).click();
    await expect(table.getByRole('row')).toHaveCount(1 + 1);
    await expect(table).toContainText('Fix flaky cart total test');
    await expect(filters.getByLabel('From')).toHaveValue('2026-05-03');

    await filters.getByRole('button', { name: 'Clear filters' }).click();
    await filters.getByLabel('Branch').selectOption('feat/checkout');
    await expect(table.getByRole('row')).toHaveCount(1 + 1);
    await table.getByRole('row', { name: 'Checkout rewrite' }).click();
    await expect(page).toHaveURL(new RegExp(`page=transcript.*session=${app.scenario.webshop.sessions[0].sessionId}`));
    expect(await snapshotTree(app.scenario.home.root)).toEqual(before);
  });

  test('an open timeline updates in place as Claude Code appends to a session', async ({ page }) => {
    const session = app.scenario.windows.sessions[0];
    await page.goto(app.served.url);
    await page.getByRole('navigation', { name: 'Projects' }).getByText(app.scenario.windows.path, { exact: true }).click();
    await page.getByRole('tab', { name: 'Sessions' }).click();
    const row = page.getByRole('table', { name: 'Sessions' }).getByRole('row', { name: 'Port the tool to PowerShell 7' });
    await expect(row).toContainText('2 prompts');
    await appendFile(
      session.file,
      `${userPrompt('And the installer too', { sessionId: session.sessionId, timestamp: '2026-06-03T00:00:00.000Z' })}\n${assistantChunk({
        sessionId: session.sessionId,
        messageId: 'msg_e2e_live',
        usage: { output: 10 },
        timestamp: '2026-06-03T00:00:02.000Z',
      })}\n`,
    );
    await expect(row).toContainText('3 prompts');
    await expect(row).toContainText('3 turns');
  });
});
