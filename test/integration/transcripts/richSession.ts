/**
 * A realistic Claude Code 2.1 session written line by line into a scenario home: prompts, split assistant chunks,
 * empty thinking, Bash and Edit calls with their results, an Agent call whose run lives in `subagents/` with its
 * meta.json, a pasted image, an isMeta line, a line of an unknown type, an edited (forked) prompt, a compaction with
 * its summary, and a session-memory summary.md. Every fact a test asserts is exported.
 */
import { appendFile } from 'node:fs/promises';
import type { ProjectBuilder } from '../../fixtures/scenarioHome';
import { seededUuid } from '../../fixtures/sessionLines';

export interface RichSession {
  readonly sessionId: string;
  readonly path: string;
  readonly subagentPath: string;
  readonly agentId: string;
  readonly agentToolUseId: string;
  readonly bashToolUseId: string;
  readonly title: string;
  readonly cwd: string;
  /** Texts that appear once on the live branch. */
  readonly firstPrompt: string;
  readonly abandonedPrompt: string;
  readonly retriedPrompt: string;
  readonly afterCompactionPrompt: string;
  readonly compactSummary: string;
  readonly subagentPrompt: string;
  readonly subagentAnswer: string;
  readonly bashCommand: string;
  readonly bashOutput: string;
  readonly unknownType: string;
  readonly metaText: string;
  readonly sessionMemoryPath: string;
  /** Chain entries on the live branch (every chain line except the abandoned prompt). */
  readonly liveBranchChainEntries: number;
  /** `uuid` of the abandoned prompt, to check it is a branch of its own. */
  readonly abandonedUuid: string;
  readonly preCompactionLastUuid: string;
  /** Writes one more user prompt and answer at the end, as Claude Code would while the session runs. */
  appendTurn(prompt: string, answer: string): Promise<void>;
}

const MODEL = 'claude-sonnet-4-6';

