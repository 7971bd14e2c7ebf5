import { spawn } from 'node:child_process';
import { appendFile, open, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readLines } from '../../../electron/core/jsonl/sourceLineReader';
import { TranscriptIndex } from '../../../electron/core/transcripts/TranscriptIndex';
import { createScenarioHome, type ScenarioHome } from '../../fixtures/scenarioHome';

/** A tiny seeded PRNG (mulberry32) so the random chunking is the same on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Lines full of multi-byte characters, so chunk cuts land inside them. */
function recordLines(count: number): string[] {
  return Array.from({ length: count }, (_, i) =>
    JSON.stringify({
      type: 'user',
      uuid: `uuid-${i}`,
      parentUuid: i === 0 ? null : `uuid-${i - 1}`,
      message: { role: 'user', content: `é日本語🙂 ${'ü'.repeat(i % 97)} #${i}` },
    }),
  );
}

function uuidsOf(index: TranscriptIndex): (string | null)[] {
  return index.lines.map((line) => line.uuid);
}

describe('TranscriptIndex', () => {
  let home: ScenarioHome;
  let path: string;

  beforeEach(async () => {
    home = await createScenarioHome({ prefix: 'ccmem-index-' });
    path = join(home.tmp, 'session.jsonl');
  });

  afterEach(async () => home.cleanup());

  it('sees every record exactly once while another process appends in random chunks that split lines and characters', async () => {
    const lines = recordLines(400);
    const bytes = Buffer.from(`${lines.join('\n')}\n`);
    const next = random(42);
    const cuts: number[] = [];
    for (let at = 0; at < bytes.length;) {
      at = Math.min(bytes.length, at + 1 + Math.floor(next() * 700));
      cuts.push(at);
    }
    await writeFile(path, '');
    await writeFile(join(home.tmp, 'payload.bin'), bytes);
    // The writer is another process, appending each chunk with its own pauses.
    const writer = spawn(
      process.execPath,
      [
        '-e',
        `const fs=require('fs');const data=fs.readFileSync(process.argv[1]);const cuts=JSON.parse(process.argv[3]);let from=0;let i=0;` +
          `const step=()=>{if(i>=cuts.length)return;fs.appendFileSync(process.argv[2],data.subarray(from,cuts[i]));from=cuts[i++];setTimeout(step,i%7);};step();`,
        join(home.tmp, 'payload.bin'),
        path,
        JSON.stringify(cuts),
      ],
      { stdio: 'ignore' },
    );
    const done = new Promise<void>((resolve) => writer.once('exit', () => resolve()));
    const index = new TranscriptIndex(path);
    let finished = false;
    void done.then(() => (finished = true));
    let updates = 0;
    let savedOffset = 0;
    let savedLineNumber = 1;
    let seenBeforeRestart: (string | null)[] = [];
    while (!finished) {
      await index.update();
      updates++;
      const seen = uuidsOf(index);
      // Never a record twice, never out of order: always a prefix of what was written.
      expect(seen).toEqual(lines.slice(0, seen.length).map((_, i) => `uuid-${i}`));
      if (updates === 20) {
        savedOffset = index.indexedBytes;
        savedLineNumber = index.lines.filter((line) => line.offset < savedOffset).length + 1;
        seenBeforeRestart = index.lines.filter((line) => line.offset < savedOffset).map((line) => line.uuid);
      }
      await new Promise((resolve) => setTimeout(resolve, 3));
    }
    await index.update();
    expect(uuidsOf(index)).toEqual(lines.map((_, i) => `uuid-${i}`));
    expect(index.lines.every((line) => line.unreadable === null)).toBe(true);
    expect(index.generation).toBe(1);

    // A reader restarted from the saved offset delivers exactly the rest.
    const handle = await open(path, 'r');
    const rest: (string | null)[] = [];
    const size = (await handle.stat()).size;
    await readLines(handle, { start: savedOffset, end: size, firstLineNumber: savedLineNumber }, (line) => {
      if (line) rest.push(JSON.parse(line.toString('utf8')).uuid);
    });
    await handle.close();
    expect([...seenBeforeRestart, ...rest]).toEqual(lines.map((_, i) => `uuid-${i}`));
  });

  it('reads only what was appended, not the lines it already has', async () => {
    const [, second, third] = recordLines(3);
    // A first line longer than the remembered head, so garbling the second one leaves the head alone.
    const first = JSON.stringify({ type: 'user', uuid: 'uuid-0', message: { content: 'p'.repeat(400) } });
    await writeFile(path, `${first}\n${second}\n`);
    const index = new TranscriptIndex(path);
    await index.update();
    // Garble the second line in place (same length, same head): a full re-read would notice.
    const handle = await open(path, 'r+');
    await handle.write(Buffer.from('#'.repeat(Buffer.byteLength(second))), 0, Buffer.byteLength(second), Buffer.byteLength(first) + 1);
    await handle.close();
    await appendFile(path, `${third}\n`);
    expect(await index.update()).toBe('appended');
    expect(index.lines.map((line) => [line.uuid, line.unreadable])).toEqual([
      ['uuid-0', null],
      ['uuid-1', null],
      ['uuid-2', null],
    ]);
  });

  it('reads a truncated or replaced file again from the start', async () => {
    const lines = recordLines(4);
    await writeFile(path, `${lines.join('\n')}\n`);
    const index = new TranscriptIndex(path);
    await index.update();
    await writeFile(path, `${lines[0]}\n`);
    expect(await index.update()).toBe('rebuilt');
    expect(index.generation).toBe(2);
    expect(uuidsOf(index)).toEqual(['uuid-0']);

    const replacement = join(home.tmp, 'replacement.jsonl');
    await writeFile(replacement, `${recordLines(2).reverse().join('\n')}\n`);
    await rename(replacement, path);
    expect(await index.update()).toBe('rebuilt');
    expect(uuidsOf(index)).toEqual(['uuid-1', 'uuid-0']);
  });

  it('holds back a half-written last line, shows a complete one without its newline, and counts CRLF and empty lines', async () => {
    const [first, second] = recordLines(2);
    await writeFile(path, `${first}\r\n\n${second.slice(0, 20)}`);
    const index = new TranscriptIndex(path);
    await index.update();
    expect(index.lines.map((line) => [line.line, line.uuid])).toEqual([[1, 'uuid-0']]);
    await appendFile(path, second.slice(20));
    await index.update();
    expect(index.lines.map((line) => [line.line, line.uuid])).toEqual([
      [1, 'uuid-0'],
      [3, 'uuid-1'],
    ]);
    await appendFile(path, '\n');
    await index.update();
    expect(index.indexedBytes).toBe(Buffer.byteLength(`${first}\r\n\n${second}\n`));
    expect(index.lineAt(3)?.uuid).toBe('uuid-1');
  });

  it('skips and counts a line longer than the limit without holding it, and keeps every line after it', async () => {
    const [first, , third] = recordLines(3);
    const huge = JSON.stringify({ type: 'user', uuid: 'huge', message: { content: 'x'.repeat(3 * 1024 * 1024) } });
    await writeFile(path, `${first}\n${huge}\n${third}\n{"type":"user","uuid":"bad\u0000"}\n${'{"type":"user"'}\n`);
    const index = new TranscriptIndex(path, 1024 * 1024);
    await index.update();
    expect(index.lines.map((line) => [line.uuid, line.unreadable])).toEqual([
      ['uuid-0', null],
      [null, 'too-long'],
      ['uuid-2', null],
      [null, 'binary'],
      [null, 'invalid-json'],
    ]);
    expect(index.lines[1].length).toBe(Buffer.byteLength(huge));
  });

  it('splits lines correctly across read chunks, including a line several chunks long', async () => {
    const long = JSON.stringify({
      type: 'assistant',
      uuid: 'long',
      message: { id: 'm', content: [{ type: 'text', text: 'é'.repeat(1_500_000) }] },
    });
    // Several chunks of short lines after it too: each chunk is read while the one before is being split.
    const lines = [...recordLines(3000), long, ...recordLines(25_000)];
    await writeFile(path, `${lines.join('\n')}\n`);
    const index = new TranscriptIndex(path);
    await index.update();
    expect(index.lines).toHaveLength(lines.length);
    expect(index.lines.every((line) => line.unreadable === null)).toBe(true);
    expect(index.lines[3000]).toMatchObject({ uuid: 'long', messageId: 'm' });
    expect(uuidsOf(index)).toEqual(lines.map((line) => (JSON.parse(line) as { uuid: string }).uuid));
    let offset = 0;
    const offsets = lines.map((line) => {
      const at = offset;
      offset += Buffer.byteLength(line) + 1;
      return at;
    });
    expect(index.lines.map((line) => line.offset)).toEqual(offsets);
  });

  it('stops at a deadline and goes on from there', async () => {
    await writeFile(path, `${recordLines(12_000).join('\n')}\n`);
    const index = new TranscriptIndex(path);
    await index.update(performance.now() - 1);
    expect(index.complete).toBe(false);
    const partial = index.lines.length;
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(12_000);
    await index.update();
    expect(index.complete).toBe(true);
    expect(uuidsOf(index)).toEqual(Array.from({ length: 12_000 }, (_, i) => `uuid-${i}`));
  });
});
