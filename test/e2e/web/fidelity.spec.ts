import type { Page } from '@playwright/test';
import { createScenarioHome, type ScenarioHome } from '../../fixtures/scenarioHome';
import { seededUuid } from '../../fixtures/sessionLines';
import { snapshotTree } from '../../fixtures/treeSnapshot';
import { assistantChunk, toolResult, toolUse, userPrompt } from '../../fixtures/transcriptLines';
import { expect, serveEnv, startServe, test } from './serveFixture';

const PR = seededUuid('e2e-fidelity-pr');
const ORPHAN = seededUuid('e2e-fidelity-orphan');

/** Shapes real homes hold (issue #16) seen through the UI: a PR badge, a hook under its call, a spilled output, an orphan. */
test.describe('format fidelity in the web shell', () => {
  let home: ScenarioHome;
  let served: Awaited<ReturnType<typeof startServe>>;

  test.beforeAll(async () => {
    home = await createScenarioHome({ prefix: 'ccmem-e2e-fidelity-' });
    const project = home.project(home.workPath('atelier'));
    const cwd = home.workPath('atelier');
    const envelope = (uuid: string, parentUuid: string | null, minute: number) => ({
      sessionId: PR,
      cwd,
      uuid: seededUuid(`${PR}:${uuid}`),
      parentUuid: parentUuid === null ? null : seededUuid(`${PR}:${parentUuid}`),
      timestamp: `2026-06-01T10:0${minute}:00.000Z`,
    });
    const spilled = `${project.dir}/${PR}/tool-results/toolu_gh.txt`;
    await project.rawFile(
      `${PR}.jsonl`,
      [
        userPrompt('Open the pull request', envelope('u', null, 0)),
        assistantChunk({
          ...envelope('call', 'u', 1),
          messageId: 'msg_pr',
          usage: { output: 4 },
          block: toolUse('toolu_gh', 'Bash', { command: 'gh pr create' }),
        }),
        JSON.stringify({
          parentUuid: seededUuid(`${PR}:call`),
          isSidechain: false,
          attachment: {
            type: 'hook_success',
            hookName: 'PreToolUse:Bash',
            toolUseID: 'toolu_gh',
            hookEvent: 'PreToolUse',
            content: 'policy check passed',
            exitCode: 0,
            command: './policy.sh',
          },
          type: 'attachment',
          uuid: seededUuid(`${PR}:hook`),
          timestamp: '2026-06-01T10:02:00.000Z',
          sessionId: PR,
        }),
        toolResult(
          'toolu_gh',
          `<persisted-output>\nOutput too large (40KB). Full output saved to: ${spilled}\n\nPreview (first 2KB):\nCreating pull request…\n</persisted-output>`,
          {
            ...envelope('result', 'call', 3),
            toolUseResult: { stdout: 'Creating pull request…', stderr: '', interrupted: false, isImage: false },
          },
        ),
        JSON.stringify({
          type: 'pr-link',
          sessionId: PR,
          prNumber: 12,
          prUrl: 'https://example.com/acme/atelier/pull/12',
          prRepository: 'acme/atelier',
        }),
        JSON.stringify({ type: 'custom-title', customTitle: 'Open the PR', sessionId: PR }),
      ].join('\n') + '\n',
    );
    await project.rawFile(
      `${PR}/tool-results/toolu_gh.txt`,
      `Creating pull request…\n${'log line\n'.repeat(100)}https://example.com/acme/atelier/pull/12\n`,
    );
    await project.rawFile(
      `${ORPHAN}/subagents/agent-a0f1e2d3c4b5a6978.jsonl`,
      [
        userPrompt('Survey the gallery', {
          sessionId: ORPHAN,
          cwd,
          isSidechain: true,
          agentId: 'a0f1e2d3c4b5a6978',
          timestamp: '2026-06-01T09:00:00.000Z',
        }),
      ].join('\n') + '\n',
    );
    await project.rawFile(
      `${ORPHAN}/subagents/agent-a0f1e2d3c4b5a6978.meta.json`,
      JSON.stringify({ agentType: 'Explore', description: 'Survey' }),
    );
    served = await startServe(serveEnv(home));
  });

  test.afterAll(async () => {
    await served.stop();
    await home.cleanup();
  });

  async function openSessions(page: Page): Promise<void> {
    await page.goto(served.url);
    await expect(page.locator('#root[data-app-state="ready"]')).toBeAttached();
    await page.evaluate((hash) => (window.location.hash = hash), `#/${new URLSearchParams({ page: 'sessions' }).toString()}`);
  }

  test('lists a PR badge and an orphan session; shows a hook under its call and the whole of a spilled output', async ({ page }) => {
    const before = await snapshotTree(home.root);
    await openSessions(page);
    const table = page.getByRole('table', { name: 'Sessions' });
    const prRow = table.getByRole('row', { name: 'Open the PR' });
    await expect(prRow.getByRole('link', { name: 'PR #12' })).toHaveAttribute('href', 'https://example.com/acme/atelier/pull/12');
    await expect(table.getByRole('row', { name: ORPHAN }).getByText('no main transcript')).toBeVisible();

    await prRow.click();
    await expect(page.getByRole('heading', { name: 'Open the PR' })).toBeVisible();
    const transcript = page.getByLabel('Transcript', { exact: true }).last();
    const hook = transcript.getByLabel('Hook PreToolUse:Bash');
    await expect(hook).toContainText('policy check passed');
    await transcript.getByRole('button', { name: 'Show full output' }).click();
    await expect(transcript.getByLabel('Full output')).toContainText('https://example.com/acme/atelier/pull/12');

    // The orphan opens with its sub-agent.
    await openSessions(page);
    await page.getByRole('table', { name: 'Sessions' }).getByRole('row', { name: ORPHAN }).click();
    await expect(
      page.getByRole('complementary', { name: 'Session details' }).getByText("This session's own transcript is gone"),
    ).toBeVisible();
    // There is no conversation to show, and nothing Claude Code could resume.
    await expect(page.locator('.tx-empty')).toContainText('what its sub-agents did is listed beside it');
    await expect(page.getByLabel('Resume unavailable')).toContainText("This session's own transcript is gone");
    await expect(page.getByLabel('File facts')).toContainText('gone from the disk');
    await page
      .getByRole('list', { name: 'Sub-agents' })
      .getByRole('button', { name: /Explore/ })
      .click();
    await expect(page.getByLabel('Transcript', { exact: true }).last().getByText('Survey the gallery')).toBeVisible();
    expect(await snapshotTree(home.root)).toEqual(before);
  });
});
