/**
 * The catalog on real Claude Code files (../shared/fixtures/claude-real, see its SOURCES.md), symlinked into
 * temp config roots. Every expected number below was computed independently from the raw JSONL with a
 * one-off script (per message.id the line with the most output tokens, `<synthetic>` and API-error lines
 * skipped, sidechain lines apart) and checked by reading the files.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, symlink } from 'node:fs/promises';
import path, { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SessionCatalogEntry } from '../../../shared/model/catalog';
import { SessionCatalog } from '../../../electron/core/catalog/SessionCatalog';
import { createScenarioHome, type ScenarioHome } from '../../fixtures/scenarioHome';
import { snapshotTree, type TreeSnapshot } from '../../fixtures/treeSnapshot';

/** The fixtures beside the repository (a worktree elsewhere names them with CCMEM_REAL_FIXTURES). */
const FIXTURES = process.env.CCMEM_REAL_FIXTURES ?? path.resolve(__dirname, '../../../../shared/fixtures/claude-real');
const present = existsSync(join(FIXTURES, 'SOURCES.md'));
if (!present) console.warn(`[catalog conformance] SKIPPED: real Claude Code fixtures not found at ${FIXTURES}.`);

const PROJECT_DIRS = {
  eduardo: 'Eduardodmb__ClaudeHome/projects.bak-20260511-072525',
  eiji: 'Eiji1202__dotclaude/projects',
  halibit: '4thehalibit__omarchy-backup/.claude/projects',
  kimuson: 'd-kimuson__claude-code-viewer/mock-global-claude-dir/projects',
};

