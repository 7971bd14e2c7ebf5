import { appendFile, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HomeService } from '../../../electron/core/home/HomeService';
import { createLiveHome, startLiveHome } from '../../../electron/core/watch/liveHome';
import { TranscriptService, type TranscriptChange } from '../../../electron/core/transcripts/TranscriptService';
import { entryText } from '../../../shared/transcript/entryText';
import type { TranscriptEntry } from '../../../shared/transcript/transcriptEntry';
import { LIVE_VIEW, type TranscriptViewSpec } from '../../../shared/transcript/transcriptOutline';
import { createScenarioHome, type ScenarioHome } from '../../fixtures/scenarioHome';
import { seededUuid } from '../../fixtures/sessionLines';
import { snapshotTree } from '../../fixtures/treeSnapshot';
import { assistantChunk, toolResult, userPrompt } from '../../fixtures/transcriptLines';
import { writeRichSession, type RichSession } from './richSession';
import { createTestHomeService } from '../../fixtures/testEngine';

function homeService(home: ScenarioHome): HomeService {
  return createTestHomeService(home, { readOnly: true });
}

async function allRows(
  service: TranscriptService,
  ref: { configRoot: string; slug: string; sessionId: string },
  view: TranscriptViewSpec,
): Promise<TranscriptEntry[]> {
  const outline = await service.outline(ref, view);
  const page = await service.page(ref, view, 0, outline.rowCount);
  return page.rows.map((row) => row.entry);
}

/** Opens a session's live view, as the viewer does: its reference, its outline now, and the next change it hears of. */
async function openAndAwaitChange(service: TranscriptService, home: ScenarioHome, slug: string, rich: RichSession) {
  const ref = { configRoot: home.root, slug, sessionId: rich.sessionId };
  const before = await service.outline(ref, LIVE_VIEW);
  const changed = new Promise<TranscriptChange>((resolve) => service.onDidChangeTranscript(resolve));
  return { ref, before, changed };
}

