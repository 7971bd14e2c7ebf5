/**
 * Format fidelity (issue #16): one minimal scenario per shape real homes hold and this app used to get wrong,
 * written line by line in Claude Code's own shapes (claude-code-state.md §2–§4, and what 2.1.328 writes), read
 * through the catalog, the transcript viewer, the search and the CLI.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../electron/cli/main';
import { SessionCatalog } from '../../../electron/core/catalog/SessionCatalog';
import type { HomeService } from '../../../electron/core/home/HomeService';
import { HomeSearch } from '../../../electron/core/search/HomeSearch';
import { searchableMemoryFolders } from '../../../electron/core/search/searchMemoryFolders';
import { TranscriptService, type SessionRef } from '../../../electron/core/transcripts/TranscriptService';
import type { SessionCatalogEntry } from '../../../shared/model/catalog';
import type { SearchHit } from '../../../shared/model/search';
import type { TranscriptEntry } from '../../../shared/transcript/transcriptEntry';
import { LIVE_VIEW } from '../../../shared/transcript/transcriptOutline';
import { createScenarioHome, type ProjectBuilder, type ScenarioHome } from '../../fixtures/scenarioHome';
import { seededUuid } from '../../fixtures/sessionLines';
import { snapshotTree } from '../../fixtures/treeSnapshot';
import { assistantChunk, compactBoundary, toolResult, toolUse, userPrompt } from '../../fixtures/transcriptLines';
import { listSessions } from '../../../electron/core/transcripts/sessionListing';
import { createTestHomeService } from '../../fixtures/testEngine';

const ids = {
  dangling: seededUuid('fidelity-dangling'),
  ide: seededUuid('fidelity-ide'),
  review: seededUuid('fidelity-review'),
  summaries: seededUuid('fidelity-summaries'),
  summarized: seededUuid('fidelity-summarized'),
  orphan: seededUuid('fidelity-orphan'),
  empty: seededUuid('fidelity-empty'),
  dropped: seededUuid('fidelity-dropped'),
  spilled: seededUuid('fidelity-spilled'),
  agents: seededUuid('fidelity-agents'),
  records: seededUuid('fidelity-records'),
  fork: seededUuid('fidelity-fork'),
};

const lines = (...all: string[]): string => `${all.join('\n')}\n`;
const at = (minute: number): string => `2026-06-01T10:${String(minute).padStart(2, '0')}:00.000Z`;
const json = (value: Record<string, unknown>): string => JSON.stringify(value);

describe('format fidelity on homes nobody here wrote', () => {
  let home: ScenarioHome;
  let project: ProjectBuilder;
  let catalog: SessionCatalog;
  let homeService: HomeService;
  let transcripts: TranscriptService;
  const entries = new Map<string, SessionCatalogEntry>();
  const ref = (sessionId: string): SessionRef => ({ configRoot: home.root, slug: project.slug, sessionId });
  const env = (): NodeJS.ProcessEnv => ({ HOME: home.tmp, CLAUDE_CONFIG_DIR: home.root, CCMEM_DATA_DIR: join(home.tmp, 'cli-data') });
  async function ccmem(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    let stdout = '';
    let stderr = '';
    const code = await runCli(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env: env() });
    return { code, stdout, stderr };
  }
  async function branch(sessionId: string, agentId: string | null = null): Promise<TranscriptEntry[]> {
    const out: TranscriptEntry[] = [];
    for await (const entry of await transcripts.liveBranch(ref(sessionId), agentId)) out.push(entry);
    return out;
  }
  async function search(query: string, includeRequestRecords = false): Promise<SearchHit[]> {
    const hits: SearchHit[] = [];
    const engine = new HomeSearch({ roots: [home.root], memoryFolders: () => searchableMemoryFolders(homeService), workers: 1 });
    try {
      await engine.search(query, { onHit: (hit) => hits.push(hit), includeRequestRecords });
    } finally {
      await engine.dispose();
    }
    return hits;
  }

  beforeAll(async () => {
    home = await createScenarioHome({ prefix: 'ccmem-fidelity-' });
    project = home.project(home.workPath('atelier'));
    const s = (sessionId: string, uuid: string, parentUuid: string | null, minute: number) => ({
      sessionId,
      cwd: home.workPath('atelier'),
      uuid: seededUuid(`${sessionId}:${uuid}`),
      parentUuid: parentUuid === null ? null : seededUuid(`${sessionId}:${parentUuid}`),
      timestamp: at(minute),
    });

    // A compaction whose logicalParentUuid, and a progress line whose parentUuid, name lines that are not in the file.
    const d = ids.dangling;
    await project.rawFile(
      `${d}.jsonl`,
      lines(
        userPrompt('The first prompt, long before', s(d, 'u1', null, 0)),
        assistantChunk({ ...s(d, 'a1', 'u1', 1), messageId: 'msg_d1', usage: { output: 5 } }),
        compactBoundary(1000, 100, { ...s(d, 'boundary', null, 2) }),
        json({ ...JSON.parse(userPrompt('Summary of the earlier part', s(d, 'summary', 'boundary', 3))), isCompactSummary: true }),
        json({ type: 'progress', data: { type: 'hook_progress' }, ...s(d, 'progress', null, 4), parentUuid: 'not-in-this-file' }),
        userPrompt('The prompt after', s(d, 'u2', 'progress', 5)),
        assistantChunk({ ...s(d, 'a2', 'u2', 6), messageId: 'msg_d2', usage: { output: 7 } }),
      ),
    );

    // An IDE session: context blocks first, the typed text after; and one that starts with a slash command's arguments.
    const ide = ids.ide;
    await project.rawFile(
      `${ide}.jsonl`,
      lines(
        json({
          ...JSON.parse(userPrompt('', s(ide, 'u', null, 0))),
          message: {
            role: 'user',
            content: [
              { type: 'text', text: '<ide_opened_file>The user opened the file /work/atelier/src/app.ts in the IDE.</ide_opened_file>' },
              { type: 'text', text: '<ide_selection>The user selected lines 3 to 9.</ide_selection>' },
              { type: 'text', text: 'Why does this loop never end?' },
            ],
          },
        }),
        assistantChunk({ ...s(ide, 'a', 'u', 1), messageId: 'msg_ide', usage: { output: 3 } }),
      ),
    );
    const review = ids.review;
    await project.rawFile(
      `${review}.jsonl`,
      lines(
        userPrompt(
          '<command-message>review is running…</command-message>\n<command-name>/review</command-name>\n<command-args>Audit the payment module</command-args>',
          s(review, 'u', null, 0),
        ),
        // A local command's arguments went to Claude Code only: /rename is no prompt.
        userPrompt(
          '<local-command-caveat>Caveat: The messages below were generated by the user while running local commands.</local-command-caveat>',
          { ...s(review, 'c', 'u', 1), isMeta: true },
        ),
        userPrompt(
          '<command-name>/rename</command-name>\n<command-message>rename</command-message>\n<command-args>Audit</command-args>',
          s(review, 'r', 'c', 2),
        ),
      ),
    );

    // Claude Code 1.0: a file whose first line is a summary of another file's conversation (its leaf is there).
    await project.rawFile(
      `${ids.summarized}.jsonl`,
      lines(
        userPrompt('Set the repository up', s(ids.summarized, 'u', null, 0)),
        assistantChunk({ ...s(ids.summarized, 'leaf', 'u', 1), messageId: 'msg_s', usage: { output: 2 } }),
      ),
    );
    await project.rawFile(
      `${ids.summaries}.jsonl`,
      lines(
        json({ type: 'summary', summary: 'Repository Setup Done', leafUuid: seededUuid(`${ids.summarized}:leaf`) }),
        userPrompt('Now write the README', s(ids.summaries, 'u', null, 2)),
      ),
    );

    // A session whose file is gone: its sub-agent folder stayed.
    await project.rawFile(
      `${ids.orphan}/subagents/agent-a1b2c3d4e5f60718.jsonl`,
      lines(
        userPrompt('Explore the orphaned corner', { ...s(ids.orphan, 'o1', null, 0), isSidechain: true, agentId: 'a1b2c3d4e5f60718' }),
        assistantChunk({
          ...s(ids.orphan, 'o2', 'o1', 1),
          isSidechain: true,
          agentId: 'a1b2c3d4e5f60718',
          messageId: 'msg_o',
          usage: { output: 40 },
        }),
      ),
    );
    await project.rawFile(
      `${ids.orphan}/subagents/agent-a1b2c3d4e5f60718.meta.json`,
      json({ agentType: 'Explore', description: 'Look around' }),
    );

    // Claude Code 2.0: a zero-byte session file, and its warm-up sub-agent beside it.
    await project.rawFile(`${ids.empty}.jsonl`, '');
    await project.rawFile(
      'agent-warmup1.jsonl',
      lines(
        userPrompt('Warmup', { ...s(ids.empty, 'w1', null, 0), isSidechain: true, agentId: 'warmup1' }),
        assistantChunk({
          ...s(ids.empty, 'w2', 'w1', 1),
          isSidechain: true,
          agentId: 'warmup1',
          messageId: 'msg_w',
          usage: { output: 12, cacheRead: 300 },
        }),
      ),
    );

    // Lines that used to vanish: a PR link, the agent name, the mode, a PreToolUse hook beside its call, /rename's file.
    const dr = ids.dropped;
    await project.rawFile(
      `${dr}.jsonl`,
      lines(
        userPrompt('Open a pull request', s(dr, 'u', null, 0)),
        assistantChunk({
          ...s(dr, 'call', 'u', 1),
          messageId: 'msg_dr',
          usage: { output: 4 },
          block: toolUse('toolu_bash', 'Bash', { command: 'gh pr create' }),
        }),
        json({
          parentUuid: seededUuid(`${dr}:call`),
          isSidechain: false,
          attachment: {
            type: 'hook_success',
            hookName: 'PreToolUse:Bash',
            toolUseID: 'toolu_bash',
            hookEvent: 'PreToolUse',
            content: 'allowed by policy',
            stdout: 'allowed by policy\n',
            stderr: '',
            exitCode: 0,
            command: './check.sh',
            durationMs: 3,
          },
          type: 'attachment',
          uuid: seededUuid(`${dr}:hook`),
          timestamp: at(2),
          sessionId: dr,
        }),
        toolResult('toolu_bash', 'https://example.com/acme/atelier/pull/7', { ...s(dr, 'result', 'call', 3) }),
        json({
          type: 'pr-link',
          sessionId: dr,
          prNumber: 7,
          prUrl: 'https://example.com/acme/atelier/pull/7',
          prRepository: 'acme/atelier',
          timestamp: at(4),
        }),
        json({ type: 'agent-name', agentName: 'pr-bot', sessionId: dr }),
        json({ type: 'mode', mode: 'coordinator', sessionId: dr }),
      ),
    );
    await project.rawFile(`${dr}/custom-title.json`, json({ customTitle: 'Ship the PR' }));

    // A tool output too big for the transcript: a preview in the result, the whole of it in tool-results/.
    const sp = ids.spilled;
    const spilledPath = join(project.dir, sp, 'tool-results', 'toolu_fetch.txt');
    await project.rawFile(
      `${sp}.jsonl`,
      lines(
        userPrompt('Fetch the docs', s(sp, 'u', null, 0)),
        assistantChunk({
          ...s(sp, 'call', 'u', 1),
          messageId: 'msg_sp',
          usage: { output: 4 },
          block: toolUse('toolu_fetch', 'WebFetch', { url: 'https://example.com/docs' }),
        }),
        toolResult(
          'toolu_fetch',
          `<persisted-output>\nOutput too large (80.1KB). Full output saved to: ${spilledPath}\n\nPreview (first 2KB):\n# Docs\n…\n</persisted-output>`,
          {
            ...s(sp, 'result', 'call', 2),
            toolUseResult: { bytes: 82_000, code: 200, result: '…' },
          },
        ),
      ),
    );
    await project.rawFile(
      `${sp}/tool-results/toolu_fetch.txt`,
      `# Docs\n${'filler line\n'.repeat(8000)}The quokka appendix is at the very end.\n`,
    );

    // Newer sub-agent layouts: a workflow run, a prompt-suggestion helper, and an agent started by an agent.
    const ag = ids.agents;
    await project.rawFile(
      `${ag}.jsonl`,
      lines(
        userPrompt('Plan the release', s(ag, 'u', null, 0)),
        assistantChunk({
          ...s(ag, 'call', 'u', 1),
          messageId: 'msg_ag',
          usage: { output: 4 },
          block: toolUse('toolu_outer', 'Agent', { description: 'Outer', prompt: 'Plan it', subagent_type: 'general-purpose' }),
        }),
        toolResult('toolu_outer', 'planned', {
          ...s(ag, 'result', 'call', 5),
          toolUseResult: { status: 'completed', agentId: 'aouter000000000001', totalToolUseCount: 1 },
        }),
      ),
    );
    const sub = (agentId: string, extra: string[] = [], lastParent = `${agentId}-u`) =>
      lines(
        userPrompt(`Work of ${agentId}`, { ...s(ag, `${agentId}-u`, null, 2), isSidechain: true, agentId }),
        ...extra,
        assistantChunk({
          ...s(ag, `${agentId}-a`, lastParent, 3),
          isSidechain: true,
          agentId,
          messageId: `msg_${agentId}`,
          usage: { output: 6 },
        }),
      );
    await project.rawFile(
      `${ag}/subagents/agent-aouter000000000001.jsonl`,
      sub(
        'aouter000000000001',
        [
          assistantChunk({
            ...s(ag, 'outer-call', 'aouter000000000001-u', 2),
            isSidechain: true,
            agentId: 'aouter000000000001',
            messageId: 'msg_oc',
            usage: { output: 3 },
            block: toolUse('toolu_inner', 'Agent', { description: 'Inner', prompt: 'Inner work', subagent_type: 'general-purpose' }),
          }),
        ],
        'outer-call',
      ),
    );
    await project.rawFile(
      `${ag}/subagents/agent-aouter000000000001.meta.json`,
      json({ agentType: 'general-purpose', description: 'Outer', toolUseId: 'toolu_outer', spawnDepth: 1 }),
    );
    await project.rawFile(`${ag}/subagents/agent-ainner000000000002.jsonl`, sub('ainner000000000002'));
    await project.rawFile(
      `${ag}/subagents/agent-ainner000000000002.meta.json`,
      json({
        agentType: 'general-purpose',
        description: 'Inner',
        toolUseId: 'toolu_inner',
        parentAgentId: 'aouter000000000001',
        spawnDepth: 2,
      }),
    );
    await project.rawFile(`${ag}/subagents/agent-aprompt_suggestion-0a1b2c.jsonl`, sub('aprompt_suggestion-0a1b2c'));
    await project.rawFile(`${ag}/subagents/workflows/wf_123/agent-aworker000000000003.jsonl`, sub('aworker000000000003'));
    await project.rawFile(`${ag}/subagents/workflows/wf_123/journal.jsonl`, lines(json({ type: 'started', runId: 'wf_123' })));

    // Claude Code 2.1.3xx's records of its API requests, beside the conversation.
    const rc = ids.records;
    await project.rawFile(
      `${rc}.jsonl`,
      lines(
        userPrompt('Paint the lighthouse', s(rc, 'u', null, 0)),
        json({
          type: 'api-request-blob',
          sessionId: rc,
          hash: 'b1',
          message: { role: 'user', content: [{ type: 'text', text: 'Paint the lighthouse' }] },
        }),
        json({
          type: 'api-request',
          sessionId: rc,
          id: 'r1',
          timestamp: at(1),
          version: '2.1.328',
          querySource: 'sdk',
          params: { model: 'claude-opus-5-5' },
        }),
        assistantChunk({ ...s(rc, 'a', 'u', 2), messageId: 'msg_rc', usage: { output: 9 } }),
        json({
          parentUuid: seededUuid(`${rc}:a`),
          isSidechain: false,
          attachment: { type: 'prompt_snapshot', systemPrompt: ['Paint the lighthouse is not here'], tools: [] },
          type: 'attachment',
          uuid: seededUuid(`${rc}:snap`),
          timestamp: at(3),
          sessionId: rc,
        }),
        json({ type: 'cost-state', sessionId: rc, totalCostUSD: 0.01, modelUsage: {} }),
        json({ type: 'atis-latch', atis: '', sessionId: rc }),
      ),
    );

    // A fork: its first lines are copies of an older session's, stamped with the fork's id, after the fork's own first line.
    const fk = ids.fork;
    await project.rawFile(
      `${fk}.jsonl`,
      lines(
        json({ type: 'queue-operation', operation: 'enqueue', timestamp: at(30), sessionId: fk, content: 'A forked question' }),
        userPrompt('The copied first prompt', s(fk, 'u', null, 0)),
        assistantChunk({ ...s(fk, 'a', 'u', 1), messageId: 'msg_fk1', usage: { output: 2 } }),
        userPrompt('A forked question', s(fk, 'u2', 'a', 31)),
      ),
    );

    // Agent memory (project scope) and a session memory, which search must cover too.
    await project.rawFile(`${ids.dangling}/session-memory/summary.md`, '# Session Title\n_A short title_\n\nThe pelican migration plan\n');
    await home.agentMemory('project', 'art-critic', { 'MEMORY.md': '- Prefers cobalt blue\n' }, home.workPath('atelier'));

    catalog = new SessionCatalog({ dataDir: join(home.tmp, 'data'), roots: [home.root] });
    await catalog.build();
    for (const entry of catalog.list()) entries.set(entry.sessionId, entry);
    homeService = createTestHomeService(home, { dataDir: join(home.tmp, 'home-data'), readOnly: true });
    transcripts = new TranscriptService(homeService, null);
  });

  afterAll(async () => {
    transcripts?.dispose();
    await catalog?.dispose();
    await homeService?.dispose();
    await home?.cleanup();
  });

  it('a dangling compaction or progress parent keeps the history before it on the live branch, and the entry says so', async () => {
    const texts = (await branch(ids.dangling)).map((entry) => [entry.type, entry.danglingParentUuid]);
    expect(texts).toEqual([
      ['user', null],
      ['assistant', null],
      ['system', seededUuid('before-compaction')],
      ['user', null],
      ['user', 'not-in-this-file'],
      ['assistant', null],
    ]);
    const outline = await transcripts.outline(ref(ids.dangling), LIVE_VIEW);
    expect(outline.stats).toMatchObject({ danglingParents: 2, unreachableLines: 0 });
    expect(outline.unreachable).toEqual([]);
  });

  it('IDE context blocks and slash commands with arguments are prompts and titles; a local command is neither', () => {
    expect(entries.get(ids.ide)).toMatchObject({ userPrompts: 1, title: 'Why does this loop never end?', titleSource: 'first-prompt' });
    expect(entries.get(ids.review)).toMatchObject({
      userPrompts: 1,
      title: '/review Audit the payment module',
      titleSource: 'first-prompt',
    });
  });

  it('a legacy summary titles the session its leaf is in, not the file that holds it', async () => {
    expect(entries.get(ids.summarized)).toMatchObject({ title: 'Repository Setup Done', titleSource: 'summary' });
    expect(entries.get(ids.summaries)).toMatchObject({ title: 'Now write the README', titleSource: 'first-prompt' });
    const listed = new Map((await listSessions(homeService, { configRoot: home.root, slug: project.slug })).map((s) => [s.sessionId, s]));
    expect(listed.get(ids.summarized)).toMatchObject({ title: 'Repository Setup Done', titleSource: 'summary' });
    expect(listed.get(ids.summaries)).toMatchObject({ title: 'Now write the README' });
    expect((await transcripts.outline(ref(ids.summarized), LIVE_VIEW)).title).toBe('Repository Setup Done');
    // A one-shot export reads the title from that project's folder alone, without discovering the home first.
    const exported = await ccmem(['transcript', ids.summarized]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout.split('\n')[0]).toBe('# Repository Setup Done');
  });

  it('an orphan sub-agent folder is a session with no main transcript: listed, counted, openable, searchable', async () => {
    expect(entries.get(ids.orphan)).toMatchObject({
      mainTranscript: false,
      bytes: 0,
      firstTimestamp: at(0),
      lastTimestamp: at(1),
      subagents: [
        expect.objectContaining({ agentId: 'a1b2c3d4e5f60718', agentType: 'Explore', tokens: expect.objectContaining({ output: 40 }) }),
      ],
    });
    const outline = await transcripts.outline(ref(ids.orphan), LIVE_VIEW);
    expect(outline).toMatchObject({ mainTranscript: false, rowCount: 0, subagents: [expect.objectContaining({ agentType: 'Explore' })] });
    // Claude Code cannot resume it: `claude --resume` looks for the session's own file.
    expect(outline.resumeUnavailable).toMatch(/own transcript is gone/);
    await expect(transcripts.resumeTarget(ref(ids.orphan))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await branch(ids.orphan, 'a1b2c3d4e5f60718')).map((entry) => entry.type)).toEqual(['user', 'assistant']);
    expect(await search('orphaned corner')).toContainEqual(
      expect.objectContaining({ kind: 'transcript', sessionId: ids.orphan, agentId: 'a1b2c3d4e5f60718' }),
    );
    const cli = await ccmem(['transcript', ids.orphan, '--json', '--agent', 'a1b2c3d4e5f60718']);
    expect(cli.code, cli.stderr).toBe(0);
  });

  it('a zero-byte session follows one rule everywhere: listed by sessions and counted by projects, with its warm-up agent', async () => {
    expect(entries.get(ids.empty)).toMatchObject({
      bytes: 0,
      userPrompts: 0,
      subagents: [
        expect.objectContaining({ agentId: 'warmup1', layout: 'sibling', tokens: expect.objectContaining({ output: 12, cacheRead: 300 }) }),
      ],
    });
    const projectSummary = (await homeService.getHome()).projects.find((p) => p.slug === project.slug)!;
    expect(projectSummary.sessionCount).toBe(catalog.list({ slug: project.slug }).length);
  });

  it('PR links, agent names, modes, /rename files and tool hooks are shown where they belong', async () => {
    expect(entries.get(ids.dropped)).toMatchObject({
      title: 'Ship the PR',
      titleSource: 'custom-title',
      prLinks: [{ url: 'https://example.com/acme/atelier/pull/7', number: 7, repository: 'acme/atelier' }],
      agentName: 'pr-bot',
      mode: 'coordinator',
    });
    const page = await transcripts.page(ref(ids.dropped), LIVE_VIEW, 0, 50);
    const call = page.rows
      .flatMap((row) => (row.entry.body.kind === 'assistant' ? row.entry.body.blocks : []))
      .find((block) => block.kind === 'tool-call');
    expect(call?.kind === 'tool-call' ? call.call.hooks.map((hook) => [hook.event, hook.outcome, hook.text]) : null).toEqual([
      ['PreToolUse', 'hook_success', 'allowed by policy'],
    ]);
    // The hook is folded into its call, the result too: no row of their own.
    expect(page.rows.map((row) => row.entry.type)).toEqual(['user', 'assistant']);
    expect((await transcripts.outline(ref(ids.dropped), LIVE_VIEW)).title).toBe('Ship the PR');
  });

  it('a spilled tool output links to its whole text, read in pages, and search reads it', async () => {
    const page = await transcripts.page(ref(ids.spilled), LIVE_VIEW, 0, 50);
    const call = page.rows
      .flatMap((row) => (row.entry.body.kind === 'assistant' ? row.entry.body.blocks : []))
      .find((block) => block.kind === 'tool-call');
    const persisted = call?.kind === 'tool-call' ? call.call.result?.persistedOutput : null;
    expect(persisted).toMatchObject({ fileName: 'toolu_fetch.txt' });
    let text = '';
    let pages = 0;
    for (let offset: number | null = 0; offset !== null; pages++) {
      const read = await transcripts.toolOutput(ref(ids.spilled), persisted!.fileName, offset);
      text += read.text;
      offset = read.nextOffset;
    }
    expect(pages).toBeGreaterThan(1);
    expect(text.endsWith('The quokka appendix is at the very end.\n')).toBe(true);
    expect(await search('quokka appendix')).toContainEqual(expect.objectContaining({ kind: 'tool-output', sessionId: ids.spilled }));
    expect((await transcripts.toolOutput(ref(ids.spilled), 'toolu_gone.txt', 0)).exists).toBe(false);
  });

  it('workflow runs, helper agents and nested agents: typed, placed and linked to the calls that started them', async () => {
    const agents = new Map(entries.get(ids.agents)!.subagents.map((a) => [a.agentId, a]));
    expect(agents.get('aworker000000000003')).toMatchObject({ workflowRunId: 'wf_123', depth: 1 });
    expect(agents.get('aprompt_suggestion-0a1b2c')).toMatchObject({ agentType: 'prompt_suggestion' });
    expect(agents.get('ainner000000000002')).toMatchObject({ parentAgentId: 'aouter000000000001', depth: 2, description: 'Inner' });
    const outline = await transcripts.outline(ref(ids.agents), LIVE_VIEW);
    expect(outline.subagents.find((a) => a.agentId === 'ainner000000000002')).toMatchObject({
      depth: 2,
      parentAgentId: 'aouter000000000001',
    });
    const calls = (await branch(ids.agents, 'aouter000000000001')).flatMap((entry) =>
      entry.body.kind === 'assistant'
        ? entry.body.blocks.flatMap((block) => (block.kind === 'tool-call' ? [block.call.subagent?.agentId] : []))
        : [],
    );
    expect(calls).toEqual(['ainner000000000002']);
    const main = (await branch(ids.agents)).flatMap((entry) =>
      entry.body.kind === 'assistant'
        ? entry.body.blocks.flatMap((block) => (block.kind === 'tool-call' ? [block.call.subagent?.agentId] : []))
        : [],
    );
    expect(main).toEqual(['aouter000000000001']);
  });

  it('2.1.3xx request records stay out of the view, the counts and the search, unless asked for', async () => {
    expect(entries.get(ids.records)).toMatchObject({ userPrompts: 1, assistantTurns: 1, tokens: expect.objectContaining({ output: 9 }) });
    const shown = await transcripts.outline(ref(ids.records), LIVE_VIEW);
    expect(shown.rowCount).toBe(2);
    expect((await transcripts.outline(ref(ids.records), { ...LIVE_VIEW, showMetadata: true })).rowCount).toBe(7);
    const plain = (await search('Paint the lighthouse')).filter((hit) => hit.sessionId === ids.records);
    expect(plain.map((hit) => [hit.line, hit.requestRecord])).toEqual([[1, false]]);
    const all = (await search('Paint the lighthouse', true)).filter((hit) => hit.sessionId === ids.records);
    expect(all.map((hit) => [hit.line, hit.requestRecord])).toEqual([
      [1, false],
      [2, true],
      [5, true],
    ]);
  });

  it('a forked session starts at its first line, not at the oldest line it copied', () => {
    expect(entries.get(ids.fork)).toMatchObject({ firstTimestamp: at(30), lastTimestamp: at(31), userPrompts: 2 });
  });

  it('search covers session memory and every memory folder the app shows, agent memory included', async () => {
    expect(await search('pelican migration')).toContainEqual(expect.objectContaining({ kind: 'session-memory', sessionId: ids.dangling }));
    expect(await search('cobalt blue')).toContainEqual(
      expect.objectContaining({ kind: 'agent-memory', agentType: 'art-critic', slug: project.slug }),
    );
  });

  it('a wrong id is a one-line error with nothing on stdout, for every command that takes one', async () => {
    const before = await snapshotTree(home.root);
    for (const argv of [
      ['transcript', ids.dropped, '--json', '--agent', 'ano-such-agent'],
      ['transcript', seededUuid('never-was'), '--json'],
      ['transcript', 'not-a-uuid'],
      ['sessions', '--project', 'no-such-project', '--json'],
      ['doctor', '--project', 'no-such-project', '--json'],
      ['history', '--project', 'no-such-project', '--json'],
      ['extract', '--session', seededUuid('never-was'), '--json'],
      ['restore', '--project', 'no-such-project', '--file', 'a.md', '--version', 'deadbeefdeadbeef'],
      ['revert', '--change-set', 'no-such-change-set'],
      ['snapshot', '--agent', 'nobody', '--project', 'no-such-project', '--create'],
      ['search', ''],
      ['projects', '--bogus'],
    ]) {
      const result = await ccmem(argv);
      expect({ argv, code: result.code === 0, stdout: result.stdout }).toEqual({ argv, code: false, stdout: '' });
      expect({ argv, lines: result.stderr.trim().split('\n').length, stack: /\n\s+at /.test(result.stderr) }).toEqual({
        argv,
        lines: 1,
        stack: false,
      });
    }
    expect(await snapshotTree(home.root)).toEqual(before);
  });
});
