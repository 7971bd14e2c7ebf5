import { FINDING_CODES } from '../../../shared/memory/findingCodes';
import { DEMO_PROJECTS, openDemo, serveDemo, type ServedDemo } from './demoFixture';
import { expect, test } from './serveFixture';

/** `lock.held` needs a dream running while the demo is open; a static copy cannot hold a live lock. */
const SHOWN_CODES = FINDING_CODES.filter((code) => code !== 'lock.held');

test.describe('the demo', () => {
  test.describe.configure({ mode: 'serial' });
  let demo: ServedDemo;
  test.beforeAll(async () => {
    demo = await serveDemo();
  });
  test.afterAll(async () => {
    await demo?.stop();
  });

  test('a new user opens it from the empty screen and finds a dream waiting for review', async ({ page }) => {
    await openDemo(page, demo);
    await expect(page.getByRole('button', { name: 'Review inbox: 1 waiting' })).toBeVisible();
    await page.goto(demo.link('dreams', DEMO_PROJECTS.webshop));
    const item = page
      .getByRole('region', { name: 'Review inbox' })
      .getByRole('listitem', { name: 'Proposals for /home/demo/code/webshop' });
    await expect(item.getByRole('list', { name: 'Files touched' })).toContainText('MEMORY.md');
    await expect(item.getByRole('list', { name: 'Files touched' })).toContainText('project_checkout_freeze.md');
    await item.getByRole('button', { name: 'Review' }).click();
    await expect(page.getByRole('region', { name: 'Proposal project_checkout_freeze.md' })).toContainText('2026-10-13');
  });

  test('its history holds a session edit, an extraction and a dream', async ({ page }) => {
    await page.goto(demo.link('history', DEMO_PROJECTS.webshop));
    const list = page.getByRole('listbox', { name: 'Change sets' });
    for (const cause of ['Claude Code session', 'Memory extraction', 'Dream'])
      await expect(list.getByRole('option').filter({ hasText: cause }).first()).toBeVisible({ timeout: 15_000 });
  });

  test('its agents show every snapshot state, and one folder that leads out of its project', async ({ page }) => {
    await page.goto(demo.link('agents'));
    const table = page.getByRole('table', { name: 'Agent memories' });
    const row = (agent: string) => table.getByRole('row').filter({ has: page.getByRole('button', { name: agent, exact: true }) });
    await expect(row('api-designer')).toContainText('in sync');
    await expect(row('test-writer')).toContainText('initialize');
    await expect(row('release-manager')).toContainText('update available');
    await expect(row('ux-writer')).toContainText('leads outside');
  });

  test('its memory folders hold a finding of every kind a static copy can have', async ({ page }) => {
    const shown = new Set<string>();
    // Every memory folder of its own (the api sub-folder's sessions use the monorepo's).
    for (const slug of [DEMO_PROJECTS.webshop, DEMO_PROJECTS.monorepo, DEMO_PROJECTS.notes, demo.designSystemSlug]) {
      await page.goto(demo.link('memory', slug));
      const findings = page.getByRole('region', { name: 'Findings' });
      await expect(findings.getByRole('heading', { name: /^Findings/ })).toBeVisible({ timeout: 15_000 });
      const text = await findings.innerText();
      for (const code of SHOWN_CODES) if (text.includes(`(${code})`)) shown.add(code);
    }
    // An agent's folder that leads out of its project is reported on the Agents page (above), not in a memory folder.
    expect([...shown].sort()).toEqual(SHOWN_CODES.filter((code) => code !== 'folder.outside-root').sort());
  });
});
