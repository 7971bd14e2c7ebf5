import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { topicFile } from '../../fixtures/scenarioHome';
import { createStandardScenario, type StandardScenario } from '../../fixtures/standardScenario';
import { recordFigure } from '../../reliability/support/figureLog';
import { expect, serveEnv, startServe, test } from './serveFixture';

/** A made-up GitHub token in its documented format: the detector finds it by itself. */
const TOKEN = `ghp_${'a1B2c3D4e5F6g7H8i9J0'.repeat(2).slice(0, 36)}`;

test.describe('the web shell never shows a secret', () => {
  let scenario: StandardScenario;
  let served: Awaited<ReturnType<typeof startServe>>;

  test.beforeAll(async () => {
    scenario = await createStandardScenario();
    await writeFile(
      join(scenario.webshop.memoryDir, 'reference_release_token.md'),
      topicFile({
        variant: 'flat',
        name: 'Release token',
        description: 'The token the release script uses',
        type: 'reference',
        body: `Use the token ${TOKEN} for the release script.\n`,
      }),
    );
    served = await startServe(serveEnv(scenario.home));
  });

  test.afterAll(async () => {
    await served?.stop();
    await scenario?.home.cleanup();
  });

  test('masks it in every tab of the memory file and in search results, and offers no way to reveal or edit it', async ({ page }) => {
    await page.goto(served.url);
    await page.getByRole('navigation', { name: 'Projects' }).getByText(scenario.webshop.path, { exact: true }).click();
    await page.getByRole('tab', { name: 'Memory' }).click();
    await page.getByRole('table', { name: 'Topic files' }).getByRole('row').filter({ hasText: 'Release token' }).click();
    const detail = page.getByRole('article', { name: 'Memory file' });
    await expect(detail.getByRole('note', { name: 'Secrets' })).toContainText('The web shell never shows them');
    await expect(detail.getByRole('button', { name: 'Show secrets' })).toHaveCount(0);
    await expect(detail.getByRole('button', { name: 'Edit' })).toBeDisabled();
    await expect(detail.getByLabel('Rendered memory')).toContainText('Use the token ••••');
    for (const [tab, label] of [
      ['Raw', 'Raw text'],
      ['As recalled', 'As the model gets it'],
    ] as const) {
      await detail.getByRole('tab', { name: tab }).click();
      await expect(detail.getByLabel(label)).toContainText('••••');
    }

    await page.getByRole('tab', { name: 'Search' }).click();
    await page.getByRole('searchbox', { name: 'Search text' }).fill('release script');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const results = page.getByRole('list', { name: 'Search results' });
    await expect(results.getByRole('listitem').filter({ hasText: 'Use the token' })).not.toHaveCount(0);

    const shown = await page.locator('body').innerText();
    recordFigure('badInputs', { tried: 4 }, 'secrets');
    expect(shown).not.toContain(TOKEN.slice(4, 24));
    expect(await page.content()).not.toContain(TOKEN.slice(4, 24));
  });
});
