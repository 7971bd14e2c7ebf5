import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../electron/cli/main';
import { TranscriptService } from '../../../electron/core/transcripts/TranscriptService';
import { LIVE_VIEW } from '../../../shared/transcript/transcriptOutline';
import { createScenarioHome, type ScenarioHome } from '../../fixtures/scenarioHome';
import { seededUuid } from '../../fixtures/sessionLines';
import { createTestHomeService } from '../../fixtures/testEngine';

const sessionId = seededUuid('usage-session');
const uuid = (name: string) => seededUuid(`usage-${name}`);

function usage(input: number, output: number, cacheCreation = 0, cacheRead = 0) {
  return { input_tokens: input, output_tokens: output, cache_creation_input_tokens: cacheCreation, cache_read_input_tokens: cacheRead };
}

let second = 0;
const envelope = () => ({
  sessionId,
  cwd: '/work/usage',
  version: '2.1.128',
  timestamp: `2026-05-05T10:00:${String(second++).padStart(2, '0')}.000Z`,
});
const user = (name: string, parent: string | null, text: string) => ({
  type: 'user',
  uuid: uuid(name),
  parentUuid: parent === null ? null : uuid(parent),
  isSidechain: false,
  message: { role: 'user', content: text },
  ...envelope(),
});
const assistant = (name: string, parent: string, messageId: string, model: string, tokens: ReturnType<typeof usage>, extra = {}) => ({
  type: 'assistant',
  uuid: uuid(name),
  parentUuid: uuid(parent),
  isSidechain: false,
  message: { id: messageId, model, role: 'assistant', type: 'message', content: [{ type: 'text', text: name }], usage: tokens },
  ...envelope(),
  ...extra,
});

describe('the token usage of a transcript, turn by turn', () => {
  let home: ScenarioHome;
  let service: TranscriptService;
  let ref: { configRoot: string; slug: string; sessionId: string };

  beforeAll(async () => {
    home = await createScenarioHome({ prefix: 'ccmem-usage-' });
    const project = home.project('/work/usage');
    const lines = [
      user('u1', null, 'first prompt'),
      // One response streamed as two chunks: the early chunk carries a partial output count.
      assistant('a1-part', 'u1', 'msg_1', 'claude-sonnet-4-6', usage(10, 3, 2000, 0)),
      assistant('a1-rest', 'a1-part', 'msg_1', 'claude-sonnet-4-6', usage(10, 180, 2000, 0)),
      // A prompt edited right away: this first attempt is abandoned, so it is not on the live branch.
      user('u-old', 'a1-rest', 'abandoned prompt'),
      assistant('a-old', 'u-old', 'msg_old', 'claude-opus-4-6', usage(1, 999, 0, 0)),
      user('u2', 'a1-rest', 'second prompt'),
      assistant('a2', 'u2', 'msg_2', 'claude-opus-4-6', usage(4, 90, 100, 2000)),
      // Made up by Claude Code itself, and an API error: neither is a real response.
      assistant('synthetic', 'a2', 'msg_3', '<synthetic>', usage(0, 0)),
      assistant('error', 'synthetic', 'msg_4', 'claude-opus-4-6', usage(0, 0), { isApiErrorMessage: true }),
      user('u3', 'error', 'third prompt'),
      assistant('a3', 'u3', 'msg_5', 'claude-opus-4-6', usage(5, 40, 300, 2100)),
    ];
    await project.rawFile(`${sessionId}.jsonl`, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
    service = new TranscriptService(createTestHomeService(home, { readOnly: true }), null);
    ref = { configRoot: home.root, slug: project.slug, sessionId };
  });

  afterAll(async () => {
    service.dispose();
    await home.cleanup();
  });

  it('lists one turn per response on the shown branch, the chunk with the most output winning, at the row of its first chunk', async () => {
    const outline = await service.outline(ref, LIVE_VIEW);
    const page = await service.page(ref, LIVE_VIEW, 0, outline.rowCount);
    const rowOfLine = new Map(page.rows.map((row) => [row.entry.line, row.row]));
    const { turns } = await service.usage(ref, LIVE_VIEW);
    expect(turns.map((turn) => [turn.line, turn.model, turn.usage])).toEqual([
      [2, 'claude-sonnet-4-6', { input: 10, output: 180, cacheCreation: 2000, cacheRead: 0 }],
      [7, 'claude-opus-4-6', { input: 4, output: 90, cacheCreation: 100, cacheRead: 2000 }],
      [11, 'claude-opus-4-6', { input: 5, output: 40, cacheCreation: 300, cacheRead: 2100 }],
    ]);
    for (const turn of turns) expect(turn.row).toBe(rowOfLine.get(turn.line));
    expect(turns[0].timestamp).toBe('2026-05-05T10:00:01.000Z');
  });

  it('follows the branch the viewer shows', async () => {
    const { turns } = await service.usage(ref, { ...LIVE_VIEW, leafUuid: uuid('a-old') });
    expect(turns.map((turn) => turn.usage.output)).toEqual([180, 999]);
  });
  it('prints the same turns with their totals and cost as `ccmem transcript <id> --usage --json`', async () => {
    let stdout = '';
    const env = { HOME: home.tmp, CLAUDE_CONFIG_DIR: home.root, CCMEM_DATA_DIR: join(home.tmp, 'data') };
    const code = await runCli(['transcript', sessionId, '--usage', '--json'], {
      stdout: (t) => (stdout += t),
      stderr: () => undefined,
      env,
    });
    expect(code).toBe(0);
    const printed = JSON.parse(stdout) as Record<string, unknown>;
    expect(printed.turns).toEqual([
      {
        line: 2,
        timestamp: '2026-05-05T10:00:01.000Z',
        model: 'claude-sonnet-4-6',
        input: 10,
        output: 180,
        cacheCreation: 2000,
        cacheRead: 0,
      },
      {
        line: 7,
        timestamp: '2026-05-05T10:00:06.000Z',
        model: 'claude-opus-4-6',
        input: 4,
        output: 90,
        cacheCreation: 100,
        cacheRead: 2000,
      },
      {
        line: 11,
        timestamp: '2026-05-05T10:00:10.000Z',
        model: 'claude-opus-4-6',
        input: 5,
        output: 40,
        cacheCreation: 300,
        cacheRead: 2100,
      },
    ]);
    expect(printed.tokens).toEqual({ input: 19, output: 310, cacheCreation: 2400, cacheRead: 4100 });
    expect(printed.peakContext).toBe(2405);
    // Sonnet at $3/$15 (cache write $3.75, read $0.30), Opus 4.6 at $5/$25 (cache write $6.25, read $0.50), per million.
    const expected = (10 * 3 + 180 * 15 + 2000 * 3.75 + 9 * 5 + 130 * 25 + 400 * 6.25 + 4100 * 0.5) / 1_000_000;
    expect(printed.costUsd).toBeCloseTo(expected, 12);
    expect(printed.pricesAsOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});
