import { join } from 'node:path';
import { createScenarioHome, seededUuid, type ScenarioHome } from '../../fixtures/scenarioHome';
import { memoryFile, TranscriptBuilder } from '../../integration/history/provenanceFixtures';
import { expect, serveEnv, startServe, test } from './serveFixture';

const sid = (name: string) => seededUuid(`e2e-provenance:${name}`);
const at = (seconds: number) => new Date(Date.parse('2026-09-01T09:00:00.000Z') + seconds * 1000);

test.describe('where a memory came from, in the browser', () => {
  let home: ScenarioHome;
  let projectPath: string;
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
    for (const [index, [name, write]] of steps.entries()) {
      const transcript = new TranscriptBuilder({ file: join(project.dir, `${sid(name)}.jsonl`), sessionId: sid(name), cwd: projectPath });
      transcript.typed(at(index * 100), `Style rule ${name}`);
      write(transcript);
      transcript.turnEnd(at(index * 100 + 5));
      await transcript.flush(at(index * 100 + 5));
    }
    await memoryFile(path, '# House style\n\n- tabs\n- single quotes\n', at(201));
    served = await startServe(serveEnv(home));
  });

  test.afterAll(async () => {
    await served?.stop();
    await home?.cleanup();
  });

  test('shows each memory line with the session that wrote it, and opens the turn that created the file', async ({ page }) => {
    await page.goto(served.url);
    await page.getByRole('navigation', { name: 'Projects' }).getByText(projectPath, { exact: true }).click();
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
});
