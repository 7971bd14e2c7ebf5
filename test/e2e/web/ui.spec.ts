import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { createScenarioHome, type ScenarioHome } from '../../fixtures/scenarioHome';
import { writeRichSession, type RichSession } from '../../integration/transcripts/richSession';
import { seriousViolations, sidewaysOverflow } from './pageChecks';
import { expect, serveEnv, serveStandardScenario, startServe, test } from './serveFixture';

const VIEWPORTS = [
  { width: 1024, height: 700 },
  { width: 1440, height: 900 },
];

test.describe('a UI that fits, reads in both themes and works from the keyboard', () => {
  const app = serveStandardScenario();

  async function openApp(page: Page): Promise<void> {
    await page.goto(app.served.url);
    await expect(page.locator('#root[data-app-state="ready"]')).toBeAttached();
    await page.getByRole('navigation', { name: 'Projects' }).getByText(app.scenario.webshop.path, { exact: true }).click();
  }

  /** Each page, opened the way a person would, and what shows it has its content. */
  const PAGES: readonly { readonly name: string; readonly open: (page: Page) => Promise<void> }[] = [
    {
      name: 'Memory',
      open: async (page) => {
        await page.getByRole('tab', { name: 'Memory' }).click();
        const topics = page.getByRole('table', { name: 'Topic files' });
        await expect(topics.getByRole('row')).toHaveCount(app.scenario.webshop.memoryFileCount + 1);
        await topics.getByRole('row').filter({ hasText: 'Prefers pnpm' }).click();
        await expect(page.getByRole('article', { name: 'Memory file' }).getByLabel('Rendered memory')).toBeVisible();
      },
    },
    {
      name: 'Sessions',
      open: async (page) => {
        await page.getByRole('tab', { name: 'Sessions' }).click();
        await expect(page.getByRole('table', { name: 'Sessions' }).getByRole('row')).toHaveCount(app.scenario.webshop.sessions.length + 1);
      },
    },
    {
      name: 'Search',
      open: async (page) => {
        await page.getByRole('tab', { name: 'Search' }).click();
        await page.getByRole('searchbox', { name: 'Search text' }).fill('payment api');
        await page.getByRole('button', { name: 'Search', exact: true }).click();
        await expect(page.getByRole('status', { name: 'Search status' })).toContainText(/\d+ hits in \d+ files/);
      },
    },
    {
      name: 'Dreams',
      open: async (page) => {
        await page.getByRole('tab', { name: 'Dreams' }).click();
        await expect(page.getByLabel('Consolidation')).toContainText(`process ${app.scenario.webshop.lock.pid}`);
      },
    },
    {
      name: 'History',
      open: async (page) => {
        await page.getByRole('tab', { name: 'History' }).click();
        await expect(page.getByRole('heading', { name: 'History', level: 1 })).toBeVisible();
        await expect(page.getByRole('region', { name: 'History' }).getByText('Loading…')).toHaveCount(0);
      },
    },
    {
      name: 'Agents',
      open: async (page) => {
        await page.getByRole('tab', { name: 'Agents' }).click();
        await expect(page.getByRole('table', { name: 'Agent memories' })).toContainText(app.scenario.agents.projectQa.dir);
      },
    },
    {
      name: 'Settings',
      open: async (page) => {
        await page.getByRole('tab', { name: 'Settings' }).click();
        await expect(page.getByRole('list', { name: 'Config roots' })).toContainText(app.scenario.home.root);
      },
    },
    {
      name: 'Transcript',
      open: async (page) => {
        await page.getByRole('tab', { name: 'Sessions' }).click();
        await page.getByRole('table', { name: 'Sessions' }).getByRole('row', { name: 'Checkout rewrite' }).click();
        await expect(page.getByRole('heading', { name: 'Checkout rewrite' })).toBeVisible();
        await expect(page.getByLabel('Token totals')).toContainText('Turns');
        await expect(page.locator('.tx-placeholder')).toHaveCount(0);
      },
    },
  ];

  for (const colorScheme of ['light', 'dark'] as const) {
    test(`every page fits from 1024×700 to 1440×900 and has no serious accessibility violation, ${colorScheme} theme`, async ({ page }) => {
      test.setTimeout(180_000);
      await page.emulateMedia({ colorScheme });
      await openApp(page);
      await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);
      for (const viewport of VIEWPORTS) {
        await page.setViewportSize(viewport);
        for (const { name, open } of PAGES) {
          await open(page);
          const where = `${name} at ${viewport.width}×${viewport.height}, ${colorScheme}`;
          expect(await sidewaysOverflow(page), where).toEqual({ page: 0, main: 0 });
          expect(await seriousViolations(page), where).toEqual([]);
        }
      }
    });
  }

  test('the command palette goes to a page, a memory file and a session; ? lists the shortcuts; Esc closes both', async ({ page }) => {
    await openApp(page);
    await page.getByRole('tab', { name: 'Settings' }).click();

    await page.keyboard.press('Control+k');
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    const input = palette.getByRole('combobox', { name: 'Go to or do' });
    await expect(input).toBeFocused();
    expect(await seriousViolations(page)).toEqual([]);
    await input.fill('sessions');
    await expect(palette.getByRole('option').first()).toHaveAttribute('aria-selected', 'true');
    await input.press('Enter');
    await expect(palette).toHaveCount(0);
    await expect(page.getByRole('tab', { name: 'Sessions' })).toHaveAttribute('aria-selected', 'true');

    // A memory file of the selected project: the Memory page opens with it.
    await page.getByRole('button', { name: /Go to/ }).click();
    await input.fill('grafana');
    await expect(palette.getByRole('option', { name: /Grafana dashboards/ })).toBeVisible();
    await input.press('Enter');
    await expect(page.getByRole('article', { name: 'Memory file' }).getByRole('heading', { name: 'Grafana dashboards' })).toBeVisible();

    // A session by its title, with the arrow keys.
    await page.keyboard.press('Control+k');
    await input.fill('flaky');
    await input.press('ArrowDown');
    await input.press('ArrowUp');
    await input.press('Enter');
    await expect(page).toHaveURL(/page=transcript/);
    await expect(page.getByRole('heading', { name: 'Fix flaky cart total test' })).toBeVisible();

    // Esc closes the palette and gives the focus back.
    await page.keyboard.press('Control+k');
    await expect(input).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(palette).toHaveCount(0);

    await page.locator('body').press('?');
    const shortcuts = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await expect(shortcuts.getByRole('table', { name: 'Keyboard shortcuts' })).toContainText('Open the command palette');
    expect(await seriousViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await expect(shortcuts).toHaveCount(0);
  });

  test('arrows and Enter move through the sessions; a message has a link and a copy button; find marks the words', async ({
    page,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await openApp(page);
    await page.getByRole('tab', { name: 'Sessions' }).click();
    const rows = page.getByRole('table', { name: 'Sessions' }).getByRole('row');
    await rows.nth(1).focus();
    await page.keyboard.press('ArrowDown');
    await expect(rows.nth(2)).toBeFocused();
    const title = (await rows.nth(2).getAttribute('aria-label')) as string;
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: title })).toBeVisible();

    const message = page.getByRole('article', { name: 'User message' }).filter({ hasNotText: '<command' }).first();
    await message.getByRole('button', { name: /Copy a link to line/ }).click();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    const session = app.scenario.webshop.sessions.find((s) => s.title === title);
    expect(link).toMatch(new RegExp(`page=transcript.*session=${session?.sessionId}.*line=\\d+`));
    await message.getByRole('button', { name: /Copy the message on line/ }).click();
    expect((await page.evaluate(() => navigator.clipboard.readText())).length).toBeGreaterThan(0);

    const word = (await message.locator('.tx-text').first().innerText()).split(/\s+/).find((w) => w.length > 4) as string;
    await page.keyboard.press('Control+f');
    await page.keyboard.type(word);
    await page.keyboard.press('Enter');
    await expect(page.getByLabel('Find status')).toHaveText(/^1 of \d+/);
    await expect.poll(() => page.evaluate(() => CSS.highlights.get('transcript-find')?.size ?? 0)).toBeGreaterThan(0);
  });

  test('the sidebar collapses and the theme choice stays after a reload; search narrows by kind and shows the session', async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await openApp(page);
    await page.getByRole('button', { name: 'Hide the project sidebar' }).click();
    await expect(page.getByRole('navigation', { name: 'Projects' })).toHaveCount(0);
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByRole('radio', { name: 'Dark', exact: true }).check();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await expect(page.getByRole('navigation', { name: 'Projects' })).toHaveCount(0);
    await page.keyboard.press('Control+b');
    await expect(page.getByRole('navigation', { name: 'Projects' })).toBeVisible();
    await page.getByRole('radio', { name: 'Follow the system' }).check();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');

    await page.getByRole('tab', { name: 'Search' }).click();
    await page.getByRole('searchbox', { name: 'Search text' }).fill('payment api');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const results = page.getByRole('list', { name: 'Search results' });
    await expect(results.getByRole('listitem').filter({ hasText: 'Checkout rewrite' }).first()).toBeVisible();
    await page.getByRole('form', { name: 'Search filters' }).getByLabel('Kind').selectOption('memory');
    await expect(page.getByRole('status', { name: 'Search status' })).toContainText(/\d+ hits? in \d+ files?/);
    await expect(results.getByRole('listitem').first()).toContainText('memory');
    await expect(results.getByRole('listitem').filter({ hasText: 'transcript' })).toHaveCount(0);
  });

  test('Ctrl+S saves the memory being edited', async ({ page }) => {
    const file = join(app.scenario.webshop.memoryDir, 'user_prefers_pnpm.md');
    const before = await readFile(file, 'utf8');
    await openApp(page);
    await page.getByRole('tab', { name: 'Memory' }).click();
    await page.getByRole('table', { name: 'Topic files' }).getByRole('row').filter({ hasText: 'Prefers pnpm' }).click();
    await page.getByRole('button', { name: 'Edit' }).click();
    const form = page.getByRole('form', { name: 'Edit memory' });
    await form.getByLabel('Description').fill('User always uses pnpm 10');
    await form.getByLabel('Description').press('Control+s');
    await expect(page.getByRole('status').filter({ hasText: 'Saved user_prefers_pnpm.md' })).toBeVisible();
    expect(await readFile(file, 'utf8')).toBe(
      before.replace('description: User always uses pnpm, never npm or yarn', 'description: User always uses pnpm 10'),
    );
  });
});

