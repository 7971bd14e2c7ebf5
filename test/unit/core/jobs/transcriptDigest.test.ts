import { mkdtempSync, realpathSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { digestChunks, renderEntry } from '../../../../electron/core/jobs/transcriptDigest';

const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'ccmem-digest-')));
afterAll(() => rm(tmp, { recursive: true, force: true }));

const user = (uuid: string, content: unknown, extra: Record<string, unknown> = {}) => ({
  type: 'user',
  uuid,
  message: { role: 'user', content },
  ...extra,
});
const assistant = (uuid: string, blocks: unknown[], extra: Record<string, unknown> = {}) => ({
  type: 'assistant',
  uuid,
  message: { role: 'assistant', model: 'claude-sonnet-4-6', content: blocks },
  ...extra,
});

async function collect(file: string, range = {}, chunkChars = 100_000): Promise<string[]> {
  const chunks: string[] = [];
  for await (const chunk of digestChunks([{ sessionId: 's1', file }], range, chunkChars, new AbortController().signal))
    chunks.push(chunk.text);
  return chunks;
}

describe('what an extraction pass reads of a transcript', () => {
  it('keeps prompts, answers and short tool notes, and leaves out meta, sidechain, synthetic and compaction lines', () => {
    expect(renderEntry(user('1', 'Use pnpm please'))).toEqual({ startsTurn: true, pieces: ['[user] Use pnpm please'] });
    expect(renderEntry(user('2', [{ type: 'tool_result', tool_use_id: 't', content: 'boom', is_error: true }]))).toEqual({
      startsTurn: false,
      pieces: ['[tool result, error] boom'],
    });
    expect(
      renderEntry(
        assistant('3', [
          { type: 'thinking', thinking: '' },
          { type: 'text', text: 'Done.' },
          { type: 'tool_use', name: 'Bash', input: { command: 'ls' } },
        ]),
      ),
    ).toEqual({
      startsTurn: false,
      pieces: ['[assistant] Done.', '[assistant used Bash] {"command":"ls"}'],
    });
    expect(renderEntry(user('4', 'caveat', { isMeta: true }))).toBeNull();
    expect(renderEntry(user('5', '<command-name>/clear</command-name>'))).toBeNull();
    expect(renderEntry(user('6', 'sub-agent prompt', { isSidechain: true }))).toBeNull();
    expect(renderEntry(user('7', 'This session is being continued…', { isCompactSummary: true }))).toBeNull();
    expect(renderEntry(assistant('8', [{ type: 'text', text: 'API Error' }], { isApiErrorMessage: true }))).toBeNull();
    expect(renderEntry({ type: 'assistant', message: { model: '<synthetic>', content: [{ type: 'text', text: 'x' }] } })).toBeNull();
    expect(renderEntry({ type: 'ai-title', aiTitle: 'x' })).toBeNull();
  });

  it('cuts a long message, reads a message repeated by a resumed session once, and skips broken lines', async () => {
    const file = join(tmp, 'a.jsonl');
    const lines = [
      user('u1', `${'x'.repeat(5000)}`),
      user('u1', 'duplicate of u1'),
      '{"type":"user","message":',
      assistant('a1', [{ type: 'text', text: 'ok' }]),
    ];
    await writeFile(file, `${lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n')}\n`);
    const [text] = await collect(file);
    expect(text).toContain('[… 1000 characters left out]');
    expect(text).not.toContain('duplicate of u1');
    expect(text).toContain('(line 4) [assistant] ok');
  });

  it('reads only the chosen turns and splits into chunks that repeat the session header', async () => {
    const file = join(tmp, 'b.jsonl');
    const lines = [1, 2, 3, 4].flatMap((n) => [user(`u${n}`, `prompt ${n}`), assistant(`a${n}`, [{ type: 'text', text: `answer ${n}` }])]);
    await writeFile(file, `${lines.map((l) => JSON.stringify(l)).join('\n')}`);
    expect((await collect(file, { fromTurn: 2, toTurn: 3 })).join('')).toBe(
      '=== Session s1 ===\n(line 3) [user] prompt 2\n(line 4) [assistant] answer 2\n(line 5) [user] prompt 3\n(line 6) [assistant] answer 3\n',
    );
    const chunks = await collect(file, {}, 60);
    expect(chunks.length).toBeGreaterThan(2);
    expect(chunks[0].startsWith('=== Session s1 ===\n')).toBe(true);
    expect(chunks[1].startsWith('=== Session s1 (continued) ===\n')).toBe(true);
    expect(chunks.join('')).toContain('[assistant] answer 4');
  });
});
