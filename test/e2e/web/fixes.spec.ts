import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { createMessyMemory, FAKE_GITHUB_TOKEN, type MessyMemory } from '../../fixtures/messyMemory';
import { createStandardScenario, type StandardScenario } from '../../fixtures/standardScenario';
import { seriousViolations, sidewaysOverflow } from './pageChecks';
import { expect, serveEnv, startServe, test } from './serveFixture';

test.describe.configure({ mode: 'serial' });

test.describe('curing what the findings say, in the browser', () => {
  let scenario: StandardScenario;
  let served: Awaited<ReturnType<typeof startServe>>;
  /** One messy folder per group of tests, so one group's undo (which renews mtimes) never changes another's findings. */
  let index: MessyMemory;
  let topics: MessyMemory;
  let bulk: MessyMemory;

  test.beforeAll(async () => {
    scenario = await createStandardScenario();
    index = await createMessyMemory(scenario.home, 'messy-index');
    topics = await createMessyMemory(scenario.home, 'messy-topics');
    bulk = await createMessyMemory(scenario.home, 'messy-bulk');
    // An empty transcript: a warning the Warnings page explains.
    await bulk.project.rawFile('00000000-0000-4000-8000-000000000000.jsonl', '');
    served = await startServe(serveEnv(scenario.home));
  });

  test.afterAll(async () => {
    await served.stop();
    await scenario.home.cleanup();
  });

  const read = (messy: MessyMemory, rel: string) => readFile(join(messy.memoryDir, rel), 'utf8');
  /** The list is virtual (only rows in view are in the page): its size is in `aria-rowcount`, header row included. */
  const topicRows = (page: Page) => page.getByRole('table', { name: 'Topic files' });

  async function openMemory(page: Page, messy: MessyMemory): Promise<void> {
    await page.goto(served.url);
    await page.getByRole('navigation', { name: 'Projects' }).getByText(messy.project.cwd, { exact: true }).click();
    await page.getByRole('tab', { name: 'Memory' }).click();
    await expect(topicRows(page)).toHaveAttribute('aria-rowcount', String(messy.topicCount + 1));
  }

  /** Opens a cure's preview from `where`, checks it shows the diff of `file`, applies it, and returns the undo banner. */
  async function applyCure(page: Page, where: Locator, cure: string | RegExp, file: string, shows: string): Promise<Locator> {
    await where.getByRole('button', { name: cure }).first().click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByRole('table', { name: `Changes to ${file}` })).toContainText(shows);
    const summary = (await dialog.getByLabel('What it does').textContent())?.split(':')[0] ?? '';
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await expect(dialog).toBeHidden();
    const banner = page.getByRole('status').filter({ hasText: summary });
    await expect(banner.getByRole('button', { name: 'Undo' })).toBeVisible();
    return banner;
  }

  async function undo(banner: Locator): Promise<void> {
    await banner.getByRole('button', { name: 'Undo' }).click();
    await expect(banner).toBeHidden();
  }

  test('MEMORY.md: the cut drawn in the editor, a dangling link pointed right, the overflow moved — each with its diff, each undone', async ({
    page,
  }) => {
    const original = await read(index, 'MEMORY.md');
    await openMemory(page, index);
    const indexEntry = page.getByRole('group', { name: 'Indexes' }).getByRole('button', { name: /^MEMORY\.md/ });
    // The index carries its findings' badges, as a topic file's row does.
    const danglingBadge = indexEntry.locator('.badge.finding', { hasText: 'dangling link' });
    await expect(danglingBadge).toBeVisible();
    await indexEntry.click();
    const detail = page.getByRole('article', { name: 'Memory index' });
    await expect(detail).toContainText('Claude Code stops loading at line 201 (the 200 lines limit)');
    await expect(detail.locator('mark.cut-first')).toHaveText('- [Note 190](note_190.md) — note 190\n');

    // The editor draws the cut as the text changes, and shows what the model will load.
    await detail.getByRole('button', { name: 'Edit' }).click();
    const editor = page.getByRole('form', { name: 'Edit MEMORY.md' });
    await expect(editor.getByLabel('Where loading stops')).toContainText('205 of 200 lines');
    const text = editor.getByLabel('MEMORY.md text');
    const shorter = original.split('\n').slice(0, 150).join('\n') + '\n';
    await text.fill(shorter);
    await expect(editor.getByLabel('Where loading stops')).toContainText('Claude Code loads all of it.');
    await expect(editor.locator('mark.cut-first')).toHaveCount(0);
    await expect(editor.getByLabel('What the model will load')).toContainText('- [Note 139](note_139.md) — note 139');
    await text.press('Control+s');
    const saved = page.getByRole('status').filter({ hasText: 'Saved MEMORY.md' });
    await expect(saved).toBeVisible();
    expect(await read(index, 'MEMORY.md')).toBe(shorter);
    await undo(saved);
    expect(await read(index, 'MEMORY.md')).toBe(original);

    const retargeted = await applyCure(page, detail, 'Point it at archive/deploy_notes.md', 'MEMORY.md', 'archive/');
    expect(await read(index, 'MEMORY.md')).toBe(original.replace('](deploy_notes.md)', '](archive/deploy_notes.md)'));
    await expect(danglingBadge).toBeHidden();
    await undo(retargeted);
    expect(await read(index, 'MEMORY.md')).toBe(original);
    await expect(danglingBadge).toBeVisible();

    const moved = await applyCure(page, detail, 'Move the overflow into a topic file…', 'memory_overflow.md', '- [Note 194](note_194.md)');
    await expect(page.getByRole('dialog')).toBeHidden();
    expect(await read(index, 'memory_overflow.md')).toContain('- [Note 190](note_190.md) — note 190');
    await undo(moved);
    expect(await read(index, 'MEMORY.md')).toBe(original);
    await expect(stat(join(index.memoryDir, 'memory_overflow.md'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  test('topic files: description, type, frontmatter, an absolute date, a masked secret, a merge — each previewed, applied and undone', async ({
    page,
  }) => {
    await openMemory(page, topics);
    const row = (name: string) => page.getByRole('table', { name: 'Topic files' }).getByRole('row').filter({ hasText: name });
    const detail = page.getByRole('article', { name: 'Memory file' });
    const cases: { file: string; cure: string; shows: string; after: (before: string) => string; value?: string }[] = [
      {
        file: topics.files.noDescription,
        cure: 'Fill in a description',
        shows: 'description: Staging resets every night',
        value: 'Staging is rebuilt every night',
        after: (before) => before.replace('type: reference\n', 'type: reference\ndescription: Staging is rebuilt every night\n'),
      },
      {
        file: topics.files.oddType,
        cure: 'Set the type',
        shows: 'type: project',
        after: (before) => before.replace('type: misc', 'type: project'),
      },
      {
        file: topics.files.bare,
        cure: 'Add frontmatter',
        shows: 'name: Bare note',
        after: (before) =>
          `---\nname: Bare note\ndescription: The staging database is rebuilt from the nightly dump.\ntype: project\n---\n${before}`,
      },
      {
        file: topics.files.relativeDate,
        cure: 'Use an absolute date',
        shows: 'Thursday 2026-05-14',
        after: (before) => before.replace('next Thursday', 'Thursday 2026-05-14'),
      },
      {
        file: topics.files.secret,
        cure: 'Mask the secret',
        shows: '[REDACTED]',
        after: (before) => before.replace(FAKE_GITHUB_TOKEN, '[REDACTED]'),
      },
    ];
    for (const cure of cases) {
      const before = await read(topics, cure.file);
      await row(cure.file).click();
      await detail.getByRole('button', { name: cure.cure }).click();
      const dialog = page.getByRole('dialog');
      await expect(dialog.getByRole('table', { name: `Changes to ${cure.file}` })).toContainText(cure.shows);
      // The secret itself never reaches the page.
      await expect(dialog).not.toContainText(FAKE_GITHUB_TOKEN);
      if (cure.value) {
        await dialog.getByRole('textbox', { name: 'Description' }).fill(cure.value);
        await expect(dialog.getByRole('table', { name: `Changes to ${cure.file}` })).toContainText(`description: ${cure.value}`);
      }
      const summary = (await dialog.getByLabel('What it does').textContent())?.split(':')[0] ?? '';
      await dialog.getByRole('button', { name: 'Apply' }).click();
      const banner = page.getByRole('status').filter({ hasText: summary });
      await expect(banner.getByRole('button', { name: 'Undo' })).toBeVisible();
      expect(await read(topics, cure.file)).toBe(cure.after(before));
      await undo(banner);
      expect(await read(topics, cure.file)).toBe(before);
    }

    // A merge is a proposal over three files: the kept one, the dropped one and the index.
    await row(topics.files.duplicateKeep).click();
    await detail.getByRole('button', { name: `Merge ${topics.files.duplicateDrop} into this one…` }).click();
    const merge = page.getByRole('dialog');
    await expect(merge.getByRole('table', { name: `Changes to ${topics.files.duplicateKeep}` })).toContainText('the refund test');
    await expect(merge).toContainText(`Deleted ${topics.files.duplicateDrop}`);
    await merge.getByRole('button', { name: 'Apply' }).click();
    const merged = page.getByRole('status').filter({ hasText: `Merged ${topics.files.duplicateDrop} into ${topics.files.duplicateKeep}` });
    await expect(topicRows(page)).toHaveAttribute('aria-rowcount', String(topics.topicCount));
    await undo(merged);
    await expect(topicRows(page)).toHaveAttribute('aria-rowcount', String(topics.topicCount + 1));
  });

  test('a bulk prune of every never-recalled file is one change set with one undo', async ({ page }) => {
    const texts = await Promise.all(bulk.beyondCap.map((file) => read(bulk, file)));
    const original = await read(bulk, 'MEMORY.md');
    await openMemory(page, bulk);
    await page.getByLabel('Finding filter').selectOption('scan.beyond-cap');
    await expect(page.getByRole('table', { name: 'Topic files' }).getByRole('row')).toHaveCount(bulk.beyondCap.length + 1);
    await page.getByRole('group', { name: 'For every file shown' }).getByRole('button', { name: 'Prune 5 files shown…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Prune 5 files shown' });
    await expect(dialog.getByLabel('What it does')).toHaveText('Pruned 5 files: 6 files.');
    await expect(dialog.getByRole('table', { name: 'Changes to MEMORY.md' })).toContainText('note_001.md');
    const sidebarItem = page.getByRole('navigation', { name: 'Projects' }).getByRole('listitem').filter({ hasText: bulk.project.cwd });
    await expect(sidebarItem).toContainText(`${bulk.topicCount} memories`);
    await dialog.getByRole('button', { name: 'Apply' }).click();
    const banner = page.getByRole('status').filter({ hasText: 'Pruned 5 files' });
    await expect(page.getByRole('note').filter({ hasText: 'No topic file matches these filters.' })).toBeVisible();
    for (const file of bulk.beyondCap) await expect(stat(join(bulk.memoryDir, file))).rejects.toMatchObject({ code: 'ENOENT' });
    // The sidebar's count follows at once, and agrees with the page.
    await expect(sidebarItem).toContainText(`${bulk.topicCount - 5} memories`);
    await expect(page.getByRole('region', { name: 'Memory' }).getByText(`${bulk.topicCount - 5} topic files`)).toBeVisible();
    await undo(banner);
    await expect(sidebarItem).toContainText(`${bulk.topicCount} memories`);
    expect(await Promise.all(bulk.beyondCap.map((file) => read(bulk, file)))).toEqual(texts);
    expect(await read(bulk, 'MEMORY.md')).toBe(original);
  });

  test('filters belong to their page, and a link or a reload lands on the same file and agent', async ({ page }) => {
    await openMemory(page, bulk);
    await page.getByLabel('Type filter').selectOption('unknown');
    await expect(topicRows(page)).toHaveAttribute('aria-rowcount', '3');

    // The Agents page has its own filters: the memory page's does not narrow an agent's review.
    await page.getByRole('tab', { name: 'Agents' }).click();
    await page.getByRole('table', { name: 'Agent memories' }).getByRole('button', { name: 'code-reviewer', exact: true }).click();
    const agentReview = page.getByRole('region', { name: 'Agent code-reviewer' });
    await expect(agentReview.getByLabel('Type filter')).toHaveValue('all');
    await expect(agentReview.getByRole('table', { name: 'Topic files' })).toHaveAttribute('aria-rowcount', '2');
    await agentReview.getByLabel('Type filter').selectOption('user');

    // And the memory page kept its own.
    await page.getByRole('tab', { name: 'Memory' }).click();
    await expect(page.getByLabel('Type filter')).toHaveValue('unknown');
    await expect(topicRows(page)).toHaveAttribute('aria-rowcount', '3');
    await page.getByRole('table', { name: 'Topic files' }).getByRole('row').filter({ hasText: 'odd_type.md' }).click();
    await expect(page).toHaveURL(/page=memory&.*&file=odd_type\.md/);
    const link = page.url();

    await page.getByRole('tab', { name: 'Agents' }).click();
    await page.getByRole('table', { name: 'Agent memories' }).getByRole('button', { name: 'code-reviewer', exact: true }).click();
    await expect(agentReview.getByLabel('Type filter')).toHaveValue('user');
    await agentReview.getByLabel('Type filter').selectOption('all');
    await agentReview.getByRole('table', { name: 'Topic files' }).getByRole('row').filter({ hasText: 'style.md' }).click();
    await expect(page).toHaveURL(/page=agents&.*agent=.*code-reviewer.*&file=style\.md/);
    await page.reload();
    await expect(page.getByRole('region', { name: 'Agent code-reviewer' }).getByRole('article', { name: 'Memory file' })).toContainText(
      'style.md',
    );
    await expect(page).toHaveTitle('style.md · code-reviewer (user) — Agents — Claude Memory Manager');

    // A link to a memory file, opened afresh, lands on it.
    await page.goto('about:blank');
    await page.goto(link);
    await expect(page.getByRole('article', { name: 'Memory file' })).toContainText('odd_type.md');
    await expect(page).toHaveTitle(`odd_type.md — Memory — ${bulk.project.cwd} — Claude Memory Manager`);
  });

  test('the warnings badge opens a page that explains each warning and its fix', async ({ page }) => {
    await page.goto(served.url);
    const item = page.getByRole('navigation', { name: 'Projects' }).getByRole('listitem').filter({ hasText: bulk.project.cwd });
    await item.getByRole('button', { name: '1 warning' }).click();
    const warnings = page.getByRole('region', { name: 'Warnings' });
    // The sidebar and the Sessions page count sessions alike.
    await expect(item).toContainText('2 sessions');
    await expect(warnings.getByRole('region', { name: 'empty file' })).toContainText('Empty transcript (0 bytes)');
    await expect(warnings.getByRole('region', { name: 'empty file' })).toContainText('Fix: Nothing is lost');
    await expect(page).toHaveURL(/page=warnings/);
    await page.getByRole('tab', { name: 'Sessions' }).click();
    await expect(page.getByRole('region', { name: 'Sessions' })).toContainText('2 sessions');
  });

  test('the cures, the index editor and the Warnings page fit from 1024×700 and pass axe in both themes', async ({ page }) => {
    test.setTimeout(120_000);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      for (const viewport of [
        { width: 1024, height: 700 },
        { width: 1440, height: 900 },
      ]) {
        await page.setViewportSize(viewport);
        const where = (what: string) => `${what} at ${viewport.width}×${viewport.height}, ${colorScheme}`;
        await openMemory(page, index);
        await page
          .getByRole('group', { name: 'Indexes' })
          .getByRole('button', { name: /^MEMORY\.md/ })
          .click();
        const detail = page.getByRole('article', { name: 'Memory index' });
        await expect(detail.getByRole('button', { name: 'Shorten the line' })).toBeVisible();
        expect(await sidewaysOverflow(page), where('index with its cures')).toEqual({ page: 0, main: 0 });
        expect(await seriousViolations(page), where('index with its cures')).toEqual([]);
        await detail.getByRole('button', { name: 'Move the overflow into a topic file…' }).click();
        await expect(page.getByRole('dialog').getByRole('table', { name: 'Changes to MEMORY.md' })).toBeVisible();
        expect(await seriousViolations(page), where('fix dialog')).toEqual([]);
        await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
        await detail.getByRole('button', { name: 'Edit' }).click();
        await expect(page.getByRole('form', { name: 'Edit MEMORY.md' })).toBeVisible();
        expect(await sidewaysOverflow(page), where('index editor')).toEqual({ page: 0, main: 0 });
        expect(await seriousViolations(page), where('index editor')).toEqual([]);
        await page.getByRole('form', { name: 'Edit MEMORY.md' }).getByRole('button', { name: 'Cancel' }).click();
        const item = page.getByRole('navigation', { name: 'Projects' }).getByRole('listitem').filter({ hasText: bulk.project.cwd });
        await item.getByRole('button', { name: '1 warning' }).click();
        await expect(page.getByRole('region', { name: 'Warnings' })).toBeVisible();
        expect(await sidewaysOverflow(page), where('warnings page')).toEqual({ page: 0, main: 0 });
        expect(await seriousViolations(page), where('warnings page')).toEqual([]);
      }
    }
  });
});

test.describe('a teammate’s newer snapshot', () => {
  let scenario: StandardScenario;
  let served: Awaited<ReturnType<typeof startServe>>;
  let snapshotDir: string;

  test.beforeAll(async () => {
    scenario = await createStandardScenario();
    // This checkout synced the reviewer's snapshot in April; a teammate has since pushed a newer one, now pulled.
    await scenario.home.agentMemory(
      'project',
      'reviewer',
      { 'MEMORY.md': '# Reviewer\n\n- check the tests\n', '.snapshot-synced.json': '{"syncedFrom":"2026-04-01T00:00:00.000Z"}' },
      scenario.webshop.path,
    );
    snapshotDir = await scenario.home.agentSnapshot(
      scenario.webshop.path,
      'reviewer',
      { 'MEMORY.md': '# Reviewer\n\n- check the tests\n- and the migrations (from a teammate)\n' },
      '2026-05-01T00:00:00.000Z',
    );
    served = await startServe(serveEnv(scenario.home));
  });

  test.afterAll(async () => {
    await served.stop();
    await scenario.home.cleanup();
  });

  test('creating the snapshot warns and offers the merge first; nothing is overwritten', async ({ page }) => {
    const theirs = await readFile(join(snapshotDir, 'MEMORY.md'), 'utf8');
    await page.goto(served.url);
    await page.getByRole('tab', { name: 'Agents' }).click();
    await page.getByRole('table', { name: 'Agent memories' }).getByRole('button', { name: 'reviewer', exact: true }).click();
    await page.getByRole('button', { name: 'Create or update the snapshot' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create or update the snapshot' });
    const warning = dialog.getByRole('alert', { name: 'The snapshot is newer' });
    await expect(warning).toContainText('a teammate’s update you have not taken in');
    await expect(warning).toContainText('would overwrite their version of MEMORY.md');
    await expect(dialog.getByRole('button', { name: 'Confirm' })).toHaveCount(0);
    await warning.getByRole('button', { name: 'Review the merge first' }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('checkbox', { name: 'Take MEMORY.md from the snapshot' })).toBeChecked();
    await expect(page.getByLabel('Differences in MEMORY.md')).toContainText('and the migrations (from a teammate)');
    expect(await readFile(join(snapshotDir, 'MEMORY.md'), 'utf8')).toBe(theirs);
  });
});