test.describe('find in a transcript', () => {
  let home: ScenarioHome;
  let rich: RichSession;
  let slug: string;
  let served: Awaited<ReturnType<typeof startServe>>;

  test.beforeAll(async () => {
    home = await createScenarioHome({ prefix: 'ccmem-e2e-find-' });
    const project = home.project(home.workPath('shop'));
    slug = project.slug;
    rich = await writeRichSession(project);
    served = await startServe(serveEnv(home));
  });

  test.afterAll(async () => {
    await served.stop();
    await home.cleanup();
  });

  test('opens the collapsed part that holds the words and marks them', async ({ page }) => {
    await page.goto(served.url);
    await expect(page.locator('#root[data-app-state="ready"]')).toBeAttached();
    const route = new URLSearchParams({ page: 'transcript', root: home.root, project: slug, session: rich.sessionId });
    await page.evaluate((hash) => (window.location.hash = hash), `#/${route.toString()}`);
    await expect(page.getByRole('heading', { name: rich.title })).toBeVisible();
    await page.getByRole('list', { name: 'Compactions' }).getByRole('button').click();
    const summary = page.getByRole('article', { name: 'Compaction summary' }).locator('details');
    await expect(summary).not.toHaveAttribute('open');

    await page.keyboard.press('Control+f');
    await page.keyboard.type('Primary Request and Intent');
    await page.keyboard.press('Enter');
    await expect(page.getByLabel('Find status')).toHaveText('1 of 1');
    await expect(summary).toHaveAttribute('open');
    await expect(summary.getByText(/Primary Request and Intent: tidy checkout/)).toBeVisible();
    await expect.poll(() => page.evaluate(() => CSS.highlights.get('transcript-find')?.size ?? 0)).toBe(1);

    // Clearing the find closes it again.
    await page.getByRole('searchbox', { name: 'Find in transcript' }).press('Escape');
    await expect(summary).not.toHaveAttribute('open');
  });
});
