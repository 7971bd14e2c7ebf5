import { expect, serveStandardScenario, test } from './serveFixture';

test.describe('search', () => {
  const app = serveStandardScenario();

  test('finds text in transcripts and memory files, and opens the transcript at the hit', async ({ page }) => {
    await page.goto(app.served.url);
    await page.getByRole('tab', { name: 'Search' }).click();
    await page.getByRole('searchbox', { name: 'Search text' }).fill('payment api');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const results = page.getByRole('list', { name: 'Search results' });
    await expect(page.getByRole('status', { name: 'Search status' })).toContainText(/\d+ hits in \d+ files/);
    await expect(results.getByRole('listitem').filter({ hasText: 'memory' })).not.toHaveCount(0);
    const hit = results.getByRole('button', { name: /Rewrite the checkout flow to use the new payment API/ }).first();
    await expect(hit.locator('mark')).toHaveText('payment API');
    await hit.click();
    const checkout = app.scenario.webshop.sessions[0];
    await expect(page).toHaveURL(new RegExp(`page=transcript.*session=${checkout.sessionId}.*line=2.*find=payment\\+api`));
    // The transcript opens with the searched words found again and marked, at the hit.
    await expect(page.getByRole('searchbox', { name: 'Find in transcript' })).toHaveValue('payment api');
    await expect(page.getByLabel('Find status')).toHaveText(/^1 of \d+$/);
    await expect.poll(() => page.evaluate(() => CSS.highlights.get('transcript-find')?.size ?? 0)).toBeGreaterThan(0);

    await page.goBack();
    await expect(page.getByRole('tab', { name: 'Search' })).toHaveAttribute('aria-selected', 'true');
    await expect(results.getByRole('listitem')).not.toHaveCount(0);
  });
});
