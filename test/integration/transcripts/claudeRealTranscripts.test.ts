/**
 * The transcript viewer on real Claude Code files (../shared/fixtures/claude-real, see its SOURCES.md): every
 * expected value below was checked by reading the files by hand or with a one-off script (uuid/parentUuid walks,
 * progress bridging, the Agent/Task calls and their results, the sub-agent files and meta.json).
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, symlink } from 'node:fs/promises';
import path, { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HomeService } from '../../../electron/core/home/HomeService';
import { TranscriptDocument } from '../../../electron/core/transcripts/TranscriptDocument';
import { TranscriptService, type SessionRef } from '../../../electron/core/transcripts/TranscriptService';
import { entryText } from '../../../shared/transcript/entryText';
import type { TranscriptEntry } from '../../../shared/transcript/transcriptEntry';
import { LIVE_VIEW } from '../../../shared/transcript/transcriptOutline';
import { createScenarioHome, type ScenarioHome } from '../../fixtures/scenarioHome';
import { snapshotTree, type TreeSnapshot } from '../../fixtures/treeSnapshot';

const FIXTURES = path.resolve(__dirname, '../../../../shared/fixtures/claude-real');
const present = existsSync(join(FIXTURES, 'SOURCES.md'));
if (!present) console.warn(`[conformance] SKIPPED: real Claude Code fixtures not found at ${FIXTURES} (the ../shared checkout is absent).`);

const PROJECT_SETS = {
  eduardo: 'Eduardodmb__ClaudeHome/projects.bak-20260511-072525',
  eiji: 'Eiji1202__dotclaude/projects',
  halibit: '4thehalibit__omarchy-backup/.claude/projects',
  kimuson: 'd-kimuson__claude-code-viewer/mock-global-claude-dir/projects',
} as const;

(present ? describe : describe.skip)('transcript viewer conformance on real Claude Code files', () => {
  let home: ScenarioHome;
  let before: TreeSnapshot;
  let service: TranscriptService;
  const roots: Record<string, string> = {};

  const ref = (set: keyof typeof PROJECT_SETS, slug: string, sessionId: string): SessionRef => ({
    configRoot: roots[set],
    slug,
    sessionId,
  });

  async function liveEntries(session: SessionRef, agentId: string | null = null): Promise<TranscriptEntry[]> {
    const entries: TranscriptEntry[] = [];
    for await (const entry of await service.liveBranch(session, agentId)) entries.push(entry);
    return entries;
  }

  beforeAll(async () => {
    before = await snapshotTree(FIXTURES);
    home = await createScenarioHome({ prefix: 'ccmem-transcript-conformance-' });
    for (const [name, relative] of Object.entries(PROJECT_SETS)) {
      const root = join(home.tmp, name);
      await mkdir(join(root, 'projects'), { recursive: true });
      for (const slug of await readdir(join(FIXTURES, relative)))
        await symlink(join(FIXTURES, relative, slug), join(root, 'projects', slug));
      roots[name] = root;
    }
    service = new TranscriptService(
      new HomeService({
        roots: Object.values(roots).map((root) => ({ path: root, source: 'CLAUDE_CONFIG_DIR' as const })),
        dataDir: join(home.tmp, 'data'),
        demoHomeSource: null,
        shell: 'cli',
        readOnly: true,
      }),
      null,
    );
  });

  afterAll(async () => {
    service.dispose();
    await home.cleanup();
    expect(await snapshotTree(FIXTURES)).toEqual(before);
  });

  it('Eduardodmb a572bd87 (2.1.128): two compactions crossed, one edited prompt, three Explore sub-agents linked', async () => {
    const session = ref('eduardo', 'X--03-ACG-Custom-Addons', 'a572bd87-2e28-4d70-9b73-cd08231cacb6');
    const outline = await service.outline(session, LIVE_VIEW);
    expect(outline.stats).toMatchObject({ lines: 987, badLines: 0, danglingParents: 0, cycles: 0, duplicateUuids: 0, progressBridged: 0 });
    expect(outline.compactions.map((mark) => [mark.trigger, mark.preTokens, mark.postTokens])).toEqual([
      ['auto', 173429, 7850],
      ['auto', 169895, 10355],
    ]);
    // Parallel tool calls are spliced back in; the only real fork is the prompt edited at lines 436/438.
    expect(outline.forks).toHaveLength(1);
    expect(outline.forks[0].choices.map((choice) => [choice.firstLine, choice.current, choice.preview])).toEqual([
      [436, false, 'sorry, it is impossible then group by, by default?'],
      [438, true, 'sorry, it is impossible then group by, by default? in teh crm list view?'],
    ]);
    expect(outline.subagents.map((agent) => [agent.agentId, agent.agentType, agent.toolUseId, agent.layout])).toEqual([
      ['a0e47dc4eba51a7a9', 'Explore', 'toolu_01DwWVup4j41vVcQZU1jgQQJ', 'subagents-folder'],
      ['a38ec468816fd17e1', 'Explore', 'toolu_01PMWNhwj9RZ2uHi3MrhwuQC', 'subagents-folder'],
      // This call was rejected, so its result names no agent: linked by its prompt.
      ['a5aeeeb76a8225a77', 'Explore', 'toolu_014wnkvES1EBhTX4xDfwKKYU', 'subagents-folder'],
    ]);
    expect(outline.subagents.every((agent) => agent.row !== null)).toBe(true);

    const entries = await liveEntries(session);
    // 733 chain entries, less the abandoned prompt at line 436.
    expect(entries).toHaveLength(732);
    const boundaries = entries.flatMap((entry, i) => (entry.body.kind === 'compact-boundary' ? [i] : []));
    expect(boundaries.map((i) => entries[i].line)).toEqual([505, 950]);
    // The history before each boundary is on the branch, right up to the entry logicalParentUuid names.
    expect(boundaries.map((i) => entries[i - 1].uuid)).toEqual([
      'e6f9f22d-08f3-449d-a972-a9ecc1e68e68',
      '32842240-896d-4872-a1b2-2458238977ed',
    ]);
    expect(boundaries.map((i) => entries[i + 1].body.kind)).toEqual(['compact-summary', 'compact-summary']);
    // Thinking is stored empty in 2.1.128 (all 76 blocks).
    const thinking = entries
      .flatMap((entry) => (entry.body.kind === 'assistant' ? entry.body.blocks : []))
      .filter((block) => block.kind === 'thinking');
    expect(thinking).toHaveLength(76);
    expect(thinking.every((block) => block.kind === 'thinking' && block.text === '')).toBe(true);

    const agent = await liveEntries(session, 'a5aeeeb76a8225a77');
    expect(agent).toHaveLength(33);
    expect(entryText(agent[0])).toMatch(/^In X:\\03_ACG\\Custom_Addons and its parent directories/);
  });

  it('d-kimuson fe5e1c67 (1.0.98): five inline sidechains linked to their Task calls by prompt, kept off the main branch', async () => {
    const session = ref('kimuson', 'sample-project', 'fe5e1c67-53e7-4862-81ae-d0e013e3270b');
    const outline = await service.outline(session, LIVE_VIEW);
    expect(outline.subagents.map((agent) => [agent.layout, agent.toolUseId, agent.description])).toEqual([
      ['inline', 'toolu_01LS6tcVd796SbQKmZqeVnWY', 'Build TODO components'],
      ['inline', 'toolu_014i9ThHMNShCHocf9xMKasf', 'Setup Next.js project'],
      ['inline', 'toolu_01EbxY94wRUAGyMLj5wh699C', 'Create data models'],
      ['inline', 'toolu_017rjDpjVPeNFmAEXNTkoP55', 'Implement state management'],
      ['inline', 'toolu_01EPom7jESzNbU8coiKjzVGS', 'Create main page integration'],
    ]);
    // 437 chain entries, 405 of them in sidechains.
    expect(await liveEntries(session)).toHaveLength(32);
    const setup = outline.subagents[1];
    const run = await liveEntries(session, setup.agentId);
    expect(run[0].line).toBe(38);
    expect(run.every((entry) => entry.isSidechain)).toBe(true);
    // The legacy summary line (a title whose leafUuid is in another file) is a bookkeeping line, shown on request.
    const withMetadata = await service.page(session, { ...LIVE_VIEW, showMetadata: true }, 0, 1);
    expect(withMetadata.rows[0].entry.body).toEqual({
      kind: 'summary',
      summary: 'Empty Repo Setup: CLAUDE.md Foundation Created',
      leafUuid: '549b3502-6e30-4fa5-869f-c998df26c3f0',
    });
  });

  it('d-kimuson 5c0375b4 (1.0.108): inline runs linked by prompt, a Task call without a prompt left alone', async () => {
    const outline = await service.outline(ref('kimuson', 'sample-project', '5c0375b4-57a5-4f26-b12d-d022ee4e51b7'), LIVE_VIEW);
    expect(outline.subagents.map((agent) => [agent.layout, agent.toolUseId])).toEqual([
      ['inline', 'toolu_014YF9TXhDRR7BnpasNJ7gjC'],
      ['inline', 'toolu_01LKfUwrsnof18CpWZQcJH44'],
    ]);
  });

  it('Eiji f6f74d81 (2.1.37): progress entries bridged, the 7-hex sub-agent in subagents/ linked through its result', async () => {
    const session = ref('eiji', '-Users-tachikawa-eiji', 'f6f74d81-53c9-4e7e-83d2-afea990583ac');
    const outline = await service.outline(session, LIVE_VIEW);
    expect(outline.stats).toMatchObject({ lines: 23, badLines: 0, progressBridged: 5, danglingParents: 0 });
    expect(outline.forks).toEqual([]);
    expect(outline.subagents.map((agent) => [agent.agentId, agent.layout, agent.toolUseId, agent.agentType])).toEqual([
      ['a7c91f4', 'subagents-folder', 'toolu_016pt6YWarASZs9sSkSdAVrA', 'claude-code-guide'],
    ]);
    expect(await liveEntries(session)).toHaveLength(15);
    const thinking = (await liveEntries(session))
      .flatMap((entry) => (entry.body.kind === 'assistant' ? entry.body.blocks : []))
      .find((block) => block.kind === 'thinking');
    expect(thinking?.kind === 'thinking' && thinking.text.length > 0).toBe(true);
    expect(await liveEntries(session, 'a7c91f4')).toHaveLength(8);
  });

  it('4thehalibit 44ef5cbf (2.1.81) and 8c880a68 (2.1.97): sub-agents linked through agent_progress and through the result', async () => {
    const viaProgress = await service.outline(ref('halibit', '-home-vwestberg-Claude', '44ef5cbf-9cc3-4f7b-ac40-337a4d39713b'), LIVE_VIEW);
    expect(viaProgress.stats).toMatchObject({ lines: 95, progressBridged: 33, badLines: 0 });
    expect(viaProgress.forks).toEqual([]);
    expect(viaProgress.subagents.map((agent) => [agent.agentId, agent.agentType, agent.toolUseId])).toEqual([
      ['a71969c1296961234', 'Explore', 'toolu_01FS7fYnhkoDKZfrxRX7mvjN'],
    ]);
    const viaResult = await service.outline(ref('halibit', '-home-vwestberg-Claude', '8c880a68-969b-4b92-8733-a4927179d072'), LIVE_VIEW);
    expect(viaResult.subagents.map((agent) => [agent.agentId, agent.agentType, agent.toolUseId])).toEqual([
      ['a2df51c9276581f81', 'claude-code-guide', 'toolu_01KwQtvsHzWCZByyy8N4b1q9'],
    ]);
  });

  it('Eiji 1432e0f5: a file of file-history-snapshot lines only has no conversation, and its lines show on request', async () => {
    const session = ref('eiji', '-Users-tachikawa-eiji-EijiCode-UTAGE3-0-utage3', '1432e0f5-f968-4e2f-9347-3626c7d37b35');
    expect((await service.outline(session, LIVE_VIEW)).rowCount).toBe(0);
    const withMetadata = await service.outline(session, { ...LIVE_VIEW, showMetadata: true });
    expect(withMetadata.rowCount).toBe(5);
  });

  it('orphan sub-agent files (no parent session) open on their own', async () => {
    const orphan = await TranscriptDocument.open(
      join(FIXTURES, PROJECT_SETS.halibit, '-home-vwestberg/bbe015e3-4ab8-4b4d-978e-556286d8fbb9/subagents/agent-ace643d24f2092e5a.jsonl'),
    );
    const view = orphan.resolve({ kind: 'agent-file' }, LIVE_VIEW, false);
    expect(view.tree.stats.progressBridged).toBe(12);
    expect(view.rows.lines).toHaveLength(27);
    const compactHelper = await TranscriptDocument.open(
      join(
        FIXTURES,
        PROJECT_SETS.eiji,
        '-Users-tachikawa-eiji-EijiCode-UTAGE3-0-utage3/3f9394bc-70f6-4f13-94dc-ed96be3799eb/subagents/agent-acompact-9a97b2.jsonl',
      ),
    );
    const helperView = compactHelper.resolve({ kind: 'agent-file' }, LIVE_VIEW, false);
    expect(helperView.tree.stats.danglingParents).toBe(1);
    expect(helperView.rows.lines).toHaveLength(3);
  });

  it('reads every real JSONL file without a bad line', async () => {
    const files: string[] = [];
    const walk = async (dir: string) => {
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        const full = join(dir, entry.name);
        if (entry.isDirectory()) await walk(full);
        else if (entry.name.endsWith('.jsonl')) files.push(full);
      }
    };
    await walk(FIXTURES);
    expect(files).toHaveLength(18);
    for (const file of files) {
      const document = await TranscriptDocument.open(file);
      expect(document.index.lines.filter((line) => line.unreadable !== null).map((line) => `${file}:${line.line}`)).toEqual([]);
      const page = await document.readPage(0, 500, { ...LIVE_VIEW, showMeta: true, showMetadata: true });
      expect(page.rows.every((row) => row.entry.body.kind !== 'unreadable')).toBe(true);
    }
  });
});
