import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { createStandardScenario, type StandardScenario } from '../../fixtures/standardScenario';
import { expect, serveEnv, startServe, test } from './serveFixture';

const SEED_TIME = '2026-05-01T00:00:00.000Z';

test.describe('the Agents page in the browser', () => {
  let scenario: StandardScenario;
  let served: Awaited<ReturnType<typeof startServe>>;
  let snapshots: string;

  test.beforeAll(async () => {
    scenario = await createStandardScenario();
    snapshots = join(scenario.webshop.path, '.claude', 'agent-memory-snapshots');
    // A teammate committed a snapshot of their planner agent; this checkout has no planner memory yet.
    await scenario.home.agentSnapshot(
      scenario.webshop.path,
      'planner',
      { 'MEMORY.md': '# Planner\n\n- plans in small steps\n' },
      SEED_TIME,
    );
    // An agent that keeps all its memory in MEMORY.md, as real project agents do (claude-code-state.md §7.6).
    await scenario.home.agentMemory(
      'project',
      'notes-only',
      { 'MEMORY.md': '# Notes\n\nEverything in one file.\n' },
      scenario.webshop.path,
    );
    served = await startServe(serveEnv(scenario.home));
  });

  test.afterAll(async () => {
    await served.stop();
    await scenario.home.cleanup();
  });

  async function openAgent(page: Page, agentType: string): Promise<void> {
    await page.goto(served.url);
    await page.getByRole('tab', { name: 'Agents' }).click();
    await page.getByRole('table', { name: 'Agent memories' }).getByRole('button', { name: agentType, exact: true }).click();
    const detail = page.getByRole('region', { name: `Agent ${agentType}` });
    await detail.getByRole('tab', { name: 'Snapshot' }).click();
  }

  test('an agent’s memory opens in the same review as auto memory', async ({ page }) => {
    await page.goto(served.url);
    await page.getByRole('tab', { name: 'Agents' }).click();
    await page.getByRole('table', { name: 'Agent memories' }).getByRole('button', { name: 'code-reviewer', exact: true }).click();
    const detail = page.getByRole('region', { name: 'Agent code-reviewer' });
    await expect(detail.getByRole('tab', { name: 'Review', selected: true })).toBeVisible();
    await expect(detail.getByRole('tab', { name: 'Snapshot' })).toHaveCount(0);
    await expect(detail.getByRole('region', { name: 'Memory' })).toContainText(scenario.agents.userCodeReviewer.dir);
    await expect(detail.getByRole('region', { name: 'Memory' })).toContainText('style');
  });

  test('an agent memory held all in its MEMORY.md says it has no topic files', async ({ page }) => {
    await page.goto(served.url);
    await page.getByRole('tab', { name: 'Agents' }).click();
    await page.getByRole('table', { name: 'Agent memories' }).getByRole('button', { name: 'notes-only', exact: true }).click();
    const review = page.getByRole('region', { name: 'Agent notes-only' }).getByRole('region', { name: 'Memory' });
    await expect(
      review.getByRole('note').filter({ hasText: 'No topic files: all this memory holds is in its index above.' }),
    ).toBeVisible();
    await expect(review.getByRole('group', { name: 'Indexes' }).getByRole('button', { name: /^MEMORY\.md/ })).toBeVisible();
  });

  test('create a snapshot from local memory', async ({ page }) => {
    await openAgent(page, 'qa');
    const status = page.getByLabel('Snapshot status');
    await expect(status).toContainText('none committed yet');
    await expect(page.getByRole('table', { name: 'Snapshot files' })).toContainText('only in local memory');

    await page.getByRole('button', { name: 'Create or update the snapshot' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create or update the snapshot' });
    await expect(dialog.getByRole('list', { name: 'Planned changes' })).toContainText('Add flaky-tests.md in the snapshot');
    await dialog.getByRole('button', { name: 'Confirm' }).click();

    await expect(status).toContainText(join(snapshots, 'qa'));
    await expect(status).toContainText('nothing to do');
    await expect(page.getByRole('table', { name: 'Snapshot files' }).getByText('same')).toHaveCount(2);
    expect((await readdir(join(snapshots, 'qa'))).sort()).toEqual(['MEMORY.md', 'flaky-tests.md', 'snapshot.json']);
    expect(await readFile(join(snapshots, 'qa', 'flaky-tests.md'), 'utf8')).toBe(
      await readFile(join(scenario.agents.projectQa.dir, 'flaky-tests.md'), 'utf8'),
    );
  });

  test('initialise local memory from a committed snapshot', async ({ page }) => {
    await page.goto(served.url);
    await page.getByRole('tab', { name: 'Agents' }).click();
    const plannerRow = page.getByRole('table', { name: 'Agent memories' }).getByRole('row').filter({ hasText: 'planner' });
    await expect(plannerRow).toContainText('initialize');
    await plannerRow.getByRole('button', { name: 'planner', exact: true }).click();

    await page.getByRole('button', { name: 'Initialise local memory from the snapshot' }).click();
    const dialog = page.getByRole('dialog', { name: 'Initialise local memory from the snapshot' });
    await expect(dialog).toContainText('Add MEMORY.md in local memory');
    await dialog.getByRole('button', { name: 'Confirm' }).click();

    await expect(plannerRow).toContainText('in sync');
    await expect(plannerRow.getByRole('cell').nth(3)).toHaveText('1');
    const plannerDir = join(scenario.webshop.path, '.claude', 'agent-memory', 'planner');
    expect(await readFile(join(plannerDir, 'MEMORY.md'), 'utf8')).toBe('# Planner\n\n- plans in small steps\n');
    expect(await readFile(join(plannerDir, '.snapshot-synced.json'), 'utf8')).toBe(`{"syncedFrom":"${SEED_TIME}"}`);
  });
});