/** Writes the session under `project`; `start` fixes every timestamp. */
export async function writeRichSession(project: ProjectBuilder, seed = 'rich', start = '2026-05-05T10:00:00.000Z'): Promise<RichSession> {
  const sessionId = seededUuid(`${seed}:session`);
  const agentId = 'a1b2c3d4e5f607182';
  const id = (name: string) => seededUuid(`${seed}:${name}`);
  let clock = Date.parse(start);
  const tick = () => new Date((clock += 1000)).toISOString();
  const envelope = () => ({ userType: 'external', entrypoint: 'cli', cwd: project.cwd, sessionId, version: '2.1.128', gitBranch: 'main' });
  const lines: string[] = [];
  const push = (value: Record<string, unknown>) => lines.push(JSON.stringify(value));
  const user = (uuid: string, parentUuid: string | null, content: unknown, extra: Record<string, unknown> = {}) =>
    push({
      parentUuid,
      isSidechain: false,
      type: 'user',
      message: { role: 'user', content },
      uuid,
      timestamp: tick(),
      ...extra,
      ...envelope(),
    });
  const assistant = (uuid: string, parentUuid: string, messageId: string, block: unknown) =>
    push({
      parentUuid,
      isSidechain: false,
      message: {
        model: MODEL,
        id: messageId,
        type: 'message',
        role: 'assistant',
        content: [block],
        stop_reason: 'tool_use',
        usage: { input_tokens: 3, output_tokens: 50, cache_creation_input_tokens: 100, cache_read_input_tokens: 1000 },
      },
      requestId: `req_${messageId}`,
      type: 'assistant',
      uuid,
      timestamp: tick(),
      ...envelope(),
    });

  const firstPrompt = 'Please tidy the checkout module and explain the cart total bug';
  const bashCommand = 'npm test -- cart';
  const bashOutput = 'PASS cart.test.ts\nTests: 12 passed';
  const metaText = '<command-message>checkout skill</command-message> injected skill body';
  const unknownType = 'future-entry-kind';
  const subagentPrompt = 'Find every place the cart total is computed and report the files';
  const subagentAnswer = 'The cart total is computed in cart/total.ts and checkout/summary.ts';
  const abandonedPrompt = 'Now rename the module to basket';
  const retriedPrompt = 'Now rename the module to shopping-cart instead';
  const compactSummary =
    'This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\nSummary:\n1. Primary Request and Intent: tidy checkout';
  const afterCompactionPrompt = 'After the compaction: add a changelog entry';
  const agentToolUseId = 'toolu_agent_0001';
  const bashToolUseId = 'toolu_bash_0001';
  const editToolUseId = 'toolu_edit_0001';

  push({ type: 'permission-mode', sessionId, permissionMode: 'default' });
  user(id('u1'), null, firstPrompt, { promptId: id('p1'), permissionMode: 'default' });
  user(id('meta1'), id('u1'), metaText, { isMeta: true });
  assistant(id('a1-think'), id('meta1'), 'msg_a1', { type: 'thinking', thinking: '', signature: 'sig' });
  assistant(id('a1-text'), id('a1-think'), 'msg_a1', { type: 'text', text: 'Let me run the **cart tests** first.' });
  assistant(id('a1-bash'), id('a1-text'), 'msg_a1', {
    type: 'tool_use',
    id: bashToolUseId,
    name: 'Bash',
    input: { command: bashCommand, description: 'Run the cart tests' },
  });
  user(id('r1'), id('a1-bash'), [{ tool_use_id: bashToolUseId, type: 'tool_result', content: bashOutput, is_error: false }], {
    toolUseResult: { stdout: bashOutput, stderr: '', interrupted: false, isImage: false },
    sourceToolAssistantUUID: id('a1-bash'),
  });
  assistant(id('a2-agent'), id('r1'), 'msg_a2', {
    type: 'tool_use',
    id: agentToolUseId,
    name: 'Agent',
    input: { description: 'Find cart total code', subagent_type: 'Explore', prompt: subagentPrompt },
  });
  user(
    id('r2'),
    id('a2-agent'),
    [{ tool_use_id: agentToolUseId, type: 'tool_result', content: [{ type: 'text', text: subagentAnswer }] }],
    {
      toolUseResult: {
        status: 'completed',
        prompt: subagentPrompt,
        agentId,
        agentType: 'Explore',
        content: [{ type: 'text', text: subagentAnswer }],
        totalTokens: 900,
      },
      sourceToolAssistantUUID: id('a2-agent'),
    },
  );
  push({ type: unknownType, sessionId, payload: { note: 'a type this app has never seen' } });
  assistant(id('a3-edit'), id('r2'), 'msg_a3', {
    type: 'tool_use',
    id: editToolUseId,
    name: 'Edit',
    input: { file_path: `${project.cwd}/cart/total.ts`, old_string: 'return a + b;', new_string: 'return round(a + b);' },
  });
  user(id('r3'), id('a3-edit'), [{ tool_use_id: editToolUseId, type: 'tool_result', content: 'The file has been updated.' }], {
    toolUseResult: {
      filePath: `${project.cwd}/cart/total.ts`,
      oldString: 'return a + b;',
      newString: 'return round(a + b);',
      structuredPatch: [{ oldStart: 3, oldLines: 1, newStart: 3, newLines: 1, lines: ['-  return a + b;', '+  return round(a + b);'] }],
    },
  });
  assistant(id('a3-text'), id('r3'), 'msg_a3b', { type: 'text', text: 'Fixed the rounding in the cart total.' });
  push({ type: 'ai-title', sessionId, aiTitle: 'Tidy checkout and fix cart total' });
  // An edited prompt: the first attempt is abandoned, the retry continues (both children of the same answer).
  user(id('u-abandoned'), id('a3-text'), abandonedPrompt);
  user(id('u-retry'), id('a3-text'), [
    { type: 'text', text: retriedPrompt },
    { type: 'image', source: { type: 'base64', media_type: 'image/png', data: Buffer.alloc(3000, 7).toString('base64') } },
  ]);
  assistant(id('a4'), id('u-retry'), 'msg_a4', { type: 'text', text: 'Renamed the module to shopping-cart.' });
  push({
    parentUuid: null,
    logicalParentUuid: id('a4'),
    isSidechain: false,
    type: 'system',
    subtype: 'compact_boundary',
    content: 'Conversation compacted',
    isMeta: false,
    timestamp: tick(),
    uuid: id('boundary'),
    level: 'info',
    compactMetadata: { trigger: 'auto', preTokens: 171234, postTokens: 8123 },
    ...envelope(),
  });
  user(id('summary'), id('boundary'), compactSummary, { isCompactSummary: true, isVisibleInTranscriptOnly: true });
  user(id('u5'), id('summary'), afterCompactionPrompt);
  assistant(id('a5'), id('u5'), 'msg_a5', { type: 'text', text: 'Added the changelog entry.' });
  push({ type: 'ai-title', sessionId, aiTitle: 'Tidy checkout and fix cart total' });
  push({ type: 'last-prompt', sessionId, lastPrompt: afterCompactionPrompt, leafUuid: id('a5') });
  const path = await project.rawFile(`${sessionId}.jsonl`, `${lines.join('\n')}\n`);

  const subagentLines = [
    {
      parentUuid: null,
      isSidechain: true,
      agentId,
      type: 'user',
      message: { role: 'user', content: subagentPrompt },
      uuid: id('s1'),
      timestamp: tick(),
      ...envelope(),
    },
    {
      parentUuid: id('s1'),
      isSidechain: true,
      agentId,
      type: 'assistant',
      message: {
        model: 'claude-haiku-4-5',
        id: 'msg_s1',
        type: 'message',
        role: 'assistant',
        content: [{ type: 'text', text: subagentAnswer }],
      },
      uuid: id('s2'),
      timestamp: tick(),
      attributionAgent: 'Explore',
      ...envelope(),
    },
  ];
  const subagentPath = await project.rawFile(
    `${sessionId}/subagents/agent-${agentId}.jsonl`,
    `${subagentLines.map((line) => JSON.stringify(line)).join('\n')}\n`,
  );
  await project.rawFile(
    `${sessionId}/subagents/agent-${agentId}.meta.json`,
    JSON.stringify({ agentType: 'Explore', description: 'Find cart total code' }),
  );
  const sessionMemoryPath = await project.rawFile(
    `${sessionId}/session-memory/summary.md`,
    [
      '',
      '# Session Title',
      '_A short and distinctive 5-10 word descriptive title for the session. Super info dense, no filler_',
      '',
      'Tidy checkout and fix the cart total',
      '',
      '# Current State',
      '_What is actively being worked on right now? Pending tasks not yet completed. Immediate next steps._',
      '',
      '- Completed: rounding fix in cart/total.ts',
      '- Next Step: changelog',
      '',
      '# Worklog',
      '_Step by step, what was attempted, done? Very terse summary for each step_',
      '',
      '1. Ran the cart tests',
      '',
    ].join('\n'),
  );

  let tip = id('a5');
  const appendTurn = async (prompt: string, answer: string) => {
    const n = lines.length;
    const more = [
      JSON.stringify({
        parentUuid: tip,
        isSidechain: false,
        type: 'user',
        message: { role: 'user', content: prompt },
        uuid: id(`extra-u${n}`),
        timestamp: tick(),
        ...envelope(),
      }),
      JSON.stringify({
        parentUuid: id(`extra-u${n}`),
        isSidechain: false,
        type: 'assistant',
        message: { model: MODEL, id: `msg_extra${n}`, type: 'message', role: 'assistant', content: [{ type: 'text', text: answer }] },
        uuid: id(`extra-a${n}`),
        timestamp: tick(),
        ...envelope(),
      }),
    ];
    lines.push(...more);
    tip = id(`extra-a${n}`);
    await appendFile(path, `${more.join('\n')}\n`);
  };

  return {
    sessionId,
    path,
    subagentPath,
    agentId,
    agentToolUseId,
    bashToolUseId,
    title: 'Tidy checkout and fix cart total',
    cwd: project.cwd,
    firstPrompt,
    abandonedPrompt,
    retriedPrompt,
    afterCompactionPrompt,
    compactSummary,
    subagentPrompt,
    subagentAnswer,
    bashCommand,
    bashOutput,
    unknownType,
    metaText,
    sessionMemoryPath,
    liveBranchChainEntries: 17,
    abandonedUuid: id('u-abandoned'),
    preCompactionLastUuid: id('a4'),
    appendTurn,
  };
}
