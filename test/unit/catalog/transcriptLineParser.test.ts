import { describe, expect, it } from 'vitest';
import { readEnvelope, readTopLevelFields } from '../../../electron/core/catalog/topLevelFields';
import { jsonSkeleton, parseTranscriptLine, SKELETON_STRING_BYTES } from '../../../electron/core/catalog/transcriptLineParser';
import { assistantChunk, toolResult, toolUse, userPrompt } from './transcriptLines';

const line = (text: string): Buffer => Buffer.from(text, 'utf8');

describe('parseTranscriptLine', () => {
  it('parses a small line whole', () => {
    const parsed = parseTranscriptLine(line(userPrompt('hello')));
    expect(parsed?.complete).toBe(true);
    expect(parsed?.record).toMatchObject({ type: 'user', message: { content: 'hello' } });
  });

  it('refuses bad lines: invalid UTF-8, NUL bytes, truncated JSON, arrays and scalars', () => {
    const valid = userPrompt('x'.repeat(5000));
    expect(parseTranscriptLine(Buffer.concat([line('{"type":"user","a":"'), Buffer.from([0xc3, 0x28]), line('"}')]))).toBeNull();
    expect(parseTranscriptLine(line(valid.replace('xxxx', 'x\u0000xx')))).toBeNull();
    // The shortcuts jump over payloads without reading them: a NUL there still makes the line bad.
    expect(parseTranscriptLine(line(toolResult('toolu_1', 'output '.repeat(500)).replace('output', 'out\u0000ut')))).toBeNull();
    expect(parseTranscriptLine(line(userPrompt('x'.repeat(20_000)).replace('xxxx', 'x\u0000xx')))).toBeNull();
    expect(parseTranscriptLine(line(valid.slice(0, -10)))).toBeNull();
    expect(parseTranscriptLine(line('[1,2]'))).toBeNull();
    expect(parseTranscriptLine(line('42'))).toBeNull();
  });

  it('tolerates a CRLF line end', () => {
    expect(parseTranscriptLine(line(`${userPrompt('hi')}\r`))?.record.type).toBe('user');
  });

  it('reads a long tool result for its envelope only', () => {
    const parsed = parseTranscriptLine(
      line(toolResult('toolu_1', 'output '.repeat(2000), { timestamp: '2026-05-02T00:00:00.000Z', cwd: 'C:\\work' })),
    );
    expect(parsed?.complete).toBe(false);
    expect(parsed?.record).toEqual({
      parentUuid: null,
      isSidechain: false,
      uuid: expect.any(String),
      timestamp: '2026-05-02T00:00:00.000Z',
      cwd: 'C:\\work',
      sessionId: expect.any(String),
      version: '2.1.128',
      gitBranch: 'main',
      type: 'user',
    });
  });

  it('reads 2.1.3xx request records (API requests, prompt shapes and snapshots) for their envelope only', () => {
    const shape = JSON.stringify({
      type: 'api-request-shape',
      sessionId: 's',
      shapeHash: 'h',
      timestamp: '2026-11-26T11:38:26.516Z',
      version: '2.1.328',
      shape: { system: [{ type: 'text', text: 'x'.repeat(40_000) }] },
    });
    expect(parseTranscriptLine(line(shape))).toEqual({
      complete: false,
      record: { type: 'api-request-shape', sessionId: 's', timestamp: '2026-11-26T11:38:26.516Z', version: '2.1.328' },
    });
    const snapshot = JSON.stringify({
      parentUuid: 'p',
      isSidechain: false,
      attachment: { type: 'prompt_snapshot', systemPrompt: ['y'.repeat(50_000)], tools: [{ name: 'Agent' }] },
      type: 'attachment',
      uuid: 'u',
      timestamp: '2026-11-26T11:38:26.530Z',
    });
    expect(parseTranscriptLine(line(snapshot))).toMatchObject({ complete: false, record: { type: 'attachment', uuid: 'u' } });
  });

  it('decodes the envelope values of a non-ASCII tool result as UTF-8', () => {
    const cwd = '/work/projet-été 🛒/naïve';
    const parsed = parseTranscriptLine(line(toolResult('toolu_1', 'sortie é€ '.repeat(500), { cwd, gitBranch: 'fix/ünïcode' })));
    expect(parsed?.complete).toBe(false);
    expect(parsed?.record).toMatchObject({ cwd, gitBranch: 'fix/ünïcode', type: 'user' });
  });

  it('parses a long Task/Agent result whole, since it names the sub-agent', () => {
    const result = { status: 'completed', agentId: 'a1', agentType: 'Explore', totalToolUseCount: 3, content: [] };
    const parsed = parseTranscriptLine(line(toolResult('toolu_1', 'report '.repeat(2000), { toolUseResult: result })));
    expect(parsed?.complete).toBe(true);
    expect(parsed?.record.toolUseResult).toMatchObject({ agentId: 'a1', agentType: 'Explore' });
  });

  it('reads a tool result that only mentions the Agent result key in its output for its envelope only', () => {
    const output = `${'output '.repeat(2000)} "totalToolUseCount": 3`;
    expect(parseTranscriptLine(line(toolResult('toolu_1', output)))?.complete).toBe(false);
  });

  it('reads a long assistant line as a skeleton that keeps every field and cuts long strings', () => {
    const big = 'é'.repeat(20_000);
    const text = assistantChunk({
      messageId: 'msg_1',
      usage: { output: 7 },
      block: toolUse('toolu_9', 'Write', { file_path: '/m/a.md', content: big }),
    });
    const parsed = parseTranscriptLine(line(text));
    expect(parsed?.complete).toBe(true);
    const message = parsed?.record.message as {
      usage: { output_tokens: number };
      content: { input: { file_path: string; content: string } }[];
    };
    expect(message.usage.output_tokens).toBe(7);
    expect(message.content[0].input.file_path).toBe('/m/a.md');
    expect(Buffer.byteLength(message.content[0].input.content)).toBeLessThanOrEqual(SKELETON_STRING_BYTES);
    expect(big.startsWith(message.content[0].input.content)).toBe(true);
  });
});

