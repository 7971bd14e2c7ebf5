import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanEnvelope } from '../../../../electron/core/transcripts/envelopeScanner';

const scan = (value: unknown | string) => scanEnvelope(Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)), 7, 100);

describe('scanEnvelope', () => {
  it('reads the envelope of an assistant chunk, with its tool calls', () => {
    const line = scan({
      parentUuid: 'p-1',
      isSidechain: false,
      message: {
        id: 'msg_1',
        content: [
          { type: 'tool_use', id: 'toolu_a', name: 'Bash', input: { command: 'echo "}{][" \\ done' } },
          { type: 'tool_use', id: 'toolu_b', name: 'Agent', input: {} },
        ],
      },
      type: 'assistant',
      uuid: 'u-1',
      timestamp: '2026-05-05T21:07:07.620Z',
      agentId: 'a7c91f4',
    });
    expect(line).toMatchObject({
      line: 7,
      offset: 100,
      type: 'assistant',
      uuid: 'u-1',
      parentUuid: 'p-1',
      timestamp: '2026-05-05T21:07:07.620Z',
      messageId: 'msg_1',
      agentId: 'a7c91f4',
      isSidechain: false,
      toolUses: [
        { id: 'toolu_a', name: 'Bash' },
        { id: 'toolu_b', name: 'Agent' },
      ],
      unreadable: null,
    });
  });

  it('reads tool results, their agent id and whether the line has content of its own', () => {
    const results = scan({
      type: 'user',
      uuid: 'u',
      parentUuid: 'p',
      message: { content: [{ tool_use_id: 'toolu_a', type: 'tool_result', content: 'x'.repeat(10_000) }] },
      toolUseResult: { status: 'completed', agentId: 'a38ec468816fd17e1', content: [{ type: 'text', text: 'agentId inside' }] },
    });
    expect(results).toMatchObject({ toolResultIds: ['toolu_a'], hasOwnContent: false, resultAgentId: 'a38ec468816fd17e1' });
    expect(scan({ type: 'user', uuid: 'u', message: { content: 'typed' } }).hasOwnContent).toBe(true);
    expect(
      scan({
        type: 'user',
        uuid: 'u',
        message: {
          content: [
            { type: 'tool_result', tool_use_id: 't' },
            { type: 'text', text: 'hi' },
          ],
        },
      }).hasOwnContent,
    ).toBe(true);
  });

  it('reads compaction and progress facts', () => {
    expect(scan({ type: 'system', subtype: 'compact_boundary', parentUuid: null, logicalParentUuid: 'before', uuid: 'b' })).toMatchObject({
      subtype: 'compact_boundary',
      parentUuid: null,
      logicalParentUuid: 'before',
    });
    expect(
      scan({
        type: 'progress',
        uuid: 'g',
        parentUuid: 'x',
        data: { type: 'agent_progress', agentId: 'a1', message: { uuid: 'nested', parentUuid: 'nested-parent' } },
        parentToolUseID: 'toolu_x',
      }),
    ).toMatchObject({ uuid: 'g', parentUuid: 'x', progressType: 'agent_progress', progressAgentId: 'a1', parentToolUseId: 'toolu_x' });
  });

  it('decodes escaped and non-ASCII values and ignores nested look-alikes of the top-level keys', () => {
    const line = scan({ uuid: 'naïve-\u00e9-"q"', data: { uuid: 'inner' }, toolUseResult: { file: { uuid: 'deep' } }, type: 'user' });
    expect(line.uuid).toBe('naïve-é-"q"');
  });

  it('marks lines it cannot read, by reason', () => {
    expect(scan('{"type":"user","message":{"role":"user","content":"broken line 0"').unreadable).toBe('invalid-json');
    expect(scan('{"type":"user"} trailing').unreadable).toBe('invalid-json');
    expect(scan('[1,2,3]').unreadable).toBe('invalid-json');
    expect(scan('{"type":"user","uuid":"a\\').unreadable).toBe('invalid-json');
    expect(scan('{"type":"us\u0000er"}').unreadable).toBe('binary');
    expect(scanEnvelope(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]), 1, 0).unreadable).toBe('invalid-utf8');
    expect(scan('  {"type":"user","uuid":"u"}  ').unreadable).toBeNull();
  });

  it('agrees with JSON.parse on the fields it reads, for any object shape and string content', () => {
    const text = fc.string({ unit: 'binary', maxLength: 40 });
    const nested = fc.jsonValue({ maxDepth: 1 });
    fc.assert(
      fc.property(
        fc.record(
          {
            type: fc.constantFrom('user', 'assistant', 'system', 'progress', 'x'),
            uuid: text,
            parentUuid: fc.option(text),
            timestamp: text,
            isSidechain: fc.boolean(),
            isMeta: fc.boolean(),
            noise: nested,
            message: fc.record({
              id: text,
              content: fc.array(
                fc.record({
                  type: fc.constantFrom('tool_use', 'tool_result', 'text'),
                  id: text,
                  name: text,
                  tool_use_id: text,
                  body: nested,
                }),
              ),
            }),
          },
          { requiredKeys: ['type'] },
        ),
        (record) => {
          const line = scan(record);
          expect(line.unreadable).toBeNull();
          expect(line.type).toBe(record.type);
          expect(line.uuid).toBe(record.uuid ?? null);
          expect(line.parentUuid).toBe(record.parentUuid ?? null);
          expect(line.timestamp).toBe(record.timestamp ?? null);
          expect(line.isSidechain).toBe(record.isSidechain === true);
          expect(line.isMeta).toBe(record.isMeta === true);
          expect(line.messageId).toBe(record.message?.id ?? null);
          const blocks = record.message?.content ?? [];
          if (record.type === 'assistant')
            expect(line.toolUses).toEqual(blocks.filter((b) => b.type === 'tool_use').map((b) => ({ id: b.id, name: b.name })));
          if (record.type === 'user')
            expect(line.toolResultIds).toEqual(blocks.filter((b) => b.type === 'tool_result').map((b) => b.tool_use_id));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('rejects every line cut short, wherever a partial write cut it', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { minKeys: 1 }), fc.nat(), (record, cut) => {
        const text = JSON.stringify(record);
        const prefix = text.slice(0, cut % text.length);
        expect(scan(prefix).unreadable).not.toBeNull();
      }),
      { numRuns: 300 },
    );
    expect(scan('{"type":tru}').unreadable).toBe('invalid-json');
    expect(scan('{"n":1.}').unreadable).toBe('invalid-json');
  });
});
