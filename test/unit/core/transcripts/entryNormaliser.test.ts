import { describe, expect, it } from 'vitest';
import { normaliseLine, withResult } from '../../../../electron/core/transcripts/entryNormaliser';
import { indexLines } from '../../../fixtures/indexLines';

function normalise(record: Record<string, unknown> | string, maxTextChars = 1000) {
  const [line] = indexLines([record]);
  return normaliseLine(line, typeof record === 'string' ? record : JSON.stringify(record), { maxTextChars });
}

describe('normaliseLine', () => {
  it('keeps the envelope and turns a typed prompt with an image into blocks', () => {
    const entry = normalise({
      type: 'user',
      uuid: 'u',
      parentUuid: null,
      timestamp: '2026-05-05T21:07:03.429Z',
      message: {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'QUJD' } },
        ],
      },
    });
    expect(entry).toMatchObject({ line: 1, offset: 0, type: 'user', uuid: 'u', timestamp: '2026-05-05T21:07:03.429Z', isMeta: false });
    expect(entry.body).toEqual({
      kind: 'user',
      blocks: [
        { kind: 'text', text: 'look', omittedChars: 0 },
        { kind: 'image', image: { mediaType: 'image/png', bytes: 3 } },
      ],
    });
  });

  it('reads assistant chunks: empty and redacted thinking, usage, tool calls with a summary and an Edit diff from the input', () => {
    const thinking = normalise({
      type: 'assistant',
      message: {
        model: 'm',
        id: 'msg',
        content: [
          { type: 'thinking', thinking: '', signature: 's' },
          { type: 'redacted_thinking', data: 'x' },
        ],
        usage: { input_tokens: 3, output_tokens: 9, cache_creation_input_tokens: 1, cache_read_input_tokens: 2 },
      },
    });
    expect(thinking.body).toMatchObject({
      kind: 'assistant',
      model: 'm',
      messageId: 'msg',
      usage: { input: 3, output: 9, cacheCreation: 1, cacheRead: 2 },
      blocks: [
        { kind: 'thinking', text: '', redacted: false },
        { kind: 'thinking', text: '', redacted: true },
      ],
    });
    const edit = normalise({
      type: 'assistant',
      message: {
        content: [
          { type: 'tool_use', id: 't', name: 'Edit', input: { file_path: '/a.ts', old_string: 'one\ntwo\n', new_string: 'one\n2\n' } },
        ],
      },
    });
    const block = edit.body.kind === 'assistant' ? edit.body.blocks[0] : null;
    expect(block?.kind === 'tool-call' ? block.call : null).toMatchObject({
      id: 't',
      name: 'Edit',
      summary: '/a.ts',
      edit: { filePath: '/a.ts', hunks: [{ oldStart: 1, oldLines: 2, newStart: 1, newLines: 2, lines: [' one', '-two', '+2'] }] },
    });
  });

  it('pairs a Bash result and prefers the recorded patch of an Edit result', () => {
    const result = normalise({
      type: 'user',
      message: { content: [{ type: 'tool_result', tool_use_id: 't', content: 'updated', is_error: false }] },
      toolUseResult: {
        filePath: '/a.ts',
        structuredPatch: [{ oldStart: 9, oldLines: 1, newStart: 9, newLines: 1, lines: ['-x', '+y'] }],
        stdout: 'out',
        stderr: 'err',
        interrupted: true,
      },
    });
    const block = result.body.kind === 'user' ? result.body.blocks[0] : null;
    if (block?.kind !== 'tool-result') throw new Error('expected a tool result');
    expect(block.result).toMatchObject({
      toolUseId: 't',
      text: 'updated',
      bash: { stdout: 'out', stderr: 'err', interrupted: true },
      edit: { filePath: '/a.ts' },
    });
    const call = {
      id: 't',
      name: 'Edit',
      input: '{}',
      summary: '',
      bashCommand: null,
      edit: { filePath: '/a.ts', hunks: [] },
      result: null,
      subagent: null,
      hooks: [],
    };
    expect(withResult(call, block.result).edit?.hunks[0].oldStart).toBe(9);
  });

  it('recognises compactions, system, attachment, progress, metadata and legacy summary lines', () => {
    expect(
      normalise({
        type: 'system',
        subtype: 'compact_boundary',
        logicalParentUuid: 'p',
        compactMetadata: { trigger: 'auto', preTokens: 173429, postTokens: 7850 },
      }).body,
    ).toEqual({
      kind: 'compact-boundary',
      trigger: 'auto',
      preTokens: 173429,
      postTokens: 7850,
      logicalParentUuid: 'p',
    });
    expect(normalise({ type: 'user', isCompactSummary: true, message: { content: 'This session is being continued' } }).body).toEqual({
      kind: 'compact-summary',
      text: 'This session is being continued',
      omittedChars: 0,
    });
    expect(normalise({ type: 'system', subtype: 'turn_duration', durationMs: 4200 }).body).toMatchObject({
      kind: 'system',
      text: 'Turn took 4.2 s',
    });
    expect(normalise({ type: 'attachment', attachment: { type: 'file', displayPath: 'src/a.ts' } }).body).toEqual({
      kind: 'attachment',
      attachmentType: 'file',
      text: 'src/a.ts',
      hook: null,
    });
    expect(normalise({ type: 'progress', data: { type: 'hook_progress', agentId: null } }).body).toMatchObject({
      kind: 'progress',
      dataType: 'hook_progress',
    });
    expect(normalise({ type: 'ai-title', sessionId: 's', aiTitle: 'Fix the cart' }).body).toEqual({
      kind: 'metadata',
      text: 'Fix the cart',
    });
    expect(normalise({ type: 'summary', summary: 'Old title', leafUuid: 'leaf' }).body).toEqual({
      kind: 'summary',
      summary: 'Old title',
      leafUuid: 'leaf',
    });
  });

  it('reads tool hook results, pull request links and 2.1.3xx request records (written in their real shape)', () => {
    const hook = normalise({
      parentUuid: 'call',
      isSidechain: false,
      attachment: {
        type: 'hook_non_blocking_error',
        hookName: 'PostToolUse:Write',
        toolUseID: 'toolu_w',
        hookEvent: 'PostToolUse',
        stderr: 'Failed with non-blocking status code: lint failed',
        stdout: '',
        exitCode: 1,
        command: 'npm run lint',
        durationMs: 2,
      },
      type: 'attachment',
      uuid: 'h',
      timestamp: '2026-11-26T11:42:13.719Z',
    }).body;
    expect(hook).toEqual({
      kind: 'attachment',
      attachmentType: 'hook_non_blocking_error',
      text: 'PostToolUse:Write: Failed with non-blocking status code: lint failed',
      hook: {
        event: 'PostToolUse',
        name: 'PostToolUse:Write',
        outcome: 'hook_non_blocking_error',
        command: 'npm run lint',
        exitCode: 1,
        text: 'Failed with non-blocking status code: lint failed',
        toolUseId: 'toolu_w',
        line: 1,
      },
    });
    expect(
      normalise({ type: 'pr-link', sessionId: 's', prNumber: 42, prUrl: 'https://example.com/o/r/pull/42', prRepository: 'o/r' }).body,
    ).toEqual({ kind: 'metadata', text: 'Pull request #42 https://example.com/o/r/pull/42' });
    expect(
      normalise({ type: 'api-request', sessionId: 's', id: 'x', querySource: 'sdk', params: { model: 'claude-opus-5-5' } }).body,
    ).toEqual({ kind: 'metadata', text: 'API request to claude-opus-5-5 (sdk)' });
    expect(
      normalise({ type: 'attachment', uuid: 'p', attachment: { type: 'prompt_snapshot', systemPrompt: ['x'], tools: [{}, {}] } }).body,
    ).toMatchObject({
      attachmentType: 'prompt_snapshot',
      text: 'Prompt snapshot: the system prompt and 2 tools as sent',
    });
  });

  it('keeps unknown types raw, cuts long text with a count, and marks unreadable lines', () => {
    const raw = '{"type":"brand-new","x":[1,2]}';
    expect(normalise(raw).body).toEqual({ kind: 'unknown', raw, omittedChars: 0 });
    expect(normalise({ type: 'user', message: { content: 'x'.repeat(50) } }, 10).body).toEqual({
      kind: 'user',
      blocks: [{ kind: 'text', text: 'x'.repeat(10), omittedChars: 40 }],
    });
    expect(normalise('{"type":"user",').body).toEqual({ kind: 'unreadable', reason: 'invalid-json' });
  });
});