describe('TranscriptService on a scenario home', () => {
  let home: ScenarioHome;
  let rich: RichSession;
  let service: TranscriptService;
  let ref: { configRoot: string; slug: string; sessionId: string };

  beforeAll(async () => {
    home = await createScenarioHome({ prefix: 'ccmem-transcripts-' });
    const project = home.project(home.workPath('shop'));
    rich = await writeRichSession(project);
    service = new TranscriptService(homeService(home), null);
    ref = { configRoot: home.root, slug: project.slug, sessionId: rich.sessionId };
  });

  afterAll(async () => {
    service.dispose();
    await home.cleanup();
  });

  it('outlines the live branch: title, folder, compaction, fork, sub-agent, session memory and resume commands', async () => {
    const outline = await service.outline(ref, LIVE_VIEW);
    expect(outline.title).toBe(rich.title);
    expect(outline.cwd).toBe(rich.cwd);
    expect(outline.cwdExists).toBe(true);
    expect(outline.isLiveBranch).toBe(true);
    expect(outline.indexing).toBeNull();
    expect(outline.compactions).toHaveLength(1);
    expect(outline.compactions[0]).toMatchObject({ trigger: 'auto', preTokens: 171234, postTokens: 8123 });
    expect(outline.forks).toHaveLength(1);
    expect(outline.forks[0].choices.map((choice) => [choice.preview, choice.current])).toEqual([
      [rich.abandonedPrompt, false],
      [`${rich.retriedPrompt}`, true],
    ]);
    expect(outline.subagents).toEqual([
      expect.objectContaining({
        agentId: rich.agentId,
        agentType: 'Explore',
        layout: 'subagents-folder',
        toolUseId: rich.agentToolUseId,
        path: rich.subagentPath,
      }),
    ]);
    expect(outline.hasSessionMemory).toBe(true);
    expect(outline.resume.copyResume).toBe(`cd '${rich.cwd}' && claude --resume ${rich.sessionId}`);
    expect(outline.resume.copyFork).toBe(`cd '${rich.cwd}' && claude --resume ${rich.sessionId} --fork-session`);
    expect(outline.stats).toMatchObject({ badLines: 0, danglingParents: 0, cycles: 0, duplicateUuids: 0 });
  });

  it('pages the branch with tool results folded into their calls, meta lines hidden and unknown lines kept raw', async () => {
    const rows = await allRows(service, ref, LIVE_VIEW);
    const texts = rows.map(entryText);
    expect(texts.some((text) => text.includes(rich.firstPrompt))).toBe(true);
    expect(texts.some((text) => text.includes(rich.metaText))).toBe(false);
    expect(texts.some((text) => text.includes(rich.abandonedPrompt))).toBe(false);
    expect(rows.some((row) => row.body.kind === 'unknown' && row.type === rich.unknownType)).toBe(true);
    // Results are not rows of their own but part of their call.
    expect(rows.some((row) => row.body.kind === 'user' && row.body.blocks.every((block) => block.kind === 'tool-result'))).toBe(false);
    const calls = rows
      .flatMap((row) => (row.body.kind === 'assistant' ? row.body.blocks : []))
      .flatMap((block) => (block.kind === 'tool-call' ? [block.call] : []));
    const bash = calls.find((call) => call.name === 'Bash');
    expect(bash?.bashCommand).toBe(rich.bashCommand);
    expect(bash?.result?.bash?.stdout).toBe(rich.bashOutput);
    const edit = calls.find((call) => call.name === 'Edit');
    expect(edit?.edit?.hunks[0].lines).toEqual(['-  return a + b;', '+  return round(a + b);']);
    const agent = calls.find((call) => call.name === 'Agent');
    expect(agent?.subagent).toEqual({ agentId: rich.agentId, agentType: 'Explore', description: 'Find cart total code' });
    expect(agent?.result?.text).toBe(rich.subagentAnswer);
    const boundary = rows.findIndex((row) => row.body.kind === 'compact-boundary');
    expect(rows[boundary + 1].body.kind).toBe('compact-summary');
    // The history before the compaction stays on the branch, above the divider.
    expect(rows.slice(0, boundary).some((row) => entryText(row).includes(rich.retriedPrompt))).toBe(true);
    const image = rows.flatMap((row) => (row.body.kind === 'user' ? row.body.blocks : [])).find((block) => block.kind === 'image');
    expect(image).toEqual({ kind: 'image', image: { mediaType: 'image/png', bytes: 3000 } });
  });

  it('shows meta lines and bookkeeping lines when asked', async () => {
    const withMeta = await allRows(service, ref, { ...LIVE_VIEW, showMeta: true });
    expect(withMeta.some((row) => row.isMeta && entryText(row).includes(rich.metaText))).toBe(true);
    const withMetadata = await allRows(service, ref, { ...LIVE_VIEW, showMetadata: true });
    expect(withMetadata.filter((row) => row.body.kind === 'metadata').map((row) => row.type)).toEqual([
      'permission-mode',
      'ai-title',
      'ai-title',
      'last-prompt',
    ]);
  });

  it('shows the other branch at the fork, and the branch through a line asked for', async () => {
    const outline = await service.outline(ref, LIVE_VIEW);
    const other = outline.forks[0].choices.find((choice) => !choice.current);
    const rows = await allRows(service, ref, { ...LIVE_VIEW, leafUuid: other?.leafUuid ?? null });
    expect(rows.at(-1)?.uuid).toBe(rich.abandonedUuid);
    const focused = await service.outline(ref, LIVE_VIEW, other?.firstLine ?? null);
    expect(focused.isLiveBranch).toBe(false);
    expect(focused.view.leafUuid).toBe(rich.abandonedUuid);
    expect(focused.focusRow).toBe(focused.rowCount - 1);
  });

  it('opens the sub-agent run from its own file', async () => {
    const view = { ...LIVE_VIEW, agentId: rich.agentId };
    const outline = await service.outline(ref, view);
    expect(outline.agent).toMatchObject({ agentId: rich.agentId, agentType: 'Explore' });
    expect(outline.shownPath).toBe(rich.subagentPath);
    const rows = await allRows(service, ref, view);
    expect(rows.map(entryText)).toEqual([rich.subagentPrompt, rich.subagentAnswer]);
  });

  it('finds text within the shown branch, including tool output, and not in hidden lines', async () => {
    const found = await service.find(ref, LIVE_VIEW, 'TESTS: 12 PASSED', 10);
    expect(found.hits).toHaveLength(1);
    const rows = await allRows(service, ref, LIVE_VIEW);
    const hitRow = rows[found.hits[0].row];
    expect(
      hitRow.body.kind === 'assistant' && hitRow.body.blocks.some((block) => block.kind === 'tool-call' && block.call.name === 'Bash'),
    ).toBe(true);
    expect(found.hits[0].preview).toContain('Tests: 12 passed');
    expect((await service.find(ref, LIVE_VIEW, 'injected skill body', 10)).hits).toHaveLength(0);
    expect((await service.find(ref, { ...LIVE_VIEW, showMeta: true }, 'injected skill body', 10)).hits).toHaveLength(1);
    expect((await service.find(ref, LIVE_VIEW, 'rename the module to basket', 10)).hits).toHaveLength(0);
  });

  it('reads the session memory by section', async () => {
    const memory = await service.sessionMemory(ref);
    expect(memory.path).toBe(rich.sessionMemoryPath);
    expect(memory.sections.map((section) => [section.title, section.content])).toEqual([
      ['Session Title', 'Tidy checkout and fix the cart total'],
      ['Current State', '- Completed: rounding fix in cart/total.ts\n- Next Step: changelog'],
      ['Worklog', '1. Ran the cart tests'],
    ]);
    expect(memory.sections[0].description).toMatch(/^A short and distinctive/);
  });

  it('exports Markdown and a self-contained HTML page in chunks that join into the whole branch', async () => {
    const exportAll = async (format: 'markdown' | 'html') => {
      let text = '';
      for (let cursor: number | null = 0; cursor !== null;) {
        const chunk = await service.exportChunk(ref, format, cursor);
        text += chunk.text;
        cursor = chunk.nextCursor;
      }
      return text;
    };
    const markdown = await exportAll('markdown');
    expect(markdown.startsWith(`# ${rich.title}\n`)).toBe(true);
    for (const text of [rich.firstPrompt, rich.bashCommand, rich.afterCompactionPrompt, rich.subagentAnswer, '### Conversation compacted'])
      expect(markdown).toContain(text);
    expect(markdown).not.toContain(rich.abandonedPrompt);
    const html = await exportAll('html');
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html.trimEnd().endsWith('</html>')).toBe(true);
    expect(html).not.toMatch(/<script|<link|src="http|href="http/i);
    expect(html).toContain('<span class="add">+  return round(a + b);</span>');
  });

  it('refuses sessions outside the config roots and reports missing ones, writing nothing', async () => {
    const before = await snapshotTree(home.root);
    await expect(service.outline({ ...ref, configRoot: home.tmp }, LIVE_VIEW)).rejects.toMatchObject({ code: 'OUTSIDE_ROOT' });
    await expect(service.outline({ ...ref, sessionId: seededUuid('nope') }, LIVE_VIEW)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(service.outline(ref, { ...LIVE_VIEW, agentId: 'a-missing' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await snapshotTree(home.root)).toEqual(before);
  });
});

describe('TranscriptService sub-agent layouts', () => {
  const homes: ScenarioHome[] = [];
  afterAll(async () => {
    for (const home of homes) await home.cleanup();
  });

  /** A home of its own for one test, with one project whose working folder is `folder`; cleaned up after them all. */
  async function projectIn(prefix: string, folder: string) {
    const home = await createScenarioHome({ prefix });
    homes.push(home);
    return { home, project: home.project(home.workPath(folder)) };
  }

  it('finds a 2.0 sibling agent file by the session id inside it, and an orphan subagents folder stays harmless', async () => {
    const { home, project } = await projectIn('ccmem-sibling-', 'legacy');
    const sessionId = seededUuid('sibling-session');
    const otherSession = seededUuid('other-session');
    const envelope = { cwd: project.cwd, version: '2.0.50', gitBranch: 'main', userType: 'external' };
    const main = [
      {
        parentUuid: null,
        isSidechain: false,
        type: 'user',
        message: { role: 'user', content: 'Look around' },
        uuid: seededUuid('m1'),
        timestamp: '2026-01-01T10:00:00.000Z',
        sessionId,
        ...envelope,
      },
      {
        parentUuid: seededUuid('m1'),
        isSidechain: false,
        type: 'assistant',
        message: {
          id: 'msg_1',
          role: 'assistant',
          content: [
            {
              type: 'tool_use',
              id: 'toolu_task',
              name: 'Task',
              input: { description: 'Scan', prompt: 'Scan the repo', subagent_type: 'general-purpose' },
            },
          ],
        },
        uuid: seededUuid('m2'),
        timestamp: '2026-01-01T10:00:01.000Z',
        sessionId,
        ...envelope,
      },
      {
        parentUuid: seededUuid('m2'),
        isSidechain: false,
        type: 'user',
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_task', content: 'done' }] },
        toolUseResult: { content: [{ type: 'text', text: 'done' }], totalTokens: 10 },
        uuid: seededUuid('m3'),
        timestamp: '2026-01-01T10:00:09.000Z',
        sessionId,
        ...envelope,
      },
    ];
    await project.rawFile(`${sessionId}.jsonl`, `${main.map((line) => JSON.stringify(line)).join('\n')}\n`);
    const agentLine = (session: string, prompt: string) =>
      `${JSON.stringify({ parentUuid: null, isSidechain: true, type: 'user', message: { role: 'user', content: prompt }, uuid: seededUuid(prompt), timestamp: '2026-01-01T10:00:02.000Z', sessionId: session, ...envelope })}\n`;
    await project.rawFile('agent-0a1b2c3d.jsonl', agentLine(sessionId, 'Scan the repo'));
    await project.rawFile('agent-9f8e7d6c.jsonl', agentLine(otherSession, 'Something else'));
    await mkdir(join(project.dir, seededUuid('orphan'), 'subagents'), { recursive: true });
    await writeFile(join(project.dir, seededUuid('orphan'), 'subagents', 'agent-aorphan.jsonl'), agentLine(seededUuid('orphan'), 'Orphan'));

    const service = new TranscriptService(homeService(home), null);
    const ref = { configRoot: home.root, slug: project.slug, sessionId };
    const outline = await service.outline(ref, LIVE_VIEW);
    expect(outline.subagents).toEqual([
      expect.objectContaining({
        agentId: '0a1b2c3d',
        layout: 'sibling-file',
        toolUseId: 'toolu_task',
        agentType: 'general-purpose',
        row: 1,
      }),
    ]);
    const rows = await allRows(service, ref, { ...LIVE_VIEW, agentId: '0a1b2c3d' });
    expect(rows.map(entryText)).toEqual(['Scan the repo']);
    service.dispose();
  });

  it('links each of many sub-agent files to the call whose prompt is its first message', async () => {
    const { home, project } = await projectIn('ccmem-prompt-links-', 'many-agents');
    const sessionId = seededUuid('prompt-links-session');
    const envelope = { cwd: project.cwd, version: '2.1.30', sessionId };
    // One prompt is longer than a first read of the file, so its first line is read in growing steps.
    const prompts = Array.from(
      { length: 12 },
      (_, index) => `Survey part ${index} of the repo${index === 5 ? ' in depth'.repeat(3000) : ''}`,
    );
    // The calls, one content block a line as Claude Code writes a response, each line chained to the one before.
    const lines = [userPrompt('Survey everything', { ...envelope, uuid: seededUuid('p0') })];
    for (const [index, prompt] of prompts.entries()) {
      const block = {
        type: 'tool_use',
        id: `toolu_call_${index}`,
        name: 'Task',
        input: { description: `Part ${index}`, prompt, subagent_type: 'general-purpose' },
      };
      const uuids = { parentUuid: seededUuid(`p${index}`), uuid: seededUuid(`p${index + 1}`) };
      lines.push(assistantChunk({ ...envelope, ...uuids, messageId: 'msg_calls', usage: { output: 1 }, block }));
    }
    await project.rawFile(`${sessionId}.jsonl`, `${lines.join('\n')}\n`);
    // No meta.json and no result naming the agent: only each file's first prompt ties it to its call. The file names
    // sort in another order than the calls.
    for (const [index, prompt] of prompts.entries()) {
      const agentId = `a${String(prompts.length - index).padStart(2, '0')}`;
      const first = userPrompt(prompt, { ...envelope, uuid: seededUuid(prompt), isSidechain: true });
      await project.rawFile(`${sessionId}/subagents/agent-${agentId}.jsonl`, `${first}\n`);
    }

    const service = new TranscriptService(homeService(home), null);
    const outline = await service.outline({ configRoot: home.root, slug: project.slug, sessionId }, LIVE_VIEW);
    expect(outline.subagents).toHaveLength(prompts.length);
    for (const agent of outline.subagents) {
      const index = prompts.length - Number(agent.agentId.slice(1));
      expect(agent).toMatchObject({ toolUseId: `toolu_call_${index}`, description: `Part ${index}`, layout: 'subagents-folder' });
    }
    service.dispose();
  });

  it('takes a run’s type and description from its call where its meta.json does not tell them, and from meta.json where it does', async () => {
    const { home, project } = await projectIn('ccmem-call-inputs-', 'call-inputs');
    const sessionId = seededUuid('call-inputs-session');
    const envelope = { cwd: project.cwd, version: '2.1.90', sessionId };
    const runs = [
      // Linked by its meta.json, which names only the call.
      { agentId: 'ameta', meta: { toolUseId: 'toolu_meta' } },
      // No meta.json: linked by the tool result that names it.
      { agentId: 'aresult', meta: null },
      // meta.json tells everything: the call's input is not needed.
      { agentId: 'afull', meta: { toolUseId: 'toolu_full', agentType: 'Explore', description: 'From meta' } },
    ];
    const lines = [userPrompt('Split the work', { ...envelope, uuid: seededUuid('c0') })];
    for (const [index, run] of runs.entries()) {
      const id = `toolu_${run.agentId.slice(1)}`;
      const input = { description: `Call ${index}`, prompt: `Work ${index}`, subagent_type: `type-${index}` };
      lines.push(
        assistantChunk({
          ...envelope,
          parentUuid: seededUuid(`c${2 * index}`),
          uuid: seededUuid(`c${2 * index + 1}`),
          messageId: `msg_${index}`,
          usage: { output: 1 },
          block: { type: 'tool_use', id, name: 'Agent', input },
        }),
        toolResult(id, 'done', {
          ...envelope,
          parentUuid: seededUuid(`c${2 * index + 1}`),
          uuid: seededUuid(`c${2 * index + 2}`),
          toolUseResult: { status: 'completed', agentId: run.agentId, content: [{ type: 'text', text: 'done' }] },
        }),
      );
      const first = userPrompt(`Work ${index}`, { ...envelope, uuid: seededUuid(`run-${index}`), isSidechain: true });
      await project.rawFile(`${sessionId}/subagents/agent-${run.agentId}.jsonl`, `${first}\n`);
      if (run.meta) await project.rawFile(`${sessionId}/subagents/agent-${run.agentId}.meta.json`, JSON.stringify(run.meta));
    }
    await project.rawFile(`${sessionId}.jsonl`, `${lines.join('\n')}\n`);

    const service = new TranscriptService(homeService(home), null);
    const outline = await service.outline({ configRoot: home.root, slug: project.slug, sessionId }, LIVE_VIEW);
    const byId = new Map(outline.subagents.map((agent) => [agent.agentId, agent]));
    expect(byId.get('ameta')).toMatchObject({ toolUseId: 'toolu_meta', agentType: 'type-0', description: 'Call 0', row: 1 });
    expect(byId.get('aresult')).toMatchObject({ toolUseId: 'toolu_result', agentType: 'type-1', description: 'Call 1' });
    expect(byId.get('afull')).toMatchObject({ toolUseId: 'toolu_full', agentType: 'Explore', description: 'From meta' });
    service.dispose();
  });
});

describe('TranscriptService across files', () => {
  let home: ScenarioHome;
  afterAll(async () => home?.cleanup());

  it('keeps each file its own tree when a sub-agent file repeats the session uuids, and finds session memory filed under another folder', async () => {
    home = await createScenarioHome({ prefix: 'ccmem-across-' });
    const launch = home.project(home.workPath('repo'));
    const later = home.project(home.workPath('repo', 'sub'));
    const rich = await writeRichSession(launch, 'across');
    // A sub-agent copy that reuses uuids of the main conversation (forked and resumed sessions do this).
    const copied = `${JSON.stringify({ parentUuid: null, isSidechain: true, type: 'user', message: { role: 'user', content: 'copied start' }, uuid: rich.preCompactionLastUuid, timestamp: '2026-05-06T00:00:00.000Z', sessionId: rich.sessionId })}\n`;
    await launch.rawFile(`${rich.sessionId}/subagents/agent-acopy.jsonl`, copied);
    // Claude Code files session memory under the slug of the *current* cwd, which moved into a sub-folder.
    const { rm } = await import('node:fs/promises');
    await rm(rich.sessionMemoryPath);
    const elsewhere = await later.rawFile(`${rich.sessionId}/session-memory/summary.md`, '# Session Title\n_t_\n\nMoved here\n');

    const service = new TranscriptService(homeService(home), null);
    const ref = { configRoot: home.root, slug: launch.slug, sessionId: rich.sessionId };
    const main = await service.outline(ref, LIVE_VIEW);
    expect(main.stats.duplicateUuids).toBe(0);
    expect(main.compactions).toHaveLength(1);
    expect(await allRows(service, ref, { ...LIVE_VIEW, agentId: 'acopy' })).toHaveLength(1);
    expect(main.hasSessionMemory).toBe(true);
    const memory = await service.sessionMemory(ref);
    expect(memory.path).toBe(elsewhere);
    expect(memory.sections[0].content).toBe('Moved here');
    service.dispose();
  });
});

describe('TranscriptService on a file too big to index before the first screen', () => {
  let home: ScenarioHome;
  afterAll(async () => home?.cleanup());

  it('answers with the beginning first, then indexes the rest in the background and says when rows grow', async () => {
    home = await createScenarioHome({ prefix: 'ccmem-progressive-' });
    const project = home.project(home.workPath('big'));
    const sessionId = seededUuid('big-session');
    const lines = Array.from({ length: 3000 }, (_, i) =>
      JSON.stringify({
        type: i % 2 === 0 ? 'user' : 'assistant',
        uuid: `u${i}`,
        parentUuid: i === 0 ? null : `u${i - 1}`,
        timestamp: new Date(Date.parse('2026-01-01T00:00:00.000Z') + i * 1000).toISOString(),
        message:
          i % 2 === 0
            ? { role: 'user', content: `prompt ${i} ${'x'.repeat(1500)}` }
            : { id: `m${i}`, role: 'assistant', content: [{ type: 'text', text: `answer ${i}` }] },
      }),
    );
    await project.rawFile(`${sessionId}.jsonl`, `${lines.join('\n')}\n`);
    // Every file counts as big, and the first answer may read only one chunk.
    const service = new TranscriptService(homeService(home), null, { budgetMs: 0, wholeIndexBytes: 0 });
    const ref = { configRoot: home.root, slug: project.slug, sessionId };
    const changes: TranscriptChange[] = [];
    const done = new Promise<void>((resolve) =>
      service.onDidChangeTranscript((change) => {
        changes.push(change);
        if (change.bytes > 0) void service.outline(ref, LIVE_VIEW).then((outline) => outline.indexing === null && resolve());
      }),
    );
    const first = await service.outline(ref, LIVE_VIEW);
    expect(first.indexing).not.toBeNull();
    expect(first.rowCount).toBeGreaterThan(0);
    expect(first.rowCount).toBeLessThan(3000);
    const page = await service.page(ref, LIVE_VIEW, 0, 2);
    expect(page.rows.map((row) => entryText(row.entry).slice(0, 8))).toEqual(['prompt 0', 'answer 1']);
    await done;
    const last = await service.outline(ref, LIVE_VIEW);
    expect(last.rowCount).toBe(3000);
    expect(changes.length).toBeGreaterThan(0);
    service.dispose();
  });
});

describe('TranscriptService follows a live session', () => {
  let home: ScenarioHome;
  afterAll(async () => home?.cleanup());

  it('reports an append and serves the new turn without reading the file again from the start', async () => {
    home = await createScenarioHome({ prefix: 'ccmem-live-transcript-' });
    const project = home.project(home.workPath('live'));
    const rich = await writeRichSession(project, 'live');
    const homes = homeService(home);
    const live = startLiveHome(homes, { usePolling: true });
    await live.ready;
    const service = new TranscriptService(homes, live);
    try {
      const { ref, before, changed } = await openAndAwaitChange(service, home, project.slug, rich);
      await rich.appendTurn('A prompt typed while the viewer is open', 'And its answer');
      const change = await changed;
      expect(change).toMatchObject({ sessionId: rich.sessionId, generation: before.generation });
      const after = await service.outline(ref, LIVE_VIEW);
      expect(after.rowCount).toBe(before.rowCount + 2);
      const page = await service.page(ref, LIVE_VIEW, before.rowCount, 10);
      expect(page.rows.map((row) => entryText(row.entry))).toEqual(['A prompt typed while the viewer is open', 'And its answer']);
      // A half-written line is held back until its newline arrives.
      await appendFile(rich.path, '{"parentUuid":null,"type":"user","message":{"role":"user","content":"half');
      expect((await service.outline(ref, LIVE_VIEW)).rowCount).toBe(after.rowCount);
    } finally {
      service.dispose();
      await live.dispose();
    }
  });

  it('tells the viewer of an append that a request read before the watcher did', async () => {
    home ??= await createScenarioHome({ prefix: 'ccmem-live-transcript-' });
    const project = home.project(home.workPath('asked'));
    const rich = await writeRichSession(project, 'asked');
    // No watcher at all: only the request can notice the append.
    const service = new TranscriptService(homeService(home), null);
    try {
      const { ref, before, changed } = await openAndAwaitChange(service, home, project.slug, rich);
      await rich.appendTurn('Typed while another panel was asking', 'Read by that panel’s request first');
      // The usage chart beside the viewer asks first (the timeline's own update prompts it) and reads the new lines.
      await service.usage(ref, LIVE_VIEW);
      expect(await changed).toMatchObject({ sessionId: rich.sessionId, generation: before.generation });
      expect((await service.outline(ref, LIVE_VIEW)).rowCount).toBe(before.rowCount + 2);
    } finally {
      service.dispose();
    }
  });

  it('shows a turn appended before the watcher was ready once it is', async () => {
    home ??= await createScenarioHome({ prefix: 'ccmem-live-transcript-' });
    const project = home.project(home.workPath('early'));
    const rich = await writeRichSession(project, 'early');
    const homes = homeService(home);
    const live = createLiveHome(homes, { usePolling: true });
    const service = new TranscriptService(homes, live);
    try {
      const { ref, before, changed } = await openAndAwaitChange(service, home, project.slug, rich);
      // Written while the viewer is open but before the watch began (an engine still starting): no event will tell.
      await rich.appendTurn('Typed while the app was starting', 'Answered before the watch began');
      live.start();
      await live.ready;
      expect(await changed).toMatchObject({ sessionId: rich.sessionId });
      expect((await service.outline(ref, LIVE_VIEW)).rowCount).toBe(before.rowCount + 2);
    } finally {
      service.dispose();
      await live.dispose();
    }
  });
});
