import { appendFile, readFile, rename, stat, truncate, writeFile } from 'node:fs/promises';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CatalogProgress, SessionUpdate } from '../../../shared/model/catalog';
import { SessionCatalog } from '../../../electron/core/catalog/SessionCatalog';
import { createScenarioHome, type ScenarioHome } from '../../fixtures/scenarioHome';
import { seededUuid } from '../../fixtures/sessionLines';
import { createStandardScenario, type StandardScenario } from '../../fixtures/standardScenario';
import { snapshotTree } from '../../fixtures/treeSnapshot';
import { assistantChunk, toolResult, toolUse, userPrompt } from '../../fixtures/transcriptLines';

/** What the scenario builder writes per turn (scenarioHome.ts): one response of two chunks with this usage. */
function scenarioTokens(turns: number) {
  let output = 0;
  for (let turn = 0; turn < turns; turn++) output += 120 + turn;
  return { input: 3 * turns, output, cacheCreation: 1200 * turns, cacheRead: 14000 * turns };
}

describe('SessionCatalog on the standard scenario', () => {
  let scenario: StandardScenario;
  let dataDir: string;

  beforeEach(async () => {
    scenario = await createStandardScenario();
    dataDir = join(scenario.home.tmp, 'data');
  });
  afterEach(() => scenario.home.cleanup());

  /** A run of the app before this one: a build, its cache saved; what it listed. */
  async function lastRunsListing() {
    const lastRun = new SessionCatalog({ dataDir, roots: [scenario.home.root] });
    await lastRun.build();
    const listed = lastRun.list();
    await lastRun.dispose();
    return listed;
  }

  it('catalogs every session with the facts written into it, and writes nothing under the config root', async () => {
    const before = await snapshotTree(scenario.home.root);
    const catalog = new SessionCatalog({ dataDir, roots: [scenario.home.root] });
    const result = await catalog.build();
    const all = [...scenario.webshop.sessions, ...scenario.monorepo.sessions, ...scenario.windows.sessions];
    expect(result).toMatchObject({ sessions: all.length, cancelled: false });
    const listed = catalog.list();
    expect(listed.map((s) => s.sessionId)).toEqual(
      [...all].sort((a, b) => b.lastTimestamp!.localeCompare(a.lastTimestamp!)).map((s) => s.sessionId),
    );
    for (const facts of all) {
      const entry = listed.find((s) => s.sessionId === facts.sessionId)!;
      const turns = facts.prompts.length;
      expect(entry).toMatchObject({
        path: facts.file,
        title: facts.title,
        titleSource: facts.titleSource,
        firstTimestamp: facts.firstTimestamp,
        lastTimestamp: facts.lastTimestamp,
        durationMs: Date.parse(facts.lastTimestamp!) - Date.parse(facts.firstTimestamp!),
        cwds: [facts.cwd],
        gitBranches: [facts.gitBranch],
        versions: [facts.version],
        models: ['claude-sonnet-4-6'],
        userPrompts: turns,
        assistantTurns: turns,
        toolCalls: 0,
        tokens: scenarioTokens(turns),
        subagents: [],
        compactions: [],
        memoryWrites: [],
        hasSessionMemory: false,
        bytes: facts.bytes,
        badLines: 0,
      });
    }
    expect(
      catalog
        .list({ slug: scenario.webshop.slug })
        .map((s) => s.sessionId)
        .sort(),
    ).toEqual(scenario.webshop.sessions.map((s) => s.sessionId).sort());
    await catalog.dispose();
    expect(await snapshotTree(scenario.home.root)).toEqual(before);
  });

  it('serves the saved catalog at once on a warm start, and a second build reads nothing', async () => {
    const expected = await lastRunsListing();
    const warm = new SessionCatalog({ dataDir, roots: [scenario.home.root] });
    expect(await warm.loadCache()).toBe(true);
    expect(warm.list()).toEqual(expected);
    expect(await warm.build()).toMatchObject({ filesRead: 0, bytesRead: 0 });
    expect(warm.list()).toEqual(expected);
    await warm.dispose();
  });

  it('answers a warm start’s first listing from the saved listing, equal to what the index makes, without reading the index body', async () => {
    const expected = await lastRunsListing();
    const fromIndex = new SessionCatalog({ dataDir, roots: [scenario.home.root] });
    expect(await fromIndex.loadCache()).toBe(true);
    expect(fromIndex.list()).toEqual(expected);
    await fromIndex.dispose();
    // The index's body damaged, its header kept: the first listing still comes whole, from the listing alone.
    const index = join(dataDir, 'catalog', 'index.json');
    const text = await readFile(index, 'utf8');
    await writeFile(index, `${text.slice(0, text.indexOf('\n') + 1)}{"format":2,"files":[`);
    const warm = new SessionCatalog({ dataDir, roots: [scenario.home.root] });
    const updates: SessionUpdate[] = [];
    warm.onDidUpdateSessions((update) => updates.push(update));
    await warm.loadFirstListing();
    expect(warm.list()).toEqual(expected);
    // Its next turn finds the index unreadable: the listed sessions are withdrawn, then the build lists them again.
    const result = await warm.build();
    expect(result.filesRead).toBe(6);
    expect(updates[0]).toEqual({
      updated: [],
      removed: expected.map(({ configRoot, slug, sessionId }) => ({ configRoot, slug, sessionId })),
    });
    expect(warm.list()).toEqual(expected);
    await warm.dispose();
  });

  it('loads the whole saved catalog before a live update after a first listing, so its save keeps every session', async () => {
    const expected = await lastRunsListing();
    const warm = new SessionCatalog({ dataDir, roots: [scenario.home.root] });
    await warm.loadFirstListing();
    const session = scenario.webshop.sessions[0];
    await warm.refreshSessions([{ configRoot: scenario.home.root, slug: scenario.webshop.slug, sessionId: session.sessionId }]);
    await warm.dispose();
    const next = new SessionCatalog({ dataDir, roots: [scenario.home.root] });
    expect(await next.loadCache()).toBe(true);
    expect(next.list()).toEqual(expected);
    await next.dispose();
  });

  it('leaves out a transcript deleted after it was found, and completes the build', async () => {
    const catalog = new SessionCatalog({ dataDir, roots: [scenario.home.root] });
    const victim = scenario.webshop.sessions[0];
    let deleted = false;
    // The first progress report comes once every file is found and before any is read.
    const result = await catalog.build({
      onProgress: () => {
        if (!deleted) rmSync(victim.file);
        deleted = true;
      },
    });
    const all = [...scenario.webshop.sessions, ...scenario.monorepo.sessions, ...scenario.windows.sessions];
    expect(result).toMatchObject({ cancelled: false, sessions: all.length - 1 });
    expect(catalog.list().map((entry) => entry.sessionId)).not.toContain(victim.sessionId);
    // Its index is saved behind the build: done before the scenario's folder is removed.
    await catalog.dispose();
  });

  it('discards a corrupt cache instead of trusting it', async () => {
    const first = new SessionCatalog({ dataDir, roots: [scenario.home.root] });
    await first.build();
    await first.dispose();
    const index = join(dataDir, 'catalog', 'index.json');
    // Edit one number in the body and keep the header: its hash no longer matches.
    const [header, body] = (await readFile(index, 'utf8')).split(/\n(.*)/s);
    const saved = JSON.parse(body) as { files: { summary: { userPrompts: unknown } }[] };
    saved.files[0].summary.userPrompts = 'many';
    await writeFile(index, `${header}\n${JSON.stringify(saved)}`);
    const second = new SessionCatalog({ dataDir, roots: [scenario.home.root] });
    expect(await second.loadCache()).toBe(false);
    const result = await second.build();
    expect(result.filesRead).toBe(6);
    expect(second.list().every((s) => typeof s.userPrompts === 'number')).toBe(true);
    // The build saves its index behind it: once disposed, the catalog has written it.
    await second.dispose();
    await writeFile(index, '{"format":1,"files":[');
    const third = new SessionCatalog({ dataDir, roots: [scenario.home.root] });
    expect(await third.loadCache()).toBe(false);
    expect((await third.build()).filesRead).toBe(6);
    await third.dispose();
  });

  it('saves the index behind the build: what the catalog does next, and its disposal, wait for the save', async () => {
    const index = join(dataDir, 'catalog', 'index.json');
    const catalog = new SessionCatalog({ dataDir, roots: [scenario.home.root] });
    const built = catalog.build();
    const session = scenario.webshop.sessions[0];
    // A live update queued while the build runs comes after the build's save (its own save comes later still).
    const refreshed = catalog.refreshSessions([
      { configRoot: scenario.home.root, slug: scenario.webshop.slug, sessionId: session.sessionId },
    ]);
    await built;
    await refreshed;
    const savedByBuild = await readFile(index, 'utf8');
    expect(JSON.parse(savedByBuild.slice(savedByBuild.indexOf('\n') + 1)).sessions).toHaveLength(6);
    await catalog.dispose();
    const warm = new SessionCatalog({ dataDir, roots: [scenario.home.root] });
    expect(await warm.loadCache()).toBe(true);
    expect(warm.list()).toEqual(catalog.list());
    await warm.dispose();
  });
});

