/**
 * The usage chart asks for a transcript's usage again whenever the session grows: the document keeps what each assistant
 * line reported, reads only lines it has not read, and forgets them all when the file is replaced.
 */
import { appendFile, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TranscriptDocument } from '../../../electron/core/transcripts/TranscriptDocument';
import { countingOpener } from '../../fixtures/countingOpener';
import { seededUuid } from '../../fixtures/sessionLines';

const sessionId = seededUuid('kept-usage');

/** A conversation of `turns` prompts and answers, each answer's output `outputBase + turn` tokens. */
function conversation(turns: number, outputBase: number, from = 0): string {
  const lines: string[] = [];
  for (let turn = from; turn < from + turns; turn++) {
    const envelope = {
      sessionId,
      cwd: '/work/usage',
      version: '2.1.328',
      timestamp: `2026-05-05T10:${String(turn).padStart(2, '0')}:00.000Z`,
    };
    const prompt = seededUuid(`prompt-${turn}`);
    lines.push(
      JSON.stringify({
        type: 'user',
        uuid: prompt,
        parentUuid: turn === 0 ? null : seededUuid(`answer-${turn - 1}`),
        isSidechain: false,
        message: { role: 'user', content: `prompt ${turn}` },
        ...envelope,
      }),
      JSON.stringify({
        type: 'assistant',
        uuid: seededUuid(`answer-${turn}`),
        parentUuid: prompt,
        isSidechain: false,
        message: {
          id: `msg_${turn}`,
          model: 'claude-opus-4-6',
          role: 'assistant',
          type: 'message',
          content: [{ type: 'text', text: `answer ${turn} ${'x'.repeat(2000)}` }],
          usage: { input_tokens: 10, output_tokens: outputBase + turn, cache_creation_input_tokens: 0, cache_read_input_tokens: 100 },
        },
        ...envelope,
      }),
    );
  }
  return `${lines.join('\n')}\n`;
}

async function freshUsage(path: string) {
  return (await TranscriptDocument.open(path)).turnUsage();
}

describe('a transcript’s usage, kept line by line', () => {
  let dir: string;
  let path: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'ccmem-kept-usage-'));
    path = join(dir, `${sessionId}.jsonl`);
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('reads no line twice, reads only the lines a grown file added, and starts over when the file is replaced', async () => {
    await writeFile(path, conversation(20, 100));
    const counting = countingOpener();
    const document = await TranscriptDocument.open(path, { opener: counting.opener });

    let before = counting.bytesRead();
    const first = await document.turnUsage();
    expect(first.map((turn) => turn.usage.output)).toEqual(Array.from({ length: 20 }, (_, turn) => 100 + turn));
    expect(counting.bytesRead() - before).toBeGreaterThan(20 * 2000);

    before = counting.bytesRead();
    expect(await document.turnUsage()).toEqual(first);
    expect(counting.bytesRead() - before).toBe(0);

    await appendFile(path, conversation(2, 100, 20));
    await document.refresh();
    before = counting.bytesRead();
    const grown = await document.turnUsage();
    const readForGrowth = counting.bytesRead() - before;
    expect(grown).toEqual(await freshUsage(path));
    expect(grown).toHaveLength(22);
    // The two new answers (each over 2,000 bytes), not the twenty read before.
    expect(readForGrowth).toBeGreaterThan(2 * 2000);
    expect(readForGrowth).toBeLessThan(4 * 2000);

    // Same lines, other numbers, put in its place as a copy is (a new file renamed over it): what was kept must not
    // answer for the new file.
    await writeFile(`${path}.new`, conversation(22, 500));
    await rename(`${path}.new`, path);
    await document.refresh();
    const replaced = await document.turnUsage();
    expect(replaced).toEqual(await freshUsage(path));
    expect(replaced[0].usage.output).toBe(500);
  });
});
