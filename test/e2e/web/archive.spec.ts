import { rm } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { createStandardScenario, type StandardScenario } from '../../fixtures/standardScenario';
import { expect, serveEnv, startServe, test } from './serveFixture';

test.use({ timezoneId: 'UTC' });

/** The archive runs once the catalog's first build is done; Settings shows when it holds every session. */
async function waitForArchive(page: Page, sessions: number): Promise<void> {
  await page.getByRole('tab', { name: 'Settings' }).click();
  await expect(page.getByLabel('Archive contents')).toContainText(`${sessions} sessions`, { timeout: 20_000 });
}

test.describe('the transcript archive in the web shell', () => {
  let scenario: StandardScenario;
  let served: Awaited<ReturnType<typeof startServe>>;

  test.beforeAll(async () => {
    scenario = await createStandardScenario();
    await scenario.home.userSettings({ cleanupPeriodDays: 7 });
    served = await startServe(serveEnv(scenario.home));
  });

  test.afterAll(async () => {
    await served.stop();
    await scenario.home.cleanup();
  });

  test('a session Claude Code deleted stays listed, opens, searches, and cannot be resumed', async ({ page }) => {
    const checkout = scenario.webshop.sessions[0];
    await page.goto(served.url);
    await page.getByRole('navigation', { name: 'Projects' }).getByText(scenario.webshop.path, { exact: true }).click();
    await page.getByRole('tab', { name: 'Sessions' }).click();
    const table = page.getByRole('table', { name: 'Sessions' });
    await expect(table.getByRole('row')).toHaveCount(scenario.webshop.sessions.length + 1);
    await waitForArchive(page, 6);

    // Claude Code's cleanup deletes the transcript while the app runs.
    await rm(checkout.file);
    await page.getByRole('tab', { name: 'Sessions' }).click();
    const row = table.getByRole('row', { name: 'Checkout rewrite' });
    await expect(row.getByText('archived', { exact: true })).toBeVisible();
    await expect(table.getByRole('row')).toHaveCount(scenario.webshop.sessions.length + 1);

    await row.click();
    await expect(page.getByRole('note', { name: 'Archived copy' })).toBeVisible();
    const transcript = page.getByLabel('Transcript', { exact: true }).last();
    await expect(transcript.getByText('Rewrite the checkout flow to use the new payment API')).toBeVisible();
    const resume = page.getByRole('region', { name: 'Resume' });
    await expect(resume.getByRole('note', { name: 'Resume unavailable' })).toContainText('Claude Code deleted this transcript');
    await expect(resume.getByRole('button', { name: 'Copy command' })).toBeDisabled();
    await expect(resume.getByRole('button', { name: 'Copy fork command' })).toBeDisabled();

    await page.getByRole('tab', { name: 'Search' }).click();
    await page.getByRole('searchbox', { name: 'Search text' }).fill('Rewrite the checkout flow');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const hit = page
      .getByRole('list', { name: 'Search results' })
      .getByRole('button', { name: /Rewrite the checkout flow/ })
      .first();
    await expect(hit.getByText('archived', { exact: true })).toBeVisible();

    await page.getByRole('tab', { name: 'Settings' }).click();
    await expect(page.getByLabel('Archive contents')).toContainText('6 sessions (1 deleted by Claude Code)');
  });

  test("Settings show the archive beside cleanupPeriodDays, turn it off, and delete a deleted project's archive once confirmed", async ({
    page,
  }) => {
    await page.goto(served.url);
    await waitForArchive(page, 6);
    const archive = page.getByRole('region', { name: 'Transcript archive' });
    await expect(archive.getByLabel('Cleanup period')).toContainText('7 days');
    await expect(archive.getByRole('list', { name: 'Archive warnings' })).toContainText(
      'Claude Code deletes transcripts 7 days after their last change',
    );
    const projects = archive.getByRole('table', { name: 'Archived projects' });
    const windows = projects.getByRole('row', { name: scenario.windows.slug });
    // The project's path names it while the home has it; the slug is what the archive keeps.
    await expect(windows).toContainText(scenario.windows.path);
    await expect(windows.getByRole('button', { name: 'Delete archive…' })).toBeDisabled();

    // The user deletes the project on purpose: its transcripts leave the disk, then its archive may go too.
    for (const session of scenario.windows.sessions) await rm(session.file);
    await page.getByRole('tab', { name: 'Memory' }).click();
    await page.getByRole('tab', { name: 'Settings' }).click();
    await windows.getByRole('button', { name: 'Delete archive…' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Confirm' });
    await expect(confirm).toContainText(`Delete the archive of ${scenario.windows.slug}: 1 session,`);
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(archive.getByRole('status')).toContainText('Removed 1 session');
    await expect(projects.getByRole('row', { name: scenario.windows.slug })).toHaveCount(0);
    await expect(archive.getByLabel('Archive contents')).toContainText('5 sessions');

    // The box follows the engine's answer, not the click.
    await archive.getByLabel('Keep copies of transcripts').click();
    await expect(archive.getByLabel('Archive state')).toHaveText('off');
    await expect(archive.getByLabel('Keep copies of transcripts')).not.toBeChecked();
    await expect(archive.getByRole('list', { name: 'Archive warnings' })).toContainText('The archive is off');
  });
});