describe('SessionCatalog reading on from saved offsets', () => {
  let home: ScenarioHome;
  let dataDir: string;
  let file: string;
  let sessionId: string;
  let slug: string;

  beforeEach(async () => {
    home = await createScenarioHome();
    dataDir = join(home.tmp, 'data');
    const project = home.project(home.workPath('big'));
    slug = project.slug;
    // Over the size from which the aggregate's state is saved, so a restart continues from the offset.
    const facts = await project.session({ titleKind: 'ai-title', title: 'Big session', turns: 3, padBytes: 400_000 });
    file = facts.file;
    sessionId = facts.sessionId;
  });
  afterEach(() => home.cleanup());

  const turn = (n: number) =>
    `${[
      userPrompt(`Appended prompt ${n}`, { sessionId, timestamp: `2026-06-01T00:0${n}:00.000Z` }),
      assistantChunk({
        sessionId,
        messageId: `msg_appended_${n}`,
        usage: { input: 5, output: 1000 + n },
        timestamp: `2026-06-01T00:0${n}:01.000Z`,
      }),
    ].join('\n')}\n`;

  it('reads only the appended bytes, even after a restart', async () => {
    const first = new SessionCatalog({ dataDir, roots: [home.root] });
    await first.build();
    const before = first.get(home.root, slug, sessionId)!;
    await first.dispose();
    const appended = turn(1);
    await appendFile(file, appended);
    const restarted = new SessionCatalog({ dataDir, roots: [home.root] });
    const result = await restarted.build();
    expect(result).toMatchObject({ filesRead: 1, bytesRead: Buffer.byteLength(appended) });
    const after = restarted.get(home.root, slug, sessionId)!;
    expect(after.userPrompts).toBe(before.userPrompts + 1);
    expect(after.assistantTurns).toBe(before.assistantTurns + 1);
    expect(after.tokens.output).toBe(before.tokens.output + 1001);
    expect(after.lastTimestamp).toBe('2026-06-01T00:01:01.000Z');
    await restarted.dispose();
  });

  it('holds back a partial last line until it is complete', async () => {
    const catalog = new SessionCatalog({ dataDir, roots: [home.root] });
    await catalog.build();
    const before = catalog.get(home.root, slug, sessionId)!;
    const line = turn(2);
    const cut = Buffer.byteLength(line) - 40;
    await appendFile(file, Buffer.from(line).subarray(0, cut));
    await catalog.build();
    expect(catalog.get(home.root, slug, sessionId)!.userPrompts).toBe(before.userPrompts + 1);
    expect(catalog.get(home.root, slug, sessionId)!.assistantTurns).toBe(before.assistantTurns);
    expect(catalog.get(home.root, slug, sessionId)!.badLines).toBe(0);
    await appendFile(file, Buffer.from(line).subarray(cut));
    const result = await catalog.build();
    expect(result.bytesRead).toBeLessThan(Buffer.byteLength(line));
    expect(catalog.get(home.root, slug, sessionId)!).toMatchObject({ assistantTurns: before.assistantTurns + 1, badLines: 0 });
    await catalog.dispose();
  });

  it('reads a shrunk file and a replaced file again from the start', async () => {
    const catalog = new SessionCatalog({ dataDir, roots: [home.root] });
    await catalog.build();
    const whole = catalog.get(home.root, slug, sessionId)!;
    // Shrunk: only the first two lines are left.
    const lines = (await readFile(file, 'utf8')).split('\n');
    const kept = `${lines.slice(0, 2).join('\n')}\n`;
    await truncate(file, Buffer.byteLength(kept));
    let result = await catalog.build();
    expect(result.bytesRead).toBe(Buffer.byteLength(kept));
    expect(catalog.get(home.root, slug, sessionId)!.userPrompts).toBe(1);
    // Replaced: same size, another file (inode) renamed over it.
    const original = lines.join('\n');
    await writeFile(`${file}.new`, original);
    await rename(`${file}.new`, file);
    result = await catalog.build();
    expect(result.bytesRead).toBe((await stat(file)).size);
    expect(catalog.get(home.root, slug, sessionId)!).toMatchObject({ userPrompts: whole.userPrompts, tokens: whole.tokens });
    // Rewritten in place (same inode) without a line in the middle, then grown past the old size: the bytes
    // before the saved offset moved, so it is read from the start.
    const withoutLine = [...lines.slice(0, 3), ...lines.slice(4)].join('\n');
    const rewritten = withoutLine + turn(4) + turn(5);
    await writeFile(file, rewritten);
    result = await catalog.build();
    expect(result.bytesRead).toBe(Buffer.byteLength(rewritten));
    expect(catalog.get(home.root, slug, sessionId)!.userPrompts).toBe(whole.userPrompts + 2);
    await catalog.dispose();
  });

  it('reads the whole file when its saved state is corrupt', async () => {
    const first = new SessionCatalog({ dataDir, roots: [home.root] });
    await first.build();
    await first.dispose();
    const { readdir } = await import('node:fs/promises');
    const stateDir = join(dataDir, 'catalog', 'state');
    const [stateFile] = await readdir(stateDir);
    await writeFile(join(stateDir, stateFile), '{"format":1,"state":{"lines":-4}}');
    await appendFile(file, turn(3));
    const restarted = new SessionCatalog({ dataDir, roots: [home.root] });
    const result = await restarted.build();
    expect(result.bytesRead).toBe((await stat(file)).size);
    expect(restarted.get(home.root, slug, sessionId)!.userPrompts).toBe(4);
    await restarted.dispose();
  });

  it('reports progress while it builds, and can be cancelled', async () => {
    const events: CatalogProgress[] = [];
    const catalog = new SessionCatalog({ dataDir, roots: [home.root] });
    await catalog.build({ onProgress: (p) => events.push(p) });
    expect(events[0]).toMatchObject({ running: true, done: 0, total: 1 });
    expect(events.at(-1)).toMatchObject({ running: false, cancelled: false, done: 1, total: 1, bytesDone: (await stat(file)).size });
    await catalog.dispose();

    const controller = new AbortController();
    controller.abort();
    const cancelled = new SessionCatalog({ dataDir: join(home.tmp, 'other-data'), roots: [home.root] });
    const result = await cancelled.build({ signal: controller.signal, onProgress: (p) => events.push(p) });
    expect(result.cancelled).toBe(true);
    expect(cancelled.list()).toEqual([]);
    expect(cancelled.progress).toMatchObject({ running: false, cancelled: true });
    await cancelled.dispose();
  });
});

