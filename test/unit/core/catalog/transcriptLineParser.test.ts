import { describe, expect, it } from 'vitest';
import { parseTranscriptLine } from '../../../../electron/core/catalog/transcriptLineParser';
import { assistantChunk, toolResult, toolUse, userPrompt } from '../../../fixtures/transcriptLines';

const line = (text: string): Buffer => Buffer.from(text, 'utf8');

describe('parseTranscriptLine', () => {
  it('reads the catalog fields of a prompt', () => {
    expect(parseTranscriptLine(line(userPrompt('hello')))).toMatchObject({ type: 'user', message: { content: 'hello' } });
  });

  it('refuses bad lines: invalid UTF-8, NUL bytes, truncated JSON, arrays and scalars', () => {
    const valid = userPrompt('x'.repeat(5000));
    expect(parseTranscriptLine(Buffer.concat([line('{"type":"user","a":"'), Buffer.from([0xc3, 0x28]), line('"}')]))).toBeNull();
    expect(parseTranscriptLine(line(valid.replace('xxxx', 'x\u0000xx')))).toBeNull();
    // The scanner jumps over payloads without reading them: a NUL there still makes the line bad.
    expect(parseTranscriptLine(line(toolResult('toolu_1', 'output '.repeat(500)).replace('output', 'out\u0000ut')))).toBeNull();
    expect(parseTranscriptLine(line(valid.slice(0, -10)))).toBeNull();
    expect(parseTranscriptLine(line('[1,2]'))).toBeNull();
    expect(parseTranscriptLine(line('42'))).toBeNull();
    expect(parseTranscriptLine(line('{"type":"user"} {"type":"user"}'))).toBeNull();
    // A raw control character in a field the catalog reads is refused, as JSON.parse refuses it.
    expect(parseTranscriptLine(line('{"type":"user","cwd":"/work/a\tb"}'))).toBeNull();
    expect(parseTranscriptLine(line(`{"type":"user","cwd":"/work/${'a'.repeat(100)}\tb"}`))).toBeNull();
    expect(parseTranscriptLine(line(`{"type":"user","cwd":"/work/${'a'.repeat(100)}\\tb"}`))?.cwd).toBe(`/work/${'a'.repeat(100)}\tb`);
  });

  it('tolerates a CRLF line end', () => {
    expect(parseTranscriptLine(line(`${userPrompt('hi')}\r`))?.type).toBe('user');
  });

  it('keeps a tool result’s envelope and block ids, never its output', () => {
    const record = parseTranscriptLine(
      line(toolResult('toolu_1', 'output '.repeat(2000), { timestamp: '2026-05-02T00:00:00.000Z', cwd: 'C:\\work', uuid: 'u1' })),
    );
    expect(record).toEqual({
      parentUuid: null,
      isSidechain: false,
      uuid: 'u1',
      timestamp: '2026-05-02T00:00:00.000Z',
      cwd: 'C:\\work',
      sessionId: expect.any(String),
      version: '2.1.128',
      gitBranch: 'main',
      type: 'user',
      message: { content: [{ tool_use_id: 'toolu_1', type: 'tool_result' }] },
      toolUseResult: {},
    });
  });

  it('keeps only the envelope of 2.1.3xx request records (API requests, prompt shapes and snapshots)', () => {
    const shape = JSON.stringify({
      type: 'api-request-shape',
      sessionId: 's',
      shapeHash: 'h',
      timestamp: '2026-11-26T11:38:26.516Z',
      version: '2.1.328',
      shape: { system: [{ type: 'text', text: 'x'.repeat(40_000) }] },
    });
    expect(parseTranscriptLine(line(shape))).toEqual({
      type: 'api-request-shape',
      sessionId: 's',
      timestamp: '2026-11-26T11:38:26.516Z',
      version: '2.1.328',
    });
  });

  it('decodes non-ASCII values as UTF-8', () => {
    const cwd = '/work/projet-été 🛒/naïve';
    const record = parseTranscriptLine(line(toolResult('toolu_1', 'sortie é€ '.repeat(500), { cwd, gitBranch: 'fix/ünïcode' })));
    expect(record).toMatchObject({ cwd, gitBranch: 'fix/ünïcode', type: 'user' });
  });

  it('keeps the sub-agent a Task/Agent result names', () => {
    const result = { status: 'completed', agentId: 'a1', agentType: 'Explore', totalToolUseCount: 3, content: [] };
    const record = parseTranscriptLine(line(toolResult('toolu_1', 'report '.repeat(2000), { toolUseResult: result })));
    expect(record?.toolUseResult).toEqual({ agentId: 'a1', agentType: 'Explore' });
  });

  it('keeps a tool call’s name and path and the usage, never the file content it writes', () => {
    const text = assistantChunk({
      messageId: 'msg_1',
      usage: { output: 7 },
      block: toolUse('toolu_9', 'Write', { file_path: '/m/a.md', content: 'é'.repeat(20_000) }),
    });
    expect(parseTranscriptLine(line(text))?.message).toEqual({
      model: 'claude-sonnet-4-6',
      id: 'msg_1',
      content: [{ type: 'tool_use', id: 'toolu_9', name: 'Write', input: { file_path: '/m/a.md' } }],
      usage: { input_tokens: 0, output_tokens: 7, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
    });
  });
});
