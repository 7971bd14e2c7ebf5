import { rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranscriptArchive } from '../../../electron/core/history/archive/TranscriptArchive';
import { transcriptRequestHandlers } from '../../../electron/core/transcripts/transcriptRequestHandlers';
import { ARCHIVED_RESUME_REASON, TranscriptService } from '../../../electron/core/transcripts/TranscriptService';
import { TranscriptSources } from '../../../electron/core/transcripts/transcriptSources';
import { resumeRequestHandlers, TerminalLauncher } from '../../../electron/main/terminalLauncher';
import { entryText } from '../../../shared/transcript/entryText';
import { LIVE_VIEW } from '../../../shared/transcript/transcriptOutline';
import { createScenarioHome, type ScenarioHome } from '../../fixtures/scenarioHome';
import { snapshotTree } from '../../fixtures/treeSnapshot';
import { writeRichSession, type RichSession } from '../transcripts/richSession';
import { candidateFor } from './archiveCandidates';
import { createTestHomeService } from '../../fixtures/testEngine';

async function exportAll(service: TranscriptService, ref: Parameters<TranscriptService['exportChunk']>[0], format: 'markdown' | 'html') {
  let text = '';
  for (let cursor: number | null = 0; cursor !== null;) {
    const chunk = await service.exportChunk(ref, format, cursor);
    text += chunk.text;
    cursor = chunk.nextCursor;
  }
  return text;
}

describe('the transcript viewer on a session Claude Code deleted after it was archived', () => {
  let home: ScenarioHome;
  let rich: RichSession;
  let archive: TranscriptArchive;
  let onDisk: TranscriptService;
  let archived: TranscriptService;
  let ref: { configRoot: string; slug: string; sessionId: string };

  const homeService = () => createTestHomeService(home, { shell: 'electron' });

  beforeAll(async () => {
    home = await createScenarioHome({ prefix: 'ccmem-archived-viewer-' });
    const project = home.project(home.workPath('shop'));
    rich = await writeRichSession(project);
    ref = { configRoot: home.root, slug: project.slug, sessionId: rich.sessionId };
    archive = new TranscriptArchive(join(home.tmp, 'data', 'archive'));
    await archive.update([
      candidateFor({ path: rich.path, configRoot: home.root, slug: project.slug, sessionId: rich.sessionId }),
      candidateFor({
        path: rich.subagentPath,
        configRoot: home.root,
        slug: project.slug,
        sessionId: rich.sessionId,
        agentId: rich.agentId,
        layout: 'subagents-folder',
      }),
    ]);
    // What the viewer shows while the files are there is what it must show from the archive.
    onDisk = new TranscriptService(homeService(), null);
    archived = new TranscriptService(homeService(), null, undefined, new TranscriptSources(archive));
  });

  afterAll(async () => {
    onDisk.dispose();
    archived.dispose();
    await archive.dispose();
    await home.cleanup();
  });

  it('shows the same outline, pages, sub-agent, finds and exports once the files are gone, marked archived', async () => {
    const before = {
      outline: await onDisk.outline(ref, LIVE_VIEW),
      page: await onDisk.page(ref, LIVE_VIEW, 0, 500),
      agent: await onDisk.page(ref, { ...LIVE_VIEW, agentId: rich.agentId }, 0, 50),
      markdown: await exportAll(onDisk, ref, 'markdown'),
      // History's links open a transcript at a line: the branch through it, scrolled there.
      focused: await onDisk.outline(ref, LIVE_VIEW, 5),
    };
    expect(before.outline).toMatchObject({ archived: false, resumeUnavailable: null });

    await rm(rich.path);
    await rm(dirname(rich.subagentPath), { recursive: true });
    const snapshot = await snapshotTree(home.root);

    const outline = await archived.outline(ref, LIVE_VIEW);
    expect(outline).toMatchObject({ archived: true, resumeUnavailable: ARCHIVED_RESUME_REASON });
    const { archived: _a, resumeUnavailable: _r, ...same } = outline;
    const { archived: _b, resumeUnavailable: _s, ...expected } = before.outline;
    expect(same).toEqual(expected);
    expect(await archived.page(ref, LIVE_VIEW, 0, 500)).toEqual(before.page);
    const focused = await archived.outline(ref, LIVE_VIEW, 5);
    expect({ focusRow: focused.focusRow, view: focused.view }).toEqual({ focusRow: before.focused.focusRow, view: before.focused.view });
    expect(focused.focusRow).not.toBeNull();
    expect(await archived.page(ref, { ...LIVE_VIEW, agentId: rich.agentId }, 0, 50)).toEqual(before.agent);
    const found = await archived.find(ref, LIVE_VIEW, 'TESTS: 12 PASSED', 10);
    expect(found.hits).toHaveLength(1);
    expect(found.hits[0].preview).toContain('Tests: 12 passed');

    const markdown = await exportAll(archived, ref, 'markdown');
    expect(markdown).toContain("- Archived: Claude Code deleted this transcript; exported from this app's archived copy");
    expect(markdown.replace(/- Archived: .*\n/, '')).toBe(before.markdown);
    expect(await exportAll(archived, ref, 'html')).toContain('<dt>Archived</dt>');

    const entries = [];
    for await (const entry of await archived.liveBranch(ref)) entries.push(entry);
    expect(entries.map(entryText).some((text) => text.includes(rich.afterCompactionPrompt))).toBe(true);
    expect(await archived.findSession(rich.sessionId)).toEqual(ref);
    expect(await snapshotTree(home.root)).toEqual(snapshot);
  });

  it('refuses to resume it, with the reason, in both shells', async () => {
    await expect(archived.resumeTarget(ref)).rejects.toMatchObject({ code: 'NOT_FOUND', message: ARCHIVED_RESUME_REASON });
    await expect(transcriptRequestHandlers(archived).resumeSession({ ...ref, fork: false })).rejects.toMatchObject({
      message: ARCHIVED_RESUME_REASON,
    });
    const launcher = new TerminalLauncher({
      settingsFile: join(home.tmp, 'data', 'terminal.json'),
      platform: 'linux',
      spawn: () => {
        throw new Error('no terminal may start for an archived session');
      },
    });
    await expect(resumeRequestHandlers(launcher, archived).resumeSession({ ...ref, fork: true })).rejects.toMatchObject({
      message: ARCHIVED_RESUME_REASON,
    });
  });

  it('without the archive the session is simply not found', async () => {
    const diskOnly = new TranscriptService(homeService(), null);
    await expect(diskOnly.outline(ref, LIVE_VIEW)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    diskOnly.dispose();
  });
});