(present ? describe : describe.skip)('catalog conformance: real Claude Code files', () => {
  let home: ScenarioHome;
  let before: TreeSnapshot;
  let catalog: SessionCatalog;
  const byId = new Map<string, SessionCatalogEntry>();

  beforeAll(async () => {
    home = await createScenarioHome();
    before = await snapshotTree(FIXTURES);
    const roots: string[] = [];
    for (const [name, dir] of Object.entries(PROJECT_DIRS)) {
      const root = join(home.tmp, name);
      await mkdir(join(root, 'projects'), { recursive: true });
      for (const slug of await readdir(join(FIXTURES, dir))) await symlink(join(FIXTURES, dir, slug), join(root, 'projects', slug));
      roots.push(root);
    }
    catalog = new SessionCatalog({ dataDir: join(home.tmp, 'data'), roots });
    await catalog.build();
    for (const entry of catalog.list()) byId.set(entry.sessionId.slice(0, 8), entry);
  });
  afterAll(async () => {
    await catalog.dispose();
    await home.cleanup();
  });

  it('finds every session file, and the sessions whose file is gone but whose sub-agent folder is left', () => {
    expect([...byId.keys()].sort()).toEqual([
      '1432e0f5',
      '1af7fc5e',
      '3f9394bc',
      '44ef5cbf',
      '5c0375b4',
      '8c880a68',
      '8d94c819',
      'a572bd87',
      'bbe015e3',
      'edd6ca43',
      'f6f74d81',
      'fe5e1c67',
    ]);
    for (const entry of byId.values()) expect(entry.badLines).toBe(0);
  });

  it('Eduardodmb a572bd87 (2.1.128): title, deduplicated tokens, 2 compactions, 3 Explore sub-agents, memory writes', () => {
    const entry = byId.get('a572bd87')!;
    expect(entry).toMatchObject({
      title: 'Add bulk bid decision marking to search leads list view',
      titleSource: 'ai-title',
      firstTimestamp: '2026-05-05T21:07:03.429Z',
      lastTimestamp: '2026-05-06T03:44:58.620Z',
      versions: ['2.1.128'],
      userPrompts: 24,
      assistantTurns: 197,
      toolCalls: 208,
      tokens: { input: 249, output: 140_359, cacheCreation: 557_637, cacheRead: 18_078_421 },
      compactions: [
        { trigger: 'auto', preTokens: 173_429, postTokens: 7_850 },
        { trigger: 'auto', preTokens: 169_895, postTokens: 10_355 },
      ],
      hasSessionMemory: false,
    });
    expect(entry.models).toEqual(['claude-sonnet-4-6', 'claude-haiku-4-5-20251001']);
    expect(
      entry.subagents
        .map((a) => [a.agentId, a.agentType, a.layout, a.tokens.output, a.assistantTurns])
        .sort((a, b) => String(a[0]).localeCompare(String(b[0]))),
    ).toEqual([
      ['a0e47dc4eba51a7a9', 'Explore', 'subagents-folder', 8_932, 17],
      ['a38ec468816fd17e1', 'Explore', 'subagents-folder', 3_559, 14],
      ['a5aeeeb76a8225a77', 'Explore', 'subagents-folder', 1_059, 5],
    ]);
    expect(entry.subagents.find((a) => a.agentId === 'a0e47dc4eba51a7a9')!.tokens).toEqual({
      input: 113,
      output: 8_932,
      cacheCreation: 83_099,
      cacheRead: 787_156,
    });
    const memory = 'C:\\Users\\eduar\\.claude\\projects\\X--03-ACG-Custom-Addons\\memory\\';
    expect([...entry.memoryWrites].sort()).toEqual([
      `${memory}MEMORY.md`,
      `${memory}reference_docker_config.md`,
      `${memory}reference_odoo18_source.md`,
    ]);
  });

  it('4thehalibit (2.1.81 / 2.1.97): custom and last-prompt titles, meta.json agent types, memory reads', () => {
    expect(byId.get('44ef5cbf')).toMatchObject({
      title: 'add-teams-keybinding',
      titleSource: 'custom-title',
      userPrompts: 7,
      assistantTurns: 19,
      toolCalls: 13,
      tokens: { input: 36, output: 3_026, cacheCreation: 32_140, cacheRead: 433_719 },
      subagents: [
        expect.objectContaining({
          agentId: 'a71969c1296961234',
          agentType: 'Explore',
          tokens: { input: 41, output: 1_053, cacheCreation: 16_575, cacheRead: 122_782 },
        }),
      ],
    });
    expect(byId.get('8c880a68')).toMatchObject({
      title: 'so if i close you how am i suposed to pick back up where we leave off',
      titleSource: 'last-prompt',
      tokens: { input: 18, output: 1_498, cacheCreation: 8_409, cacheRead: 135_466 },
      subagents: [
        expect.objectContaining({
          agentId: 'a2df51c9276581f81',
          agentType: 'claude-code-guide',
          tokens: expect.objectContaining({ output: 2_190 }),
        }),
      ],
      memoryReads: [
        '/home/vwestberg/.claude/projects/-home-vwestberg-Claude/memory/MEMORY.md',
        '/home/vwestberg/.claude/projects/-home-vwestberg-Claude/memory/project_teams_led.md',
      ],
      memoryWrites: [],
    });
  });

  it('Eiji (2.1.37): a sub-agent typed only by the Task call that started it; a metadata-only file', () => {
    expect(byId.get('f6f74d81')).toMatchObject({
      title: 'claude --help',
      titleSource: 'first-prompt',
      userPrompts: 3,
      tokens: { input: 10, output: 215, cacheCreation: 10_503, cacheRead: 72_553 },
      subagents: [
        expect.objectContaining({
          agentId: 'a7c91f4',
          agentType: 'claude-code-guide',
          tokens: { input: 15, output: 5, cacheCreation: 19_399, cacheRead: 19_379 },
        }),
      ],
    });
    expect(byId.get('1432e0f5')).toMatchObject({
      title: null,
      titleSource: 'none',
      firstTimestamp: null,
      userPrompts: 0,
      assistantTurns: 0,
    });
  });

  it('orphan sub-agent folders: sessions with no main transcript, dated and costed by their sub-agents; helper agents typed', () => {
    // 4thehalibit bbe015e3: the session file is not in the backup; its Explore agent is.
    expect(byId.get('bbe015e3')).toMatchObject({
      mainTranscript: false,
      bytes: 0,
      title: null,
      userPrompts: 0,
      tokens: { input: 0, output: 0, cacheCreation: 0, cacheRead: 0 },
      firstTimestamp: '2026-03-25T16:04:13.820Z',
      lastTimestamp: '2026-03-25T16:04:44.002Z',
      subagents: [
        expect.objectContaining({
          agentId: 'ace643d24f2092e5a',
          agentType: 'Explore',
          assistantTurns: 2,
          tokens: { input: 10, output: 3_195, cacheCreation: 27_984, cacheRead: 16_494 },
        }),
      ],
    });
    // Eiji 3f9394bc: the session file was over 4 MiB and left out; its compaction helper is typed by its id.
    expect(byId.get('3f9394bc')).toMatchObject({
      mainTranscript: false,
      firstTimestamp: '2026-02-13T02:56:03.532Z',
      lastTimestamp: '2026-02-13T02:57:05.911Z',
      subagents: [
        expect.objectContaining({
          agentId: 'acompact-9a97b2',
          agentType: 'compact',
          tokens: { input: 3, output: 6, cacheCreation: 12_762, cacheRead: 170_743 },
        }),
      ],
    });
  });

  it('d-kimuson (1.0.98 / 1.0.108): legacy summaries title the session their leaf is in; inline sub-agent runs with their own tokens', () => {
    const fe5e = byId.get('fe5e1c67')!;
    // Its summary line names the last message of 1af7fc5e; its own title is its first prompt, a command with arguments.
    expect(fe5e).toMatchObject({
      title: '/orchestrator create TODO app by Next.js',
      titleSource: 'first-prompt',
      cwds: ['/path/to/Demo', '/path/to/Demo/todo-app', '/path/to/Demo/todo-app/types'],
      userPrompts: 2,
      assistantTurns: 9,
      tokens: { input: 373, output: 2_636, cacheCreation: 6_672, cacheRead: 161_313 },
    });
    expect(fe5e.subagents.every((a) => a.layout === 'inline' && a.agentType === 'general-purpose')).toBe(true);
    expect(fe5e.subagents).toHaveLength(5);
    expect(fe5e.subagents.reduce((sum, a) => sum + a.tokens.output, 0)).toBe(49_297);
    expect(fe5e.subagents.reduce((sum, a) => sum + a.assistantTurns, 0)).toBe(161);
    expect(byId.get('1af7fc5e')).toMatchObject({ title: 'Empty Repo Setup: CLAUDE.md Foundation Created', titleSource: 'summary' });
    const c037 = byId.get('5c0375b4')!;
    expect(c037).toMatchObject({
      title: '/orchestrator @CLAUDE.md を最新の状態にアップデートしてください',
      userPrompts: 1,
      tokens: { input: 64, output: 2_003, cacheCreation: 26_074, cacheRead: 190_261 },
    });
    // Two Task calls in parallel: listed by when each run started.
    expect(c037.subagents.map((a) => [a.description, a.tokens.output])).toEqual([
      ['Check package configuration', 485],
      ['Analyze current project structure', 1_141],
    ]);
  });

  it('sessions without an assistant reply: /clear-started and prompt-only files', () => {
    expect(byId.get('8d94c819')).toMatchObject({ title: null, userPrompts: 0, assistantTurns: 0, versions: ['2.1.136'] });
    expect(byId.get('edd6ca43')).toMatchObject({ title: 'Set up personal Claude Code environment', userPrompts: 1, assistantTurns: 0 });
  });

  it('never writes into the fixtures', async () => {
    expect(await snapshotTree(FIXTURES)).toEqual(before);
  });
});
