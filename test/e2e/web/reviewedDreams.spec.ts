import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createScenarioHome, topicFile, type ProjectBuilder, type ScenarioHome } from '../../fixtures/scenarioHome';
import { textTurn, toolUseTurn, type FakeAnthropicServer } from '../../helpers/fakeAnthropicServer';
import { expect, serveWithFakeAnthropic, type startServe, test } from './serveFixture';

const API_KEY = 'sk-ant-api03-e2e-reviewed-dreams-key-0123456789';

test.describe('reviewed dreams in the browser', () => {
  let home: ScenarioHome;
  let project: ProjectBuilder;
  let fake: FakeAnthropicServer;
  let served: Awaited<ReturnType<typeof startServe>>;

  test.beforeAll(async () => {
    home = await createScenarioHome({ prefix: 'ccmem-e2e-reviewed-' });
    project = home.project(home.workPath('shop'));
    // Six sessions and never consolidated: Claude Code's gate would fire now.
    for (let i = 0; i < 6; i++) await project.session({ turns: 1, prompts: [`Work on the shop, part ${i + 1}`] });
    await project.memoryIndex('- [Tests](feedback_tests.md) — run make test\n- [Deploy](project_deploy.md) — deploy on Fridays\n');
    await project.memory(
      'feedback_tests.md',
      topicFile({ variant: 'flat', name: 'Tests', description: 'How to test', type: 'feedback', body: 'Run `make test`.\n' }),
    );
    await project.memory(
      'project_deploy.md',
      topicFile({ variant: 'flat', name: 'Deploy', description: 'When to deploy', type: 'project', body: 'We deploy on Fridays.\n' }),
    );
    ({ fake, served } = await serveWithFakeAnthropic(home, API_KEY));
  });

  test.afterAll(async () => {
    await served.stop();
    await fake.close();
    await home.cleanup();
  });

  test('the inbox shows a scheduled dream’s proposals; one file is approved, another rejected', async ({ page }) => {
    fake.enqueue(
      toolUseTurn([
        { name: 'edit_file', input: { path: 'feedback_tests.md', old_string: '`make test`', new_string: '`make test-unit`' } },
        { name: 'edit_file', input: { path: 'project_deploy.md', old_string: 'Fridays', new_string: 'any day' } },
      ]),
      textTurn('Updated the test command and the deploy day.'),
    );
    await page.goto(served.url);
    await page.getByRole('navigation', { name: 'Projects' }).getByText(project.cwd, { exact: true }).click();
    await page.getByRole('tab', { name: 'Dreams' }).click();
    const inbox = page.getByRole('region', { name: 'Review inbox' });
    await expect(inbox).toContainText('Nothing waits for review');
    const pageTitle = `Dreams — ${project.cwd} — Claude Memory Manager`;
    await expect(page).toHaveTitle(pageTitle);

    // Turning reviewed dreams on for the project: its gate is open, so a dream runs in the background.
    const reviewed = page.getByRole('region', { name: 'Reviewed dreams' });
    const toggle = reviewed.getByRole('checkbox', { name: 'Reviewed dreams for this project' });
    // The box shows what the engine saved, so it turns checked once the setting is stored.
    await toggle.click();
    await expect(toggle).toBeChecked();
    await expect(reviewed.getByRole('note', { name: /Claude Code auto-dream/ })).toContainText('two consolidators on one memory');

    const item = inbox.getByRole('listitem', { name: `Proposals for ${project.cwd}` });
    await expect(item).toContainText('on Claude Code’s schedule');
    await expect(item).toContainText('Updated the test command and the deploy day.');
    await expect(item.getByRole('list', { name: 'Files touched' })).toContainText('feedback_tests.md');
    await expect(item.getByRole('list', { name: 'Files touched' })).toContainText('project_deploy.md');
    await expect(page.getByRole('button', { name: 'Review inbox: 1 waiting' })).toBeVisible();
    await expect(page).toHaveTitle(`(1) ${pageTitle}`);
    // Claude Code's gate is shut now: the lock's mtime is the dream's start, and no process holds it.
    await expect(page.getByLabel('Would auto-dream fire')).toContainText('no');

    await item.getByRole('button', { name: 'Review' }).click();
    const tests = page.getByRole('region', { name: 'Proposal feedback_tests.md' });
    const deploy = page.getByRole('region', { name: 'Proposal project_deploy.md' });
    await tests.getByRole('button', { name: 'Approve' }).click();
    await deploy.getByRole('button', { name: 'Reject' }).click();
    await page.getByRole('button', { name: 'Apply 1 approved file' }).click();
    await expect(page.getByRole('status', { name: 'Apply result' })).toContainText('Applied 1 file(s).');

    await expect(inbox).toContainText('Nothing waits for review');
    await expect(page.getByRole('button', { name: 'Review inbox: 0 waiting' })).toBeVisible();
    await expect(page).toHaveTitle(pageTitle);
    expect(await readFile(join(project.memoryDir, 'feedback_tests.md'), 'utf8')).toContain('`make test-unit`');
    expect(await readFile(join(project.memoryDir, 'project_deploy.md'), 'utf8')).toContain('We deploy on Fridays.');
    expect(await readFile(join(project.memoryDir, '.consolidate-lock'), 'utf8')).toBe('');
    expect((await stat(join(project.memoryDir, '.consolidate-lock'))).isFile()).toBe(true);
    for (const request of fake.requests) expect(request.rawBody).not.toContain(API_KEY);
  });

  test('turns Claude Code’s own auto-dream off from the offer, and undoes it', async ({ page }) => {
    const settingsFile = join(home.root, 'settings.json');
    await page.goto(served.url);
    await page.getByRole('navigation', { name: 'Projects' }).getByText(project.cwd, { exact: true }).click();
    await page.getByRole('tab', { name: 'Dreams' }).click();
    const offer = page.getByRole('region', { name: 'Reviewed dreams' }).getByRole('note', { name: /Claude Code auto-dream/ });
    await expect(offer).toContainText('not set, so a server-side switch decides');
    await offer.getByRole('button', { name: "Turn off Claude Code's auto-dream" }).click();
    await expect(offer).toContainText('turned off here');
    expect(JSON.parse(await readFile(settingsFile, 'utf8'))).toEqual({ autoDreamEnabled: false });
    await expect(page.getByLabel('Consolidation')).toContainText('off');

    await offer.getByRole('button', { name: 'Undo: put settings.json back' }).click();
    await expect(offer).toContainText('not set, so a server-side switch decides');
    await expect(stat(settingsFile)).rejects.toThrow();
  });
});
