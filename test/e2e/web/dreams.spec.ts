import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createScenarioHome, topicFile, type ProjectBuilder, type ScenarioHome } from '../../fixtures/scenarioHome';
import { textTurn, toolUseTurn, type FakeAnthropicServer } from '../../helpers/fakeAnthropicServer';
import { expect, serveWithFakeAnthropic, type startServe, test } from './serveFixture';

const API_KEY = 'sk-ant-api03-e2e-key-must-not-leak-0123456789';

test.describe('a dream run from the browser', () => {
  let home: ScenarioHome;
  let project: ProjectBuilder;
  let fake: FakeAnthropicServer;
  let served: Awaited<ReturnType<typeof startServe>>;
  let dataDir: string;

  test.beforeAll(async () => {
    home = await createScenarioHome({ prefix: 'ccmem-e2e-dreams-' });
    project = home.project(home.workPath('shop'));
    await project.session({ turns: 1, prompts: ['Always run make test-unit, make test is gone'] });
    // A newer file of bookkeeping lines only (Claude Code writes one when a session is opened and left): nothing to
    // replay, so the extraction panel must not offer it first.
    const snapshot = { messageId: 'm-1', trackedFileBackups: {}, timestamp: new Date().toISOString() };
    await project.rawFile(
      '0f0e0d0c-0000-4000-8000-000000000001.jsonl',
      `${JSON.stringify({ type: 'file-history-snapshot', messageId: 'm-1', snapshot, isSnapshotUpdate: false })}\n`,
    );
    await project.memoryIndex('- [Tests](feedback_tests.md) — run make test\n');
    await project.memory(
      'feedback_tests.md',
      topicFile({ variant: 'flat', name: 'Tests', description: 'How to test', type: 'feedback', body: 'Run `make test`.\n' }),
    );
    dataDir = join(home.tmp, 'data');
    ({ fake, served } = await serveWithFakeAnthropic(home, API_KEY));
  });

  test.afterAll(async () => {
    await served.stop();
    await fake.close();
    await home.cleanup();
  });

  test('shows live progress, lets one file be approved and another rejected, and records the change set', async ({ page }) => {
    fake.enqueue(
      toolUseTurn([
        { name: 'edit_file', input: { path: 'feedback_tests.md', old_string: '`make test`', new_string: '`make test-unit`' } },
        {
          name: 'write_file',
          input: { path: 'project_notes.md', content: 'An unwanted note. ![x](https://tracker.example.com/pixel.png)\n' },
        },
      ]),
      { kind: 'delay', ms: 2500, then: textTurn('Updated the test command; added a note.') },
    );
    const external: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(new URL(served.url).origin)) external.push(request.url());
    });

    await page.goto(served.url);
    await page.getByRole('navigation', { name: 'Projects' }).getByText(project.cwd, { exact: true }).click();
    await page.getByRole('tab', { name: 'Dreams' }).click();
    await expect(page.getByLabel('Consolidation')).toContainText('never (no .consolidate-lock)');
    await page.getByRole('button', { name: 'Dream now' }).click();

    // While the model writes its summary, the staged files and the spend so far are on screen.
    const progress = page.getByRole('status', { name: 'Job progress' });
    await expect(progress).toContainText('3 · consolidate');
    await expect(progress).toContainText('feedback_tests.md, project_notes.md');
    await expect(progress).toContainText('1,000 in, 200 out ($0.0060)');
    await expect(progress.getByRole('button', { name: 'Cancel' })).toBeVisible();

    const tests = page.getByRole('region', { name: 'Proposal feedback_tests.md' });
    const notes = page.getByRole('region', { name: 'Proposal project_notes.md' });
    await expect(tests).toContainText('+ Run `make test-unit`.');
    await expect(page.getByLabel('Model summary')).toHaveText('Updated the test command; added a note.');
    await tests.getByRole('button', { name: 'Approve' }).click();
    await notes.getByRole('button', { name: 'Reject' }).click();
    await expect(tests.getByLabel('Decision')).toHaveText('approved');
    await expect(notes.getByLabel('Decision')).toHaveText('rejected');
    await page.getByRole('button', { name: 'Apply 1 approved file' }).click();

    const result = page.getByRole('status', { name: 'Apply result' });
    await expect(result).toContainText('Applied 1 file(s).');
    await expect(result.getByRole('list', { name: 'Applied files' })).toHaveText('feedback_tests.md (changed)');
    const changeSetId = (await result.locator('code').first().textContent())!;
    await expect(page.getByRole('table', { name: 'Job records' })).toContainText('applied');
    await expect(page.getByLabel('Consolidation')).not.toContainText('never');

    expect(await readFile(join(project.memoryDir, 'feedback_tests.md'), 'utf8')).toContain('`make test-unit`');
    await expect(stat(join(project.memoryDir, 'project_notes.md'))).rejects.toThrow();
    // The history journal holds the change set as one dream.
    const journal = (await readFile(join(dataDir, 'history', 'journal.jsonl'), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { changeSetId: string; cause: string; path: string });
    expect(journal.filter((entry) => entry.changeSetId === changeSetId).map((entry) => [entry.path, entry.cause])).toEqual([
      ['feedback_tests.md', 'dream'],
    ]);

    // …and the History page shows it as one dream, with the approved file only.
    await page.getByRole('tab', { name: 'History' }).click();
    const dream = page.getByRole('listbox', { name: 'Change sets' }).getByRole('option').filter({ hasText: 'Updated the test command' });
    await expect(dream).toHaveCount(1);
    await expect(dream).toContainText('Dream');
    await dream.click();
    const detail = page.getByRole('article', { name: 'Change set' });
    await expect(detail.getByRole('region', { name: 'File feedback_tests.md' })).toBeVisible();
    await expect(detail.getByRole('region', { name: 'File project_notes.md' })).toHaveCount(0);
    await expect(detail.getByRole('button', { name: 'Revert this change set' })).toBeEnabled();
    expect(external).toEqual([]);
    for (const request of fake.requests) expect(request.rawBody).not.toContain(API_KEY);
    expect(served.output()).not.toContain(API_KEY);
  });

  test('an extraction replay shows its estimate first; a typed key is used but never shown again', async ({ page }) => {
    await page.goto(served.url);
    await page.getByRole('navigation', { name: 'Projects' }).getByText(project.cwd, { exact: true }).click();
    await page.getByRole('tab', { name: 'Dreams' }).click();
    const replay = page.getByRole('region', { name: 'Extraction replay' });
    await expect(replay.getByRole('button', { name: 'Start replay' })).toBeDisabled();
    // The conversation is offered first, the newer bookkeeping-only file after it.
    await expect(replay.getByLabel('Session').locator('option')).toHaveCount(2);
    await expect(replay.getByLabel('Session').locator('option').last()).toContainText('0f0e0d0c-0000-4000-8000-000000000001 (no date)');
    await replay.getByRole('button', { name: 'Estimate cost' }).click();
    await expect(replay.getByLabel('Estimate')).toContainText('1 session(s), 2 message(s) in 1 part(s)');
    fake.enqueue(textTurn('Nothing worth saving.'));
    await replay.getByRole('button', { name: 'Start replay' }).click();
    await expect(page.getByRole('region', { name: 'Job' })).toContainText('No changes were proposed.');
    expect(fake.requests[fake.requests.length - 1].rawBody).toContain('Always run make test-unit');

    const typedKey = 'sk-ant-api03-typed-in-the-browser-987654321';
    await page.getByRole('tab', { name: 'Settings' }).click();
    const settings = page.getByRole('region', { name: 'Model settings' });
    await expect(settings.getByLabel('API key status')).toHaveText('from ANTHROPIC_API_KEY');
    await settings.getByLabel(/New API key/).fill(typedKey);
    await settings.getByRole('button', { name: 'Save key' }).click();
    await expect(settings.getByLabel('API key status')).toHaveText('entered here, kept in memory until the server stops');
    await expect(settings.getByLabel(/New API key/)).toHaveValue('');
    fake.enqueue(textTurn('OK'));
    await settings.getByRole('button', { name: 'Test the API key' }).click();
    await expect(settings.getByLabel('Connection test')).toContainText('Connected through the API key: claude-sonnet-4-6');
    expect(fake.requests[fake.requests.length - 1].headers.authorization).toBe(`Bearer ${typedKey}`);
    await page.reload();
    await expect(settings.getByLabel('API key status')).toHaveText('entered here, kept in memory until the server stops');
    expect(await page.content()).not.toContain(typedKey);
    expect(served.output()).not.toContain(typedKey);
  });
});
