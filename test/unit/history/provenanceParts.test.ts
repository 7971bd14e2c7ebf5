import { describe, expect, it } from 'vitest';
import { EMPTY_CARRY, EvidenceScanner, type ScanContext } from '../../../electron/core/history/provenance/evidenceScanner';
import type { CallRecord, ResultRecord } from '../../../electron/core/history/provenance/memoryEvidence';
import { MemoryPathResolver } from '../../../electron/core/history/provenance/memoryPathResolver';
import { applyEdits, applyHunks } from '../../../electron/core/history/provenance/textEdits';
import type { TranscriptRef } from '../../../electron/core/history/provenance/transcriptFeed';

describe('replaying edits', () => {
  it('applies Edit and MultiEdit strings as Claude Code does, and says why one does not apply', () => {
    expect(applyEdits('a b a\n', [{ oldString: 'b', newString: 'c', replaceAll: false }])).toEqual({ ok: true, text: 'a c a\n' });
    expect(applyEdits('a b a\n', [{ oldString: 'a', newString: 'x', replaceAll: true }])).toEqual({ ok: true, text: 'x b x\n' });
    expect(applyEdits(null, [{ oldString: '', newString: 'new file\n', replaceAll: false }])).toEqual({ ok: true, text: 'new file\n' });
    expect(
      applyEdits('# T\n- one\n', [
        { oldString: '- one', newString: '- one\n- two', replaceAll: false },
        { oldString: '- two', newString: '- 2', replaceAll: false },
      ]),
    ).toEqual({ ok: true, text: '# T\n- one\n- 2\n' });
    expect(applyEdits('a a\n', [{ oldString: 'a', newString: 'b', replaceAll: false }])).toMatchObject({ ok: false, reason: /2 times/ });
    expect(applyEdits('abc\n', [{ oldString: 'x', newString: 'y', replaceAll: false }])).toMatchObject({
      ok: false,
      reason: /not in the version before it/,
    });
    // A `$` in the new text is text, not a replacement pattern.
    expect(applyEdits('cost\n', [{ oldString: 'cost', newString: 'cost $& $1', replaceAll: false }])).toEqual({
      ok: true,
      text: 'cost $& $1\n',
    });
  });

  it("applies a result's structuredPatch, frontmatter stamp included (Claude Code 2.1.328)", () => {
    const original =
      '---\nname: tea\nmetadata:\n  node_type: memory\n  type: feedback\n  modified: 2026-11-26T11:37:21.386Z\n---\n\nThe user likes green tea.\n\n**Why:** said so.\n';
    const hunks = [
      {
        oldStart: 4,
        oldLines: 7,
        newStart: 4,
        newLines: 7,
        lines: [
          '   node_type: memory',
          '   type: feedback',
          '-  modified: 2026-11-26T11:37:21.386Z',
          '+  modified: 2026-11-26T11:37:21.447Z',
          ' ---',
          ' ',
          '-The user likes green tea.',
          '+The user likes green tea, no sugar.',
          ' ',
        ],
      },
    ];
    expect(applyHunks(original, hunks)).toEqual({
      ok: true,
      text: original.replace('21.386Z', '21.447Z').replace('green tea.', 'green tea, no sugar.'),
    });
    expect(applyHunks('something else\n', hunks)).toMatchObject({ ok: false });
  });
});

describe('mapping transcript paths onto memory folders', () => {
  const resolver = new MemoryPathResolver([
    {
      memoryDir: '/home/me/.claude/projects/-home-me-app/memory',
      aliases: ['/data/me/.claude/projects/-home-me-app/memory'],
      configRoot: '/home/me/.claude',
    },
    { memoryDir: '/home/me/.claude/agent-memory/reviewer', aliases: [], configRoot: '/home/me/.claude' },
    { memoryDir: '/home/me/notes', aliases: [], configRoot: null },
  ]);

  it('takes the folder as configured, its real path, a Windows path of the same slug, and relative paths', () => {
    expect(resolver.resolve('/home/me/.claude/projects/-home-me-app/memory/team/a.md', null)).toEqual({
      memoryDir: '/home/me/.claude/projects/-home-me-app/memory',
      path: 'team/a.md',
    });
    expect(resolver.resolve('/data/me/.claude/projects/-home-me-app/memory/a.md', null)?.path).toBe('a.md');
    expect(resolver.resolve('C:\\Users\\me\\.claude\\projects\\-home-me-app\\memory\\b.md', null)?.path).toBe('b.md');
    expect(resolver.resolve('notes/c.md', '/home/me')).toEqual({ memoryDir: '/home/me/notes', path: 'c.md' });
    expect(resolver.resolve('/elsewhere/.claude/agent-memory/reviewer/MEMORY.md', null)?.memoryDir).toBe(
      '/home/me/.claude/agent-memory/reviewer',
    );
  });

  it('refuses what is no memory file: other files, other folders, climbing out', () => {
    expect(resolver.resolve('/home/me/.claude/projects/-home-me-app/memory/a.txt', null)).toBeNull();
    expect(resolver.resolve('/home/me/.claude/projects/-home-me-app/memory/../x.md', null)).toBeNull();
    expect(resolver.resolve('/home/me/.claude/projects/-other/memory/a.md', null)).toBeNull();
    expect(resolver.resolve('relative.md', null)).toBeNull();
    // Shaped like memory of a folder not known yet: kept as evidence all the same.
    expect(resolver.looksLikeMemory('/home/me/.claude/projects/-other/memory/a.md', null)).toBe(true);
    expect(resolver.looksLikeMemory('/home/me/src/memory.ts', null)).toBe(false);
  });
});

