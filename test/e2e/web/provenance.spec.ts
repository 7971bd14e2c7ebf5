import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createScenarioHome, type ScenarioHome } from '../../fixtures/scenarioHome';
import { seededUuid } from '../../fixtures/sessionLines';
import { memoryFile, stamped, TranscriptBuilder } from '../../integration/history/provenanceFixtures';
import { expect, serveEnv, startServe, test } from './serveFixture';

const sid = (name: string) => seededUuid(`e2e-provenance:${name}`);
const at = (seconds: number) => new Date(Date.parse('2026-09-01T09:00:00.000Z') + seconds * 1000);

test.describe('where a memory came from, in the browser', () => {
  let home: ScenarioHome;
  let projectPath: string;
  let docsPath: string;
  /** The first session's transcript, which the last test deletes as Claude Code's cleanup would. */
  let firstTranscript: string;
  let served: Awaited<ReturnType<typeof startServe>>;

  test.beforeAll(async () => {
    // Three sessions wrote one memory before the app ever ran: a Write, then two Edits.
    home = await createScenarioHome({ prefix: 'ccmem-e2e-provenance-' });
    projectPath = home.workPath('style-guide');
    const project = home.project(projectPath);
    const path = join(project.memoryDir, 'feedback_style.md');
    const steps: [string, (t: TranscriptBuilder) => void][] = [
      ['one', (t) => t.write(at(1), path, '# Style\n\n- tabs\n')],
      ['two', (t) => t.edit(at(101), path, '- tabs', '- tabs\n- single quotes', null)],
      ['three', (t) => t.edit(at(201), path, '# Style', '# House style', null)],
    ];
    firstTranscript = join(project.dir, `${sid('one')}.jsonl`);
    for (const [index, [name, write]] of steps.entries()) {
      const transcript = new TranscriptBuilder({ file: join(project.dir, `${sid(name)}.jsonl`), sessionId: sid(name), cwd: projectPath });
      transcript.typed(at(index * 100), `Style rule ${name}`);
      write(transcript);
      transcript.turnEnd(at(index * 100 + 5));
      await transcript.flush(at(index * 100 + 5));
    }
    await memoryFile(path, '# House style\n\n- tabs\n- single quotes\n', at(201));
    // A memory whose session Claude Code's cleanup took before the app ran: only its frontmatter names the session.
    const orphanNote = join(project.memoryDir, 'reference_ci.md');
    await memoryFile(orphanNote, stamped('CI', 'reference', sid('cleaned-up'), at(50), 'CI runs on every push.\n'), at(50));
    // The project is a repository; a session started in its docs sub-folder writes into the root's memory
    // (Claude Code keeps auto memory per git root), from a project folder of its own.
    await mkdir(join(projectPath, '.git'), { recursive: true });
    await writeFile(join(projectPath, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    docsPath = join(projectPath, 'docs');
    const docs = home.project(docsPath);
    const docsNotes = join(project.memoryDir, 'project_docs.md');
    const docsSession = new TranscriptBuilder({ file: join(docs.dir, `${sid('docs')}.jsonl`), sessionId: sid('docs'), cwd: docsPath });
    docsSession.typed(at(300), 'Docs are built with mkdocs');
    docsSession.write(at(301), docsNotes, 'The docs are built with mkdocs.\n');
    docsSession.turnEnd(at(305));
    await docsSession.flush(at(305));
    await memoryFile(docsNotes, 'The docs are built with mkdocs.\n', at(301));
    served = await startServe(serveEnv(home));
  });

  test.afterAll(async () => {
    await served?.stop();
    await home?.cleanup();
  });

  test('shows each memory line with the session that wrote it, and opens the turn that created the file', async ({ page }) => {
    await page.goto(served.url);
    await page.getByRole('navigation', { name: 'Projects' }).locator(`button[title="${projectPath}"]`).click();
    await page.getByRole('tab', { name: 'Memory' }).click();
    await page.getByRole('table', { name: 'Topic files' }).getByRole('row').filter({ hasText: 'feedback_style.md' }).click();
    const detail = page.getByRole('article', { name: 'Memory file' });
    const origin = detail.getByRole('region', { name: 'Origin' });
    // History reconstructs in the background after start-up; the origin shows once it is done.
    await expect(origin).toContainText(`Created by Claude Code in session ${sid('one').slice(0, 8)}`, { timeout: 15_000 });
    await expect(origin).toContainText(`Last changed by Claude Code in session ${sid('three').slice(0, 8)}`);

    await origin.getByRole('checkbox', { name: 'Blame' }).check();
    const blame = origin.getByRole('table', { name: 'Blame' });
    const rows = blame.getByRole('row');
    await expect(rows).toHaveCount(5);
    await expect(rows.nth(1)).toContainText('# House style');
    await expect(rows.nth(1)).toContainText(sid('three').slice(0, 8));
    await expect(rows.nth(3)).toContainText('- tabs');
    await expect(rows.nth(3)).toContainText(sid('one').slice(0, 8));
    await expect(rows.nth(4)).toContainText('- single quotes');
    await expect(rows.nth(4)).toContainText(sid('two').slice(0, 8));

    await origin.getByRole('button', { name: 'open the turn' }).first().click();
    await expect(page).toHaveURL(new RegExp(`session=${sid('one')}`));
    await expect(page.getByLabel('Transcript', { exact: true }).last().getByText('Style rule one')).toBeVisible();
  });

  test('a memory whose session is gone names it without a link that leads nowhere', async ({ page }) => {
    await page.goto(served.url);
    await page.getByRole('navigation', { name: 'Projects' }).locator(`button[title="${projectPath}"]`).click();
    await page.getByRole('tab', { name: 'Memory' }).click();
    await page.getByRole('table', { name: 'Topic files' }).getByRole('row').filter({ hasText: 'reference_ci.md' }).click();
    const origin = page.getByRole('article', { name: 'Memory file' }).getByRole('region', { name: 'Origin' });
    await expect(origin).toContainText(`Created by Claude Code in session ${sid('cleaned-up').slice(0, 8)}`, { timeout: 15_000 });
    await expect(origin).toContainText('(its transcript is no longer on this machine)');
    await expect(origin.getByRole('button', { name: 'open the turn' })).toHaveCount(0);
  });

  test("the Sessions table and the session's side panel tell the same memory writes, for a sub-folder session too", async ({ page }) => {
    await page.goto(served.url);
    const sidebar = page.getByRole('navigation', { name: 'Projects' });
    for (const [path, title, file] of [
      [projectPath, 'Style rule one', 'feedback_style.md'],
      [docsPath, 'Docs are built with mkdocs', 'project_docs.md'],
    ]) {
      await sidebar.locator(`button[title="${path}"]`).click();
      await page.getByRole('tab', { name: 'Sessions' }).click();
      const row = page.getByRole('table', { name: 'Sessions' }).getByRole('row', { name: title });
      // History reconstructs in the background after start-up; the table counts from it once it is done.
      await expect(row.getByText('1 memory write', { exact: true })).toBeVisible({ timeout: 15_000 });
      await row.click();
      const changes = page.getByRole('region', { name: 'Memory changes of this session' });
      await expect(changes.getByRole('button', { name: file, exact: true })).toBeVisible();
      await expect(changes).not.toContainText('No memory change of this session is known');
      await expect(changes.getByRole('listitem')).toHaveCount(1);
    }
    // The sub-folder session's change opens in History, in the memory folder it wrote to.
    await page.getByRole('region', { name: 'Memory changes of this session' }).getByRole('button', { name: 'project_docs.md' }).click();
    await expect(page.getByRole('tab', { name: 'History', selected: true })).toBeVisible();
    const selected = page.getByRole('listbox', { name: 'Change sets' }).getByRole('option', { selected: true });
    await expect(selected).toContainText(`Write in session ${sid('docs').slice(0, 8)}`);
    await expect(selected).toContainText('project_docs.md');
    await expect(page.getByRole('article', { name: 'Change set' })).toContainText(
      `A Write call in session ${sid('docs').slice(0, 8)}, line 2`,
    );
  });

  test('history marks a change whose session Claude Code deleted as archived, and its link opens the archived copy', async ({ page }) => {
    await page.goto(served.url);
    await page.getByRole('tab', { name: 'Settings' }).click();
    await expect(page.getByLabel('Archive contents')).toContainText('4 sessions', { timeout: 20_000 });
    await rm(firstTranscript);

    await page.getByRole('navigation', { name: 'Projects' }).locator(`button[title="${projectPath}"]`).click();
    await page.getByRole('tab', { name: 'History' }).click();
    await page
      .getByRole('listbox', { name: 'Change sets' })
      .getByRole('option', { name: new RegExp(`Write in session ${sid('one').slice(0, 8)}`) })
      .click();
    const changeSet = page.getByRole('article', { name: 'Change set' });
    await expect(changeSet.getByText('archived', { exact: true })).toBeVisible({ timeout: 15_000 });
    await changeSet.getByRole('button', { name: 'Open the transcript at that turn' }).click();
    await expect(page.getByRole('note', { name: 'Archived copy' })).toBeVisible();
    await expect(page.getByLabel('Transcript', { exact: true }).last().getByText('Style rule one')).toBeVisible();
  });
});
