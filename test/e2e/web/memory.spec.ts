import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, serveStandardScenario, test } from './serveFixture';

test.describe.configure({ mode: 'serial' });

test.describe('Memory review in the browser', () => {
  const app = serveStandardScenario();
  const memoryFile = (rel: string) => join(app.scenario.webshop.memoryDir, rel);

  async function openMemory(page: Page) {
    await page.goto(app.served.url);
    await page.getByRole('navigation', { name: 'Projects' }).getByText(app.scenario.webshop.path, { exact: true }).click();
    await page.getByRole('tab', { name: 'Memory' }).click();
    const topics = page.getByRole('table', { name: 'Topic files' });
    await expect(topics.getByRole('row')).toHaveCount(app.scenario.webshop.memoryFileCount + 1);
    return topics;
  }

  const row = (page: Page, name: string) => page.getByRole('table', { name: 'Topic files' }).getByRole('row').filter({ hasText: name });

  test('reviews a project memory: types, scope, age, origin session, findings, rendered and raw text', async ({ page }) => {
    await openMemory(page);
    await expect(row(page, 'Prefers pnpm')).toContainText('user');
    await expect(row(page, 'Prefers pnpm')).toContainText(`session ${app.scenario.webshop.sessions[0].sessionId.slice(0, 8)}`);
    await expect(row(page, 'Team conventions')).toContainText('team');
    await expect(row(page, 'Checkout rewrite')).toContainText('old project memory');
    await expect(row(page, 'Checkout rewrite')).toContainText('days ago');

    await page.getByLabel('Finding filter').selectOption('stale.age');
    await expect(page.getByRole('table', { name: 'Topic files' }).getByRole('row')).toHaveCount(2);
    await page.getByLabel('Finding filter').selectOption('all');
    // Filters that leave nothing say so, instead of an empty table.
    await page.getByLabel('Search', { exact: true }).fill('zz-no-such-memory');
    await expect(page.getByRole('note').filter({ hasText: 'No topic file matches these filters.' })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Topic files' })).toHaveCount(0);
    await page.getByLabel('Search', { exact: true }).fill('');

    await row(page, 'Prefers pnpm').click();
    const detail = page.getByRole('article', { name: 'Memory file' });
    await expect(detail.getByLabel('Rendered memory')).toContainText('Some remembered fact.');
    await expect(detail.getByLabel('Rendered memory').locator('strong').first()).toHaveText('Why:');
    await detail.getByRole('tab', { name: 'Raw' }).click();
    await expect(detail.getByLabel('Raw text')).toContainText('name: Prefers pnpm');
    await detail.getByRole('tab', { name: 'Frontmatter' }).click();
    await expect(detail.getByLabel('Frontmatter fields')).toContainText('originSessionId');

    const origin = app.scenario.webshop.sessions[0].sessionId;
    await row(page, 'Prefers pnpm')
      .getByRole('button', { name: `session ${origin.slice(0, 8)}` })
      .click();
    await expect(page).toHaveURL(new RegExp(`session=${origin}`));
  });

  test('reads what the model sees: the loaded index, the token estimate, the recall view', async ({ page }) => {
    await openMemory(page);
    const modelView = page.getByRole('region', { name: 'What the model sees' });
    const loaded = app.scenario.webshop.indexText.trim();
    await expect(modelView.getByLabel('MEMORY.md')).toHaveText(loaded);
    await expect(modelView).toContainText(`about ${Math.ceil(loaded.length / 4)} tokens (estimate)`);
    await expect(modelView).toContainText('loaded whole');
    await expect(modelView).toContainText('All topic files are within the 200 newest.');
    await row(page, 'Checkout rewrite').click();
    const detail = page.getByRole('article', { name: 'Memory file' });
    await detail.getByRole('tab', { name: 'As recalled' }).click();
    await expect(detail.getByLabel('As the model gets it')).toContainText(`Memory: ${memoryFile('project_checkout_rewrite.md')}:`);
    await expect(detail).toContainText('Age note given to the model: This memory is');
  });

  test('edits a memory: only the changed field is rewritten', async ({ page }) => {
    const before = await readFile(memoryFile('user_prefers_pnpm.md'), 'utf8');
    await openMemory(page);
    await row(page, 'Prefers pnpm').click();
    await page.getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('form', { name: 'Edit memory' });
    await form.getByLabel('Description').fill('User always uses pnpm 9, never npm or yarn');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Saved user_prefers_pnpm.md' })).toBeVisible();
    expect(await readFile(memoryFile('user_prefers_pnpm.md'), 'utf8')).toBe(
      before.replace('description: User always uses pnpm, never npm or yarn', 'description: User always uses pnpm 9, never npm or yarn'),
    );
    await expect(row(page, 'Prefers pnpm')).toContainText('User always uses pnpm 9');
  });

  test('prunes a memory with its pointer, then undoes the prune', async ({ page }) => {
    const file = await readFile(memoryFile('project_checkout_rewrite.md'), 'utf8');
    const index = await readFile(memoryFile('MEMORY.md'), 'utf8');
    await openMemory(page);
    await row(page, 'Checkout rewrite').click();
    await page.getByRole('button', { name: 'Prune' }).click();
    await page.getByRole('group', { name: 'Prune memory' }).getByRole('button', { name: 'Prune' }).click();
    const banner = page.getByRole('status').filter({ hasText: 'Pruned Checkout rewrite' });
    await expect(banner).toBeVisible();
    await expect(page.getByRole('table', { name: 'Topic files' }).getByRole('row')).toHaveCount(app.scenario.webshop.memoryFileCount);
    await expect(readFile(memoryFile('project_checkout_rewrite.md'), 'utf8')).rejects.toThrow();
    expect(await readFile(memoryFile('MEMORY.md'), 'utf8')).not.toContain('project_checkout_rewrite.md');

    await banner.getByRole('button', { name: 'Undo' }).click();
    // The banner goes once the whole undo (file and index) has landed.
    await expect(banner).toBeHidden();
    await expect(page.getByRole('table', { name: 'Topic files' }).getByRole('row')).toHaveCount(app.scenario.webshop.memoryFileCount + 1);
    expect(await readFile(memoryFile('project_checkout_rewrite.md'), 'utf8')).toBe(file);
    expect(await readFile(memoryFile('MEMORY.md'), 'utf8')).toBe(index);
  });

  test('meets a conflict: the file changed on disk while it was edited; both versions shown, disk kept', async ({ page }) => {
    await openMemory(page);
    await row(page, 'Grafana dashboards').click();
    await page.getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('form', { name: 'Edit memory' });
    await form.getByLabel('Body').fill('My edit of the dashboards memory.\n');
    const external = `${await readFile(memoryFile('reference/grafana_dashboards.md'), 'utf8')}Claude Code added this line.\n`;
    await writeFile(memoryFile('reference/grafana_dashboards.md'), external);
    await expect(row(page, 'Grafana dashboards')).toContainText('changed just now');
    await expect(page.getByText('This file just changed on disk.')).toBeVisible();
    await form.getByRole('button', { name: 'Save' }).click();
    const conflict = page.getByRole('region', { name: 'Conflict' });
    await expect(conflict.getByLabel('Your version')).toContainText('My edit of the dashboards memory.');
    await expect(conflict.getByLabel('On disk now')).toContainText('Claude Code added this line.');
    expect(await readFile(memoryFile('reference/grafana_dashboards.md'), 'utf8')).toBe(external);
    await conflict.getByRole('button', { name: 'Discard mine, use the disk version' }).click();
    await page.getByRole('article', { name: 'Memory file' }).getByRole('tab', { name: 'Raw' }).click();
    await expect(page.getByLabel('Raw text')).toContainText('Claude Code added this line.');
    expect(await readFile(memoryFile('reference/grafana_dashboards.md'), 'utf8')).toBe(external);
  });
});