describe('reading transcripts for memory evidence', () => {
  const ref: TranscriptRef = { path: '/t/s.jsonl', configRoot: '/c', slug: 'x', sessionId: 's-1', agentId: null, size: 0, mtimeMs: 0 };
  const memory = '/c/projects/x/memory';
  const context: ScanContext = {
    isMemoryPath: (path) => path.startsWith(memory) && path.endsWith('.md'),
    extraNeedles: [],
    parentTurnAt: () => null,
    onPrompt: () => undefined,
  };
  const line = (value: unknown) => Buffer.from(JSON.stringify(value));
  const prompt = (uuid: string, time: string, text: string) =>
    line({ type: 'user', uuid, timestamp: time, message: { role: 'user', content: text }, isSidechain: false });
  const call = (id: string, file: string, time: string) =>
    line({
      type: 'assistant',
      uuid: `a-${id}`,
      timestamp: time,
      message: { content: [{ type: 'tool_use', id, name: 'Write', input: { file_path: file, content: 'x\n' } }] },
    });
  const result = (id: string, time: string, content: string) =>
    line({
      type: 'user',
      uuid: `r-${id}`,
      timestamp: time,
      message: { content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }] },
      toolUseResult: { type: 'create', content },
    });

  it('keeps calls on memory files with their results, across reads, in the turn they belong to', () => {
    const first = new EvidenceScanner(ref, EMPTY_CARRY, context);
    first.line(prompt('p-1', '2026-01-01T00:00:00.000Z', 'Remember this'), 1);
    first.line(call('toolu_1', `${memory}/a.md`, '2026-01-01T00:00:01.000Z'), 2);
    first.line(call('toolu_2', '/c/src/code.ts', '2026-01-01T00:00:02.000Z'), 3);
    expect(first.records.map((r) => [r.kind, (r as CallRecord).toolUseId, r.turnUuid])).toEqual([['call', 'toolu_1', 'p-1']]);
    // The result comes in bytes appended later: the call is still waiting for it.
    const second = new EvidenceScanner(ref, first.carry(), context);
    second.line(result('toolu_2', '2026-01-01T00:00:03.000Z', 'code'), 4);
    second.line(result('toolu_1', '2026-01-01T00:00:04.000Z', 'x stamped\n'), 5);
    expect(second.records).toEqual([
      expect.objectContaining({ kind: 'result', toolUseId: 'toolu_1', ok: true, content: 'x stamped\n', turnUuid: 'p-1', line: 5 }),
    ]);
    expect(second.carry().pending).toEqual([]);
  });

  it('reads the turn of a prompt too long to parse from its envelope', () => {
    const scanner = new EvidenceScanner(ref, EMPTY_CARRY, context);
    scanner.line(prompt('p-big', '2026-01-01T00:00:00.000Z', 'x'.repeat(400 * 1024)), 1);
    scanner.line(call('toolu_9', `${memory}/b.md`, '2026-01-01T00:00:01.000Z'), 2);
    expect((scanner.records[0] as CallRecord).turnUuid).toBe('p-big');
  });

  it('starts no turn at a long line that is no typed prompt, whatever its nested objects or long texts hold', () => {
    const scanner = new EvidenceScanner(ref, EMPTY_CARRY, context);
    const long = 'x'.repeat(400 * 1024);
    scanner.line(prompt('p-1', '2026-01-01T00:00:00.000Z', 'Remember this'), 1);
    // A meta line whose flag sits in the middle of the line, past any head or tail a byte search would look at.
    scanner.line(
      line({ type: 'user', uuid: 'meta', timestamp: '2026-01-01T00:00:01.000Z', message: { content: long }, isMeta: true, cwd: long }),
      2,
    );
    // An assistant line whose tool input holds an object typed "user".
    const input = { messages: [{ type: 'user', uuid: 'nested', timestamp: '2026-01-01T00:00:02.000Z' }], text: long };
    scanner.line(
      line({
        type: 'assistant',
        uuid: 'a-x',
        timestamp: '2026-01-01T00:00:02.000Z',
        message: { content: [{ type: 'tool_use', id: 't', name: 'Task', input }] },
      }),
      3,
    );
    scanner.line(call('toolu_9', `${memory}/b.md`, '2026-01-01T00:00:03.000Z'), 4);
    expect((scanner.records[0] as CallRecord).turnUuid).toBe('p-1');
  });

  it('records a refused call as failed, with none of its text', () => {
    const scanner = new EvidenceScanner(ref, EMPTY_CARRY, context);
    scanner.line(call('toolu_e', `${memory}/c.md`, '2026-01-01T00:00:01.000Z'), 1);
    scanner.line(
      line({
        type: 'user',
        timestamp: '2026-01-01T00:00:02.000Z',
        message: { content: [{ type: 'tool_result', tool_use_id: 'toolu_e', is_error: true, content: 'nope' }] },
        toolUseResult: 'Error: String to replace not found in file.',
      }),
      2,
    );
    expect(scanner.records[1]).toMatchObject({ kind: 'result', ok: false, content: null } satisfies Partial<ResultRecord>);
  });
});
