import { describe, expect, it } from 'vitest';
import { summarizeAggregate } from '../../../../electron/core/catalog/fileSummary';
import { memoryPathMatcher } from '../../../../electron/core/catalog/memoryPathMatcher';
import { TranscriptAggregate } from '../../../../electron/core/catalog/transcriptAggregate';
import { parseTranscriptLine } from '../../../../electron/core/catalog/transcriptLineParser';
import { assistantChunk, compactBoundary, metadata, toolResult, toolUse, userPrompt } from '../../../fixtures/transcriptLines';

const MEMORY = '/home/u/.claude/projects/-work-app/memory';

function aggregateOf(lines: readonly string[], isSubagentFile = false): TranscriptAggregate {
  const aggregate = new TranscriptAggregate(memoryPathMatcher('/home/u/.claude', MEMORY), isSubagentFile);
  for (const text of lines) {
    const record = parseTranscriptLine(Buffer.from(text));
    if (record) aggregate.add(record);
    else aggregate.badLine();
  }
  return aggregate;
}

describe('TranscriptAggregate', () => {
  it('dedupes usage by message.id keeping the chunk with most output, and skips synthetic and API-error lines', () => {
    const summary = summarizeAggregate(
      aggregateOf([
        userPrompt('first'),
        assistantChunk({ messageId: 'msg_a', usage: { input: 3, output: 5, cacheRead: 100 } }),
        assistantChunk({ messageId: 'msg_a', usage: { input: 3, output: 172, cacheRead: 100, cacheCreation: 9 } }),
        assistantChunk({ messageId: 'msg_a', usage: { input: 3, output: 50, cacheRead: 100 } }),
        assistantChunk({ messageId: 'msg_b', usage: { input: 1, output: 10 } }),
        assistantChunk({ messageId: 'msg_syn', model: '<synthetic>', usage: { input: 1000, output: 1000 } }),
        assistantChunk({ messageId: 'msg_err', usage: { input: 1000, output: 1000 }, isApiErrorMessage: true }),
      ]),
    );
    expect(summary.tokens).toEqual({ input: 4, output: 182, cacheCreation: 9, cacheRead: 100 });
    expect(summary.assistantTurns).toBe(2);
    expect(summary.models).toEqual(['claude-sonnet-4-6']);
  });

  it('counts human prompts only: not meta, tool results, command wrappers or compaction summaries', () => {
    const compactSummary = JSON.stringify({ ...JSON.parse(userPrompt('This session is being continued…')), isCompactSummary: true });
    const summary = summarizeAggregate(
      aggregateOf([
        userPrompt('<local-command-caveat>Caveat</local-command-caveat>', { isMeta: true }),
        userPrompt('<command-name>/clear</command-name>'),
        userPrompt('Refactor the cart'),
        toolResult('toolu_1', 'ok'),
        userPrompt('[Request interrupted by user]'),
        compactSummary,
        userPrompt('Now add tests'),
      ]),
    );
    expect(summary.userPrompts).toBe(2);
    expect(summary.firstPrompt).toBe('Refactor the cart');
  });

  it('counts distinct tool calls, and memory reads and writes by absolute path inside a memory folder', () => {
    const summary = summarizeAggregate(
      aggregateOf([
        assistantChunk({ messageId: 'm1', usage: { output: 1 }, block: toolUse('t1', 'Read', { file_path: `${MEMORY}/MEMORY.md` }) }),
        assistantChunk({ messageId: 'm1', usage: { output: 2 }, block: toolUse('t1', 'Read', { file_path: `${MEMORY}/MEMORY.md` }) }),
        assistantChunk({ messageId: 'm2', usage: { output: 1 }, block: toolUse('t2', 'Write', { file_path: `${MEMORY}/user_role.md` }) }),
        assistantChunk({
          messageId: 'm3',
          usage: { output: 1 },
          block: toolUse('t3', 'Edit', { file_path: 'C:\\Users\\e\\.claude\\projects\\X--app\\memory\\MEMORY.md' }),
        }),
        assistantChunk({
          messageId: 'm4',
          usage: { output: 1 },
          block: toolUse('t4', 'Edit', { file_path: '/work/app/src/memory/cache.ts' }),
        }),
        assistantChunk({ messageId: 'm5', usage: { output: 1 }, block: toolUse('t5', 'Write', { file_path: `${MEMORY}/../escape.md` }) }),
        assistantChunk({ messageId: 'm6', usage: { output: 1 }, block: toolUse('t6', 'Bash', { command: `cat ${MEMORY}/x.md` }) }),
      ]),
    );
    expect(summary.toolCalls).toBe(6);
    expect(summary.memoryReads).toEqual([`${MEMORY}/MEMORY.md`]);
    expect(summary.memoryWrites).toEqual([`${MEMORY}/user_role.md`, 'C:\\Users\\e\\.claude\\projects\\X--app\\memory\\MEMORY.md']);
  });

  it('takes the title fields last-wins, keeps distinct cwds, branches and versions, and records compactions', () => {
    const summary = summarizeAggregate(
      aggregateOf([
        userPrompt('one', { cwd: '/a', gitBranch: 'main', version: '2.1.1', timestamp: '2026-05-01T10:00:00.000Z' }),
        metadata('ai-title', { aiTitle: 'Draft' }),
        compactBoundary(170_000, 8_000, { timestamp: '2026-05-01T11:00:00.000Z', cwd: '/a', version: '2.1.1' }),
        userPrompt('two', { cwd: '/a/b', gitBranch: 'feat', version: '2.1.2', timestamp: '2026-05-01T12:00:00.000Z' }),
        metadata('ai-title', { aiTitle: 'Final title' }),
        metadata('custom-title', { customTitle: 'Renamed' }),
        '{"broken',
      ]),
    );
    expect(summary).toMatchObject({
      aiTitle: 'Final title',
      customTitle: 'Renamed',
      cwds: ['/a', '/a/b'],
      gitBranches: ['main', 'feat'],
      versions: ['2.1.1', '2.1.2'],
      firstTimestamp: '2026-05-01T10:00:00.000Z',
      lastTimestamp: '2026-05-01T12:00:00.000Z',
      compactions: [{ timestamp: '2026-05-01T11:00:00.000Z', trigger: 'auto', preTokens: 170_000, postTokens: 8_000 }],
      badLines: 1,
      lines: 7,
    });
  });

  it('links a sub-agent to the Agent call that started it, by the agent id in its result', () => {
    const summary = summarizeAggregate(
      aggregateOf([
        assistantChunk({
          messageId: 'm1',
          usage: { output: 1 },
          block: toolUse('toolu_A', 'Agent', { subagent_type: 'Explore', description: 'Look around', prompt: 'Look' }),
        }),
        toolResult('toolu_A', 'found it', { toolUseResult: { status: 'completed', agentId: 'a123', totalToolUseCount: 2 } }),
      ]),
    );
    expect(summary.agentLinks).toEqual([['a123', { agentType: 'Explore', description: 'Look around', toolUseId: 'toolu_A' }]]);
  });

  it('groups inline (1.0) sidechain lines into runs with their own tokens, typed by the Task call', () => {
    const root = 'side-root';
    const summary = summarizeAggregate(
      aggregateOf([
        assistantChunk({
          messageId: 'main1',
          usage: { output: 10 },
          block: toolUse('toolu_T', 'Task', { subagent_type: 'general-purpose', description: 'Set up', prompt: 'Set up the project' }),
        }),
        userPrompt('Set up the project', { isSidechain: true, uuid: root, parentUuid: null }),
        assistantChunk({ messageId: 'side1', usage: { output: 40 }, isSidechain: true, uuid: 's2', parentUuid: root }),
        toolResult('toolu_x', 'ok', { isSidechain: true, uuid: 's3', parentUuid: 's2' }),
        assistantChunk({ messageId: 'side2', usage: { output: 60 }, isSidechain: true, uuid: 's4', parentUuid: 's3' }),
      ]),
    );
    expect(summary.tokens.output).toBe(10);
    expect(summary.assistantTurns).toBe(1);
    expect(summary.userPrompts).toBe(0);
    expect(summary.inlineRuns).toEqual([
      expect.objectContaining({
        rootUuid: root,
        agentType: 'general-purpose',
        description: 'Set up',
        assistantTurns: 2,
        tokens: expect.objectContaining({ output: 100 }),
      }),
    ]);
  });

  it('survives a round trip of its saved state and goes on as if it had never stopped', () => {
    const lines = [
      userPrompt('a'),
      assistantChunk({ messageId: 'x', usage: { output: 5 } }),
      assistantChunk({ messageId: 'x', usage: { output: 9 } }),
      assistantChunk({ messageId: 'y', usage: { output: 1 } }),
    ];
    const whole = summarizeAggregate(aggregateOf(lines));
    const first = aggregateOf(lines.slice(0, 2));
    const resumed = new TranscriptAggregate(
      memoryPathMatcher('/home/u/.claude', MEMORY),
      false,
      JSON.parse(JSON.stringify(first.stateView())),
    );
    for (const text of lines.slice(2)) resumed.add(parseTranscriptLine(Buffer.from(text))!);
    expect(summarizeAggregate(resumed)).toEqual(whole);
  });
});
