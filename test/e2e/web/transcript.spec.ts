import type { Page } from '@playwright/test';
import { createScenarioHome, type ScenarioHome } from '../../fixtures/scenarioHome';
import { snapshotTree } from '../../fixtures/treeSnapshot';
import { writeRichSession, type RichSession } from '../../integration/transcripts/richSession';
import { expect, serveEnv, startServe, test } from './serveFixture';

test.describe('the transcript viewer in the web shell', () => {
  let home: ScenarioHome;
  let rich: RichSession;
  let slug: string;
  let commandSessionId: string;
  const attachmentSessionId = '5e55a11c-0000-4000-8000-00000000a77a';
  let served: Awaited<ReturnType<typeof startServe>>;

  test.beforeAll(async () => {
    home = await createScenarioHome({ prefix: 'ccmem-e2e-transcript-' });
    const project = home.project(home.workPath('shop'));
    slug = project.slug;
    rich = await writeRichSession(project);
    // How Claude Code records a slash command typed with arguments.
    // How Claude Code records a /clear (with what it printed), a slash command typed with arguments, and a shell
    // command typed after `!` with its output.
    ({ sessionId: commandSessionId } = await project.session({
      titleKind: 'first-prompt',
      clearPreamble: true,
      turns: 3,
      prompts: [
        '<command-message>orchestrator is running…</command-message>\n<command-name>/orchestrator</command-name>\n<command-args>create TODO app by Next.js</command-args>',
        '<bash-input>git status</bash-input>',
        '<bash-stdout>On branch main</bash-stdout><bash-stderr>warning: untracked cache</bash-stderr>',
      ],
    }));
    // A skill listing: bookkeeping Claude Code attaches to a turn, shown by its type only until something finds its text.
    const envelope = { sessionId: attachmentSessionId, cwd: project.cwd, version: '2.1.128', userType: 'external', isSidechain: false };
    const lines = [
      {
        ...envelope,
        type: 'user',
        uuid: 'u-1',
        parentUuid: null,
        timestamp: '2026-05-06T10:00:00.000Z',
        message: { role: 'user', content: 'Which skills are there?' },
      },
      {
        ...envelope,
        type: 'attachment',
        uuid: 'a-1',
        parentUuid: 'u-1',
        timestamp: '2026-05-06T10:00:00.000Z',
        attachment: { type: 'skill_listing', content: '- zebra-crossing: Helps a model cross the road safely' },
      },
      {
        ...envelope,
        type: 'assistant',
        uuid: 'r-1',
        parentUuid: 'a-1',
        timestamp: '2026-05-06T10:00:02.000Z',
        message: { id: 'msg_1', role: 'assistant', model: 'claude-sonnet-4-6', content: [{ type: 'text', text: 'One skill is listed.' }] },
      },
    ];
    await project.rawFile(`${attachmentSessionId}.jsonl`, lines.map((line) => JSON.stringify(line)).join('\n') + '\n');
    served = await startServe(serveEnv(home));
  });

  test.afterAll(async () => {
    await served.stop();
    await home.cleanup();
  });

  /** Opens the transcript the way the timeline and search results do: through its route. */
  async function openSession(page: Page, session = rich.sessionId, title: string = rich.title): Promise<void> {
    await page.goto(served.url);
    await expect(page.locator('#root[data-app-state="ready"]')).toBeAttached();
    const route = new URLSearchParams({ page: 'transcript', root: home.root, project: slug, session });
    await page.evaluate((hash) => (window.location.hash = hash), `#/${route.toString()}`);
    await expect(page.getByRole('heading', { name: title })).toBeVisible();
  }

  test('opens a session, crosses a compaction, opens a sub-agent, finds text and copies the resume command', async ({ page, context }) => {
    const before = await snapshotTree(home.root);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await openSession(page);
    const transcript = page.getByLabel('Transcript', { exact: true }).last();
    await expect(transcript.getByText(rich.firstPrompt)).toBeVisible();
    await expect(transcript.getByText('Thinking — empty: Claude Code stored no thinking text').first()).toBeVisible();
    await expect(transcript.getByText(`$ ${rich.bashCommand}`)).toBeVisible();
    await expect(page.getByText('The session has no')).toHaveCount(0);

    // Cross the compaction: jump to it, read the kept summary, and find the history before it just above.
    await page.getByRole('list', { name: 'Compactions' }).getByRole('button').click();
    const divider = transcript.getByRole('separator', { name: 'Conversation compacted' });
    await expect(divider).toBeVisible();
    await expect(divider).toContainText('171,234 tokens');
    await transcript.getByText('Summary Claude Code kept of the earlier conversation').click();
    await expect(transcript.getByText(/Primary Request and Intent: tidy checkout/)).toBeVisible();
    await transcript.evaluate((element) => element.scrollBy(0, -250));
    await expect(transcript.getByText('Renamed the module to shopping-cart.')).toBeVisible();

    // Open the sub-agent from the Agent call, and come back to the call.
    await transcript.evaluate((element) => (element.scrollTop = 0));
    await transcript.getByRole('button', { name: 'Open sub-agent' }).click();
    const breadcrumb = page.getByRole('navigation', { name: 'Sub-agent' });
    await expect(breadcrumb).toContainText('Explore');
    await expect(breadcrumb).toContainText('Find cart total code');
    await expect(transcript.getByText(rich.subagentPrompt)).toBeVisible();
    await expect(transcript.getByText(rich.subagentAnswer)).toBeVisible();
    await breadcrumb.getByRole('button', { name: 'Main conversation' }).click();
    await expect(page.getByRole('navigation', { name: 'Sub-agent' })).toHaveCount(0);
    await expect(transcript.getByLabel('Tool call Agent')).toBeVisible();

    // Find within the transcript, in a tool's output.
    const find = page.getByRole('search', { name: 'Find in transcript' });
    await find.getByRole('searchbox').fill('tests: 12 passed');
    await find.getByRole('searchbox').press('Enter');
    await expect(find.getByLabel('Find status')).toHaveText('1 of 1');
    await expect(page.locator('.tx-hit-current')).toContainText('Tests: 12 passed');

    // Copy the resume command (the browser cannot open a terminal, so it only offers copying).
    await expect(page.getByRole('button', { name: 'Resume in terminal' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Copy command' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Copied to the clipboard.' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`cd '${rich.cwd}' && claude --resume ${rich.sessionId}`);

    expect(await snapshotTree(home.root)).toEqual(before);
  });

  test('switches to the other branch at a fork, shows meta lines on request and reads the session memory', async ({ page }) => {
    await openSession(page);
    const transcript = page.getByLabel('Transcript', { exact: true }).last();
    await expect(page.getByLabel('Session memory', { exact: true })).toContainText('Tidy checkout and fix the cart total');
    await expect(transcript.getByText(rich.metaText)).toHaveCount(0);
    await page.getByLabel('Show meta lines').check();
    await expect(transcript.getByText(/injected skill body/)).toBeVisible();

    const branches = transcript.getByRole('group', { name: 'Branches' });
    await branches.scrollIntoViewIfNeeded();
    await expect(branches).toContainText('showing 2 of 2');
    await branches.getByRole('button', { name: new RegExp(rich.abandonedPrompt) }).click();
    await expect(page.getByRole('button', { name: 'Back to the live branch' })).toBeVisible();
    await expect(transcript.getByText(rich.abandonedPrompt).first()).toBeVisible();
    await page.getByRole('button', { name: 'Back to the live branch' }).click();
    await expect(page.getByRole('button', { name: 'Back to the live branch' })).toHaveCount(0);
  });

  test('a turn Claude Code appends shows up in place', async ({ page }) => {
    await openSession(page);
    const transcript = page.getByLabel('Transcript', { exact: true }).last();
    await expect(transcript).toHaveAttribute('data-row-count', /\d+/);
    const rowsBefore = Number(await transcript.getAttribute('data-row-count'));
    await rich.appendTurn('Live prompt from the terminal', 'Live answer, appended while the viewer was open');
    await expect(transcript).toHaveAttribute('data-row-count', String(rowsBefore + 2));
    await transcript.evaluate((element) => (element.scrollTop = element.scrollHeight));
    await expect(transcript.getByText('Live answer, appended while the viewer was open')).toBeVisible();
  });

  test('exports the session as a self-contained HTML file', async ({ page }) => {
    await openSession(page);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export HTML' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`claude-session-${rich.sessionId}.html`);
    const path = await file.path();
    const { readFile } = await import('node:fs/promises');
    const html = await readFile(path, 'utf8');
    expect(html).toContain(rich.afterCompactionPrompt);
    expect(html).not.toMatch(/<script|src="http/);
  });

  test('shows commands as they were run, with the tags Claude Code recorded them in one click away', async ({ page }) => {
    await openSession(page, commandSessionId, '/orchestrator create TODO app by Next.js');
    const transcript = page.getByLabel('Transcript', { exact: true }).last();
    const slash = transcript.getByLabel('Slash command').filter({ hasText: 'orchestrator' });
    await expect(slash.locator('p')).toHaveText('/orchestrator create TODO app by Next.js');
    await expect(slash.locator('code')).toHaveText('/orchestrator');
    const recorded = slash.getByText('<command-name>/orchestrator</command-name>');
    await expect(recorded).toBeHidden();
    await slash.getByText('As Claude Code recorded it').click();
    await expect(recorded).toBeVisible();

    await expect(transcript.getByLabel('Slash command').filter({ hasText: '/clear' }).locator('p')).toHaveText('/clear');
    await expect(transcript.getByLabel('System entry').getByLabel('Command output')).toContainText('printed nothing');
    await expect(transcript.getByLabel('Shell command')).toContainText('! git status');
    await transcript.evaluate((element) => (element.scrollTop = element.scrollHeight));
    const output = transcript.getByLabel('Command output').filter({ hasText: 'On branch main' });
    await expect(output.locator('.tx-stderr')).toHaveText('warning: untracked cache');
  });

  test('find opens the text of a bookkeeping attachment it matched', async ({ page }) => {
    await openSession(page, attachmentSessionId, 'Which skills are there?');
    const attachment = page.getByLabel('Attachment');
    await expect(attachment).toHaveText(/attachment · skill listing\s*$/);
    await page.getByRole('searchbox', { name: 'Find in transcript' }).fill('zebra-crossing');
    await page.getByRole('searchbox', { name: 'Find in transcript' }).press('Enter');
    await expect(page.getByLabel('Find status')).toHaveText('1 of 1');
    await expect(attachment).toContainText('zebra-crossing: Helps a model cross the road safely');
    await page.getByRole('searchbox', { name: 'Find in transcript' }).press('Escape');
    await expect(attachment).not.toContainText('zebra-crossing');
  });
});