describe('SessionCatalog: sub-agents, memory and session memory', () => {
  let home: ScenarioHome;
  afterEach(() => home.cleanup());

  it('records a session only once every sibling agent file is read, even one still being read when its own file ends', async () => {
    home = await createScenarioHome();
    const project = home.project(home.workPath('big'));
    const sessionId = seededUuid('big-session');
    const padding = (count: number, isSidechain: boolean): string[] =>
      Array.from({ length: count }, (_, i) => userPrompt(`${i} ${'x'.repeat(100_000)}`, { sessionId, isSidechain }));
    // Over the size that puts a session ahead of the sibling files in a build (8 MB), and a sibling twice as big: the
    // session's file is read to its end first, while the sibling is still being read.
    const main = [
      ...padding(90, false),
      assistantChunk({
        sessionId,
        messageId: 'm1',
        usage: { output: 20 },
        block: toolUse('toolu_old', 'Task', { subagent_type: 'code-reviewer', description: 'Review', prompt: 'Review it' }),
      }),
      toolResult('toolu_old', 'reviewed', {
        sessionId,
        toolUseResult: { status: 'completed', agentId: 'bbig', totalToolUseCount: 1, content: [] },
      }),
    ];
    await project.rawFile(`${sessionId}.jsonl`, `${main.join('\n')}\n`);
    const sibling = [
      userPrompt('Review it', { sessionId, isSidechain: true }),
      ...padding(180, true),
      assistantChunk({ sessionId, messageId: 'b1', usage: { output: 50 }, isSidechain: true }),
    ];
    await project.rawFile('agent-bbig.jsonl', `${sibling.join('\n')}\n`);

    const catalog = new SessionCatalog({ dataDir: join(home.tmp, 'data'), roots: [home.root] });
    await catalog.build();
    const entry = catalog.get(home.root, project.slug, sessionId)!;
    expect(entry.bytes).toBeGreaterThan(8 * 1024 * 1024);
    expect(entry.subagents.map((agent) => [agent.agentId, agent.layout, agent.agentType, agent.tokens.output])).toEqual([
      ['bbig', 'sibling', 'code-reviewer', 50],
    ]);
    await catalog.dispose();
  });

  it('finds sub-agents in all three layouts with their types and own tokens, memory writes and session memory', async () => {
    home = await createScenarioHome();
    const project = home.project(home.workPath('agents'));
    const sessionId = seededUuid('agents-session');
    const memoryFile = join(project.memoryDir, 'feedback_tests.md');
    const main = [
      userPrompt('Explore the code', { sessionId }),
      assistantChunk({
        sessionId,
        messageId: 'm1',
        usage: { output: 10 },
        block: toolUse('toolu_new', 'Agent', { subagent_type: 'Explore', description: 'Look', prompt: 'Look around' }),
      }),
      toolResult('toolu_new', 'done', {
        sessionId,
        toolUseResult: { status: 'completed', agentId: 'afolder1', agentType: 'Explore', totalToolUseCount: 1, content: [] },
      }),
      assistantChunk({
        sessionId,
        messageId: 'm2',
        usage: { output: 20 },
        block: toolUse('toolu_old', 'Task', { subagent_type: 'code-reviewer', description: 'Review', prompt: 'Review it' }),
      }),
      toolResult('toolu_old', 'reviewed', {
        sessionId,
        toolUseResult: { status: 'completed', agentId: 'bsibling', totalToolUseCount: 1, content: [] },
      }),
      assistantChunk({
        sessionId,
        messageId: 'm3',
        usage: { output: 30 },
        block: toolUse('toolu_w', 'Write', { file_path: memoryFile, content: 'x' }),
      }),
      assistantChunk({
        sessionId,
        messageId: 'm4',
        usage: { output: 40 },
        block: toolUse('toolu_i', 'Task', { subagent_type: 'general-purpose', description: 'Inline', prompt: 'Do it inline' }),
      }),
      userPrompt('Do it inline', { sessionId, isSidechain: true, uuid: 'inline-root', parentUuid: null }),
      assistantChunk({ sessionId, messageId: 'i1', usage: { output: 7 }, isSidechain: true, uuid: 'inline-2', parentUuid: 'inline-root' }),
    ];
    await project.rawFile(`${sessionId}.jsonl`, `${main.join('\n')}\n`);
    await project.rawFile(
      `${sessionId}/subagents/agent-afolder1.jsonl`,
      `${[userPrompt('Look around', { sessionId, isSidechain: true, agentId: 'afolder1' }), assistantChunk({ sessionId, messageId: 's1', usage: { output: 300 }, isSidechain: true, model: 'claude-haiku-4-5', block: toolUse('toolu_r', 'Read', { file_path: memoryFile }) })].join('\n')}\n`,
    );
    await project.rawFile(`${sessionId}/subagents/agent-afolder1.meta.json`, JSON.stringify({ agentType: 'Explore', description: 'Look' }));
    const sibling = `${[userPrompt('Review it', { sessionId, isSidechain: true }), assistantChunk({ sessionId, messageId: 'b1', usage: { output: 50 }, isSidechain: true })].join('\n')}\n`;
    await project.rawFile('agent-bsibling.jsonl', sibling);
    await project.rawFile(`${sessionId}/session-memory/summary.md`, '# Session Title\n_A short title_\n\nAgents\n');
    // An orphan sub-agent folder (its session file is gone) is a session with no main transcript.
    await project.rawFile(`${seededUuid('orphan')}/subagents/agent-aorphan.jsonl`, `${userPrompt('x', { isSidechain: true })}\n`);

    const catalog = new SessionCatalog({ dataDir: join(home.tmp, 'data'), roots: [home.root] });
    await catalog.build();
    expect(
      catalog
        .list()
        .map((s) => [s.sessionId, s.mainTranscript])
        .sort(),
    ).toEqual(
      [
        [sessionId, true],
        [seededUuid('orphan'), false],
      ].sort(),
    );
    const entry = catalog.get(home.root, project.slug, sessionId)!;
    expect(entry.tokens.output).toBe(100);
    expect(entry.toolCalls).toBe(4);
    expect(entry.hasSessionMemory).toBe(true);
    expect(entry.memoryWrites).toEqual([memoryFile]);
    expect(entry.memoryReads).toEqual([memoryFile]);
    expect(entry.models).toEqual(['claude-sonnet-4-6', 'claude-haiku-4-5']);
    const agents = Object.fromEntries(entry.subagents.map((a) => [a.agentId, a]));
    expect(Object.keys(agents).sort()).toEqual(['afolder1', 'bsibling', 'inline-root']);
    expect(agents.afolder1).toMatchObject({
      agentType: 'Explore',
      description: 'Look',
      layout: 'subagents-folder',
      tokens: { output: 300 },
    });
    expect(agents.bsibling).toMatchObject({ agentType: 'code-reviewer', layout: 'sibling', tokens: { output: 50 } });
    expect(agents['inline-root']).toMatchObject({ agentType: 'general-purpose', layout: 'inline', tokens: { output: 7 } });

    // Sub-agent files deleted between builds leave the session's entry, in both layouts, and the change is published.
    const updated: string[][] = [];
    catalog.onDidUpdateSessions((update) => updated.push(update.updated.map((s) => s.subagents.map((a) => a.agentId).join())));
    rmSync(join(project.dir, sessionId, 'subagents', 'agent-afolder1.jsonl'));
    rmSync(join(project.dir, 'agent-bsibling.jsonl'));
    await catalog.build();
    expect(catalog.get(home.root, project.slug, sessionId)!.subagents.map((a) => a.agentId)).toEqual(['inline-root']);
    expect(updated).toEqual([['inline-root']]);

    // And a sibling that grew (so it must be read again) and is deleted while the build runs, after it was found.
    await project.rawFile('agent-bsibling.jsonl', sibling);
    await catalog.build();
    expect(updated.at(-1)).toEqual(['bsibling,inline-root']);
    await appendFile(join(project.dir, 'agent-bsibling.jsonl'), `${userPrompt('More', { sessionId, isSidechain: true })}\n`);
    let deleted = false;
    await catalog.build({
      onProgress: () => {
        if (!deleted) rmSync(join(project.dir, 'agent-bsibling.jsonl'));
        deleted = true;
      },
    });
    expect(updated.at(-1)).toEqual(['inline-root']);
    await catalog.dispose();
  });

  it('reads the /rename title of a session that has a folder, and of one whose folder is made after the build', async () => {
    home = await createScenarioHome();
    const project = home.project(home.workPath('titles'));
    const renamed = seededUuid('renamed');
    const plain = seededUuid('plain');
    const session = (sessionId: string): string => `${userPrompt('Hello', { sessionId })}\n`;
    await project.rawFile(`${renamed}.jsonl`, session(renamed));
    await project.rawFile(`${renamed}/custom-title.json`, JSON.stringify({ customTitle: 'Renamed one' }));
    await project.rawFile(`${plain}.jsonl`, session(plain));
    const catalog = new SessionCatalog({ dataDir: join(home.tmp, 'data'), roots: [home.root] });
    await catalog.build();
    expect(catalog.get(home.root, project.slug, renamed)).toMatchObject({ title: 'Renamed one', titleSource: 'custom-title' });
    expect(catalog.get(home.root, project.slug, plain)).toMatchObject({ title: 'Hello', titleSource: 'first-prompt' });
    // A title given after the build (the session's folder made by it) is found by the live update.
    await project.rawFile(`${plain}/custom-title.json`, JSON.stringify({ customTitle: 'Renamed later' }));
    await catalog.refreshSessions([{ configRoot: home.root, slug: project.slug, sessionId: plain }]);
    expect(catalog.get(home.root, project.slug, plain)).toMatchObject({ title: 'Renamed later', titleSource: 'custom-title' });
    await catalog.dispose();
  });

  it("titles a session by another file's legacy summary, and publishes again only the sessions that summary changes", async () => {
    home = await createScenarioHome();
    const project = home.project(home.workPath('shop'));
    const [titled, other, summarising] = ['titled', 'other', 'summarising'].map((seed) => seededUuid(`legacy-${seed}`));
    const lastOfTitled = seededUuid('legacy-titled-answer');
    const conversation = (sessionId: string, prompt: string, answerUuid: string): string[] => [
      userPrompt(prompt, { sessionId, uuid: seededUuid(`${sessionId}-prompt`) }),
      assistantChunk({
        sessionId,
        messageId: `m-${sessionId}`,
        usage: { output: 5 },
        uuid: answerUuid,
        parentUuid: seededUuid(`${sessionId}-prompt`),
      }),
    ];
    await project.rawFile(`${titled}.jsonl`, `${conversation(titled, 'Fix the cart', lastOfTitled).join('\n')}\n`);
    await project.rawFile(`${other}.jsonl`, `${conversation(other, 'Write the docs', seededUuid('legacy-other-answer')).join('\n')}\n`);
    const summarisingLines = conversation(summarising, 'Go on', seededUuid('legacy-summarising-answer'));
    await project.rawFile(`${summarising}.jsonl`, `${summarisingLines.join('\n')}\n`);
    const catalog = new SessionCatalog({ dataDir: join(home.tmp, 'data'), roots: [home.root] });
    await catalog.build();
    expect(catalog.get(home.root, project.slug, titled)).toMatchObject({ title: 'Fix the cart', titleSource: 'first-prompt' });

    // Claude Code 1.0 wrote the summary of a conversation at the top of the file that continued it.
    const summaryLine = JSON.stringify({ type: 'summary', summary: 'Cart checkout fixed', leafUuid: lastOfTitled });
    await project.rawFile(`${summarising}.jsonl`, `${[summaryLine, ...summarisingLines].join('\n')}\n`);
    const published: string[][] = [];
    catalog.onDidUpdateSessions((update) => published.push(update.updated.map((entry) => entry.sessionId).sort()));
    await catalog.refreshSessions([{ configRoot: home.root, slug: project.slug, sessionId: summarising }]);
    expect(catalog.get(home.root, project.slug, titled)).toMatchObject({ title: 'Cart checkout fixed', titleSource: 'summary' });
    expect(catalog.get(home.root, project.slug, other)).toMatchObject({ title: 'Write the docs', titleSource: 'first-prompt' });
    expect(published).toEqual([[summarising, titled].sort()]);
    await catalog.dispose();

    // A first build finds the same title, whichever of the two files it reads first.
    const cold = new SessionCatalog({ dataDir: join(home.tmp, 'cold'), roots: [home.root] });
    await cold.build();
    expect(cold.get(home.root, project.slug, titled)).toEqual(catalog.get(home.root, project.slug, titled));
    await cold.dispose();

    // A copy of the conversation in another project (a moved folder) is not titled by this project's summary.
    const copy = home.project(home.workPath('shop-copy'));
    const copied = seededUuid('legacy-copied');
    await copy.rawFile(`${copied}.jsonl`, `${conversation(copied, 'Fix the cart', lastOfTitled).join('\n')}\n`);
    const both = new SessionCatalog({ dataDir: join(home.tmp, 'both'), roots: [home.root] });
    await both.build();
    expect(both.get(home.root, project.slug, titled)).toMatchObject({ title: 'Cart checkout fixed', titleSource: 'summary' });
    expect(both.get(home.root, copy.slug, copied)).toMatchObject({ title: 'Fix the cart', titleSource: 'first-prompt' });
    await both.dispose();
  });
});
