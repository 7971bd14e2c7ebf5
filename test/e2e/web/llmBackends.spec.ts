import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createScenarioHome, topicFile, type ProjectBuilder, type ScenarioHome } from '../../fixtures/scenarioHome';
import type { SessionFacts } from '../../fixtures/sessionLines';
import { textTurn, toolUseTurn, type FakeAnthropicServer } from '../../helpers/fakeAnthropicServer';
import { expect, serveWithFakeAnthropic, startServe, test } from './serveFixture';

/**
 * A stand-in `claude` that answers what Settings asks of it (its version and how it is logged in); the real CLI
 * runs jobs in the integration tests.
 */
const FAKE_CLAUDE = `#!/bin/sh
if [ "$1" = "--version" ]; then echo "2.1.328 (Claude Code)"; exit 0; fi
if [ "$1" = "auth" ] && [ "$2" = "status" ]; then
  echo '{"loggedIn": true, "authMethod": "claude.ai", "apiProvider": "firstParty", "subscriptionType": "max"}'
  exit 0
fi
exit 1
`;

test.describe('choosing what runs the model', () => {
  let home: ScenarioHome;
  let served: Awaited<ReturnType<typeof startServe>>;
  let claude: string;

  test.beforeAll(async () => {
    home = await createScenarioHome({ prefix: 'ccmem-e2e-backends-' });
    claude = join(home.tmp, 'fake-claude');
    await writeFile(claude, FAKE_CLAUDE);
    await chmod(claude, 0o755);
    served = await startServe({
      HOME: home.tmp,
      CLAUDE_CONFIG_DIR: home.root,
      CCMEM_DATA_DIR: join(home.tmp, 'data'),
      CCMEM_CLAUDE_PATH: claude,
      ANTHROPIC_API_KEY: '',
    });
  });

  test.afterAll(async () => {
    await served.stop();
    await home.cleanup();
  });

  test('Settings shows both backends, the Claude Code it found, and what jobs run through', async ({ page }) => {
    await page.goto(served.url);
    await page.getByRole('tab', { name: 'Settings' }).click();
    const settings = page.getByRole('region', { name: 'Model settings' });
    const apiKey = settings.getByRole('region', { name: 'API key backend' });
    const claudeCode = settings.getByRole('region', { name: 'Claude Code backend' });
    await expect(apiKey.getByLabel('API key status')).toHaveText('none');
    await expect(claudeCode.getByLabel('Claude Code status')).toContainText(claude);
    await expect(claudeCode.getByLabel('Claude Code status')).toContainText('from CCMEM_CLAUDE_PATH');
    await expect(claudeCode.getByLabel('Claude Code version')).toHaveText('2.1.328');
    await expect(claudeCode.getByLabel('Claude Code login')).toHaveText(
      'logged in with a Claude subscription (jobs show tokens, not dollars)',
    );
    // Automatic, with no key: Claude Code.
    await expect(settings.getByRole('radio', { name: /Automatic/ })).toBeChecked();
    await expect(settings.getByLabel('Jobs run through')).toHaveText('Jobs started now run through Claude Code.');

    await settings.getByRole('radio', { name: 'API key', exact: true }).check();
    await expect(settings.getByLabel('Jobs run through')).toHaveText(
      'Jobs cannot run yet: set an API key, or install Claude Code and log in.',
    );
    await apiKey.getByLabel(/New API key/).fill('sk-ant-api03-e2e-typed-key-000000');
    await apiKey.getByRole('button', { name: 'Save key' }).click();
    await expect(settings.getByLabel('Jobs run through')).toHaveText('Jobs started now run through the API key.');
    await page.reload();
    await expect(settings.getByRole('radio', { name: 'API key', exact: true })).toBeChecked();
    const saved = JSON.parse(await readFile(join(home.tmp, 'data', 'settings.json'), 'utf8')) as { llm: { backend: string } };
    expect(saved.llm.backend).toBe('api');

    await settings.getByRole('radio', { name: /Claude Code \(your own claude/ }).check();
    await expect(settings.getByLabel('Jobs run through')).toHaveText('Jobs started now run through Claude Code.');
  });
});

test.describe('evidence beside every proposed edit', () => {
  let home: ScenarioHome;
  let project: ProjectBuilder;
  let session: SessionFacts;
  let fake: FakeAnthropicServer;
  let served: Awaited<ReturnType<typeof startServe>>;

  test.beforeAll(async () => {
    home = await createScenarioHome({ prefix: 'ccmem-e2e-evidence-' });
    project = home.project(home.workPath('shop'));
    session = await project.session({ turns: 1, prompts: ['Always run make test-unit, make test is gone'] });
    await project.memoryIndex('- [Tests](feedback_tests.md) — run make test\n');
    await project.memory(
      'feedback_tests.md',
      topicFile({ variant: 'flat', name: 'Tests', description: 'How to test', type: 'feedback', body: 'Run `make test`.\n' }),
    );
    ({ fake, served } = await serveWithFakeAnthropic(home, 'sk-ant-api03-e2e-evidence-key-0000000'));
  });

  test.afterAll(async () => {
    await served.stop();
    await fake.close();
    await home.cleanup();
  });

  test('shows the cited lines next to the diff, flags an uncited change, and opens the transcript at a cited line', async ({ page }) => {
    const line = (await readFile(session.file, 'utf8')).split('\n').findIndex((text) => text.includes('make test-unit')) + 1;
    fake.enqueue(
      toolUseTurn([
        {
          name: 'edit_file',
          input: {
            path: 'feedback_tests.md',
            old_string: '`make test`',
            new_string: '`make test-unit`',
            evidence: [{ source: session.sessionId, line, quote: 'always run make test-unit' }],
          },
        },
        { name: 'write_file', input: { path: 'project_notes.md', content: 'A note with no source.\n' } },
      ]),
      textTurn('Updated the test command; added a note.'),
    );
    await page.goto(served.url);
    await page.getByRole('navigation', { name: 'Projects' }).getByText(project.cwd, { exact: true }).click();
    await page.getByRole('tab', { name: 'Dreams' }).click();
    await page.getByRole('button', { name: 'Dream now' }).click();

    const tests = page.getByRole('region', { name: 'Proposal feedback_tests.md' });
    const notes = page.getByRole('region', { name: 'Proposal project_notes.md' });
    await expect(tests.getByLabel('Evidence check')).toHaveText('citations checked');
    const evidence = tests.getByRole('complementary', { name: 'Evidence for feedback_tests.md' });
    const citation = evidence.getByRole('listitem', { name: `Citation session ${session.sessionId.slice(0, 8)}, line ${line}` });
    await expect(citation).toContainText('always run make test-unit');
    await expect(citation.getByLabel('The cited line')).toHaveText('[user] Always run make test-unit, make test is gone');
    await expect(notes.getByLabel('Evidence check')).toHaveText('cites nothing');
    await expect(notes.getByRole('complementary', { name: 'Evidence for project_notes.md' })).toContainText('The model cited nothing');

    await citation.getByRole('button', { name: 'Open the transcript at that line' }).click();
    await expect(page).toHaveURL(new RegExp(`session=${session.sessionId}.*line=${line}`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(session.title!);
  });
});