describe('jsonSkeleton', () => {
  it('never cuts inside an escape or a UTF-8 character', () => {
    for (let pad = 0; pad < 8; pad++) {
      for (const filler of ['\\n', '\\u00e9', '\\\\', '\u20ac', '"']) {
        const value = 'a'.repeat(SKELETON_STRING_BYTES - pad) + filler.repeat(300);
        const source = JSON.stringify({ v: value, after: 1 });
        const skeleton = jsonSkeleton(line(source));
        expect(skeleton).not.toBeNull();
        const parsed = JSON.parse(skeleton!.toString('utf8')) as { v: string; after: number };
        expect(parsed.after).toBe(1);
        expect(value.startsWith(parsed.v)).toBe(true);
      }
    }
  });

  it('returns the line itself when no string is long, and null when a string never closes', () => {
    const short = line('{"a":"b","c":[1,2]}');
    expect(jsonSkeleton(short)).toBe(short);
    expect(jsonSkeleton(line('{"a":"unclosed'))).toBeNull();
  });
});

describe('readTopLevelFields', () => {
  it('takes only top-level keys, never the same keys nested deeper', () => {
    const source = JSON.stringify({
      type: 'user',
      message: { type: 'message', cwd: '/nested', timestamp: 'nested' },
      toolUseResult: { version: '9.9.9', sessionId: 'nested' },
      timestamp: '2026-05-01T00:00:00.000Z',
      cwd: '/top',
      isSidechain: true,
      parentUuid: null,
    });
    expect(readTopLevelFields(line(source))).toEqual({
      type: 'user',
      timestamp: '2026-05-01T00:00:00.000Z',
      cwd: '/top',
      isSidechain: true,
      parentUuid: null,
    });
  });

  it('notes a flag key at any depth, but not the same text inside a string', () => {
    const key = Buffer.from('totalToolUseCount');
    expect(readEnvelope(line(JSON.stringify({ a: { b: [{ totalToolUseCount: 1 }] } })), key)?.hasFlagKey).toBe(true);
    expect(readEnvelope(line(JSON.stringify({ totalToolUseCount: 1 })), key)?.hasFlagKey).toBe(true);
    expect(readEnvelope(line(JSON.stringify({ a: 'totalToolUseCount', b: '"totalToolUseCount": 2' })), key)?.hasFlagKey).toBe(false);
  });

  it('unescapes values with escapes and refuses a raw control character in a value', () => {
    expect(readTopLevelFields(line(JSON.stringify({ cwd: 'C:\\work\\"q"\u00e9', uuid: 'a' })))).toEqual({
      cwd: 'C:\\work\\"q"é',
      uuid: 'a',
    });
    expect(readTopLevelFields(line('{"cwd":"/work/a\tb","uuid":"a"}'))).toBeNull();
  });

  it('refuses what is not one well-formed object', () => {
    expect(readTopLevelFields(line('{"a":"b"'))).toBeNull();
    expect(readTopLevelFields(line('{"a":"b"} {"c":1}'))).toBeNull();
    expect(readTopLevelFields(line('["a"]'))).toBeNull();
    expect(readTopLevelFields(line('{"a":"b}'))).toBeNull();
  });
});
