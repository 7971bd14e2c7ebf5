import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { createDreamScenario, simulateDream, type DreamScenario } from '../../integration/history/dreamSimulation';
import { appendLines, setMtime, toolUseLine } from '../../integration/history/historyFixtures';
import { expect, serveEnv, startServe, test } from './serveFixture';

const cli = resolve(import.meta.dirname, '../../../out/cli/index.js');

/**
 * The file's text, or null while its path is empty: the app's writer moves the old version aside for a few
 * synchronous calls before it links the new one in (safeWriter's swap), and a read from this process can land there.
 */
function textWhileWritten(path: string): Promise<string | null> {
  return readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
}

test.describe('memory history in the browser', () => {
  let scenario: DreamScenario;
  let env: NodeJS.ProcessEnv;
  let served: Awaited<ReturnType<typeof startServe>>;
  const originals = new Map<string, string>();

  test.beforeAll(async () => {
    scenario = await createDreamScenario();
    env = serveEnv(scenario.home);
    for (const name of scenario.names) originals.set(name, await readFile(join(scenario.project.memoryDir, name), 'utf8'));
    // History sees the memory as it was, then Claude Code dreams while the app is closed.
    await promisify(execFile)(process.execPath, [cli, 'history'], { env: { ...process.env, ...env } });
    await simulateDream(scenario, { improved: true });
    served = await startServe(env);
  });

  test.afterAll(async () => {
    await served?.stop();
    await scenario?.home.cleanup();
  });

  test('a dream found at start-up: see it in the list, read its diff, revert one file', async ({ page }) => {
    await page.goto(served.url);
    const sidebar = page.getByRole('navigation', { name: 'Projects' });
    await sidebar.getByText(scenario.project.cwd, { exact: true }).click();
    await expect(sidebar.getByText('1 dream to review')).toBeVisible();

    await page.getByRole('tab', { name: 'Dreams' }).click();
    const review = page.getByRole('region', { name: 'Dreams, after the fact' });
    const dreams = review.getByRole('listitem').filter({ hasText: 'Not reviewed' });
    await expect(dreams).toHaveCount(1);
    await expect(dreams).toContainText('21 modified');
    await expect(dreams).toContainText('5 deleted');
    await expect(dreams).toContainText(scenario.names[24]);

    await dreams.getByRole('button', { name: 'Show changes (revert per file)' }).click();
    const file = dreams.getByRole('region', { name: `File ${scenario.names[3]}` });
    const diff = file.getByRole('table', { name: `Diff of ${scenario.names[3]}` });
    await expect(diff.locator('mark.word-added')).toContainText(['Merged']);
    await expect(diff).toContainText('Folded in from');
    await dreams.getByRole('button', { name: 'Inline' }).first().click();
    await expect(file.locator('table.diff-inline')).toBeVisible();

    await file.getByRole('button', { name: 'Revert this file' }).click();
    const dialog = dreams.getByRole('dialog', { name: `Revert ${scenario.names[3]}` });
    await expect(dialog.getByRole('list', { name: 'Files to write' })).toContainText(scenario.names[3]);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expect(dialog).toBeHidden();
    await expect.poll(() => textWhileWritten(join(scenario.project.memoryDir, scenario.names[3]))).toBe(originals.get(scenario.names[3]));
    // Only that file went back.
    expect(await readFile(join(scenario.project.memoryDir, scenario.names[4]), 'utf8')).not.toBe(originals.get(scenario.names[4]));

    await dreams.getByRole('button', { name: 'Keep' }).click();
    await expect(review.getByRole('listitem').filter({ hasText: 'Kept' })).toHaveCount(1);
    await expect(sidebar.getByText('1 dream to review')).toBeHidden();
  });

  test('the timeline shows who changed a file, opens the transcript at that turn, and restores a version', async ({ page }) => {
    const name = scenario.names[10];
    const path = join(scenario.project.memoryDir, name);
    const now = new Date();
    await appendLines(scenario.session.file, [
      toolUseLine({ sessionId: scenario.session.sessionId, cwd: scenario.project.cwd, time: new Date(now.getTime() - 1500) }, 'Write', {
        file_path: path,
        content: 'Rewritten by a session.\n',
      }),
    ]);
    await writeFile(path, 'Rewritten by a session.\n');
    await setMtime(path, now);

    await page.goto(served.url);
    await page.getByRole('navigation', { name: 'Projects' }).getByText(scenario.project.cwd, { exact: true }).click();
    await page.getByRole('tab', { name: 'History' }).click();
    const list = page.getByRole('listbox', { name: 'Change sets' });
    const sessionRow = list.getByRole('option').filter({ hasText: 'Write in session' });
    await expect(sessionRow).toHaveCount(1, { timeout: 15_000 });

    // Filter by cause: without sessions only the dream and the revert remain.
    await page.getByRole('group', { name: 'Causes' }).getByLabel('Claude Code session').uncheck();
    await expect(sessionRow).toHaveCount(0);
    await page.getByRole('group', { name: 'Causes' }).getByLabel('Claude Code session').check();
    await sessionRow.click();
    const detail = page.getByRole('article', { name: 'Change set' });
    await expect(detail.getByRole('table', { name: `Diff of ${name}` })).toContainText('Rewritten by a session.');

    await detail.getByRole('button', { name: 'All versions' }).click();
    const versions = page.getByRole('region', { name: `Versions of ${name}` });
    const rows = versions.getByRole('table', { name: 'Versions', exact: true }).getByRole('row');
    await expect(rows).toHaveCount(4);
    await rows.last().getByRole('button', { name: 'Restore this version' }).click();
    await versions.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => textWhileWritten(path)).toBe(originals.get(name));
    await expect(rows).toHaveCount(5);

    await versions.getByRole('button', { name: 'Back to the change set' }).click();
    await page.getByRole('article', { name: 'Change set' }).getByRole('button', { name: 'Open the transcript at that turn' }).click();
    await expect(page.getByRole('tab', { name: 'History' })).toHaveAttribute('aria-selected', 'false');
    await expect(page).toHaveURL(new RegExp(`session=${scenario.session.sessionId}.*line=\\d+`));
  });
});
