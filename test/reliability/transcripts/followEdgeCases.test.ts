import { appendFileSync, mkdtempSync, realpathSync, renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readJsonlLines } from '../../../electron/core/jsonl/fileLineReader';
import { TranscriptIndex } from '../../../electron/core/transcripts/TranscriptIndex';
import { recordFigure } from '../support/figureLog';

const sandbox = realpathSync(mkdtempSync(join(tmpdir(), 'ccmem-follow-edges-')));
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

const line = (seq: number, extra: Record<string, unknown> = {}): string =>
  `${JSON.stringify({ type: 'user', uuid: `u${seq}`, parentUuid: seq === 0 ? null : `u${seq - 1}`, message: { role: 'user', content: `prompt ${seq} ✓` }, ...extra })}\n`;

let fileCounter = 0;
function transcript(text: string | Buffer): string {
  const path = join(sandbox, `t${++fileCounter}.jsonl`);
  writeFileSync(path, text);
  return path;
}

async function followOnce(
  path: string,
  fromOffset: number,
  linesBefore = 0,
): Promise<{ lines: string[]; offset: number; lineCount: number; oversized: number[] }> {
  const lines: string[] = [];
  const oversized: number[] = [];
  const result = await readJsonlLines(path, {
    fromOffset,
    linesBefore,
    onLine: (bytes) => lines.push(bytes.toString('utf8')),
    onOversizedLine: (_lineNumber, bytes) => oversized.push(bytes),
  });
  return { lines, offset: result.offset, lineCount: result.lines, oversized };
}

describe('following a transcript through what happens to real ones', () => {
  it('holds a partial last line back and delivers it once, when it is complete', async () => {
    const path = transcript(`${line(0)}${line(1).slice(0, 25)}`);
    const first = await followOnce(path, 0);
    expect(first.lines).toHaveLength(1);
    appendFileSync(path, line(1).slice(25, 40));
    const middle = await followOnce(path, first.offset, first.lineCount);
    expect(middle.lines).toEqual([]);
    expect(middle.offset).toBe(first.offset);
    appendFileSync(path, `${line(1).slice(40)}${line(2)}`);
    const last = await followOnce(path, middle.offset, middle.lineCount);
    expect(last.lines.map((l) => JSON.parse(l).uuid)).toEqual(['u1', 'u2']);

    const index = new TranscriptIndex(transcript(`${line(0)}${line(1).slice(0, 30)}`));
    await index.update();
    expect(index.indexedBytes).toBe(Buffer.byteLength(line(0)));
    recordFigure('badInputs', { tried: 2 }, 'transcripts');
  });

  it('reports invalid UTF-8 and invalid JSON lines and goes on with the next ones', async () => {
    const broken = Buffer.concat([
      Buffer.from(line(0)),
      Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d, 0x0a]),
      Buffer.from('{"type":"user","message":{"content":"never closed"\n'),
      Buffer.from('\u0000\u0000binary\u0000\n'),
      Buffer.from(line(1)),
    ]);
    const index = new TranscriptIndex(transcript(broken));
    await index.update();
    const reasons = index.lines.map((l) => l.unreadable);
    expect(reasons).toEqual([null, 'invalid-utf8', 'invalid-json', expect.stringMatching(/binary|invalid-json/), null]);
    expect(index.lines.at(-1)?.uuid).toBe('u1');
    recordFigure('badInputs', { tried: 3 }, 'transcripts');
  });

  it('skips a 100 MB line without holding it, and reads on', async () => {
    const path = join(sandbox, 'huge.jsonl');
    const handle = await open(path, 'w');
    await handle.write(line(0));
    const hugeBytes = 100 * 1024 * 1024;
    const chunk = Buffer.alloc(4 * 1024 * 1024, 'x');
    await handle.write('{"type":"user","message":{"content":"');
    for (let written = 0; written < hugeBytes; written += chunk.length) await handle.write(chunk);
    await handle.write('"}}\n');
    await handle.write(line(1));
    await handle.close();

    const heapBefore = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
    const followed = await followOnce(path, 0);
    const heapAfter = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
    expect(followed.lines.map((l) => JSON.parse(l).uuid)).toEqual(['u0', 'u1']);
    expect(followed.oversized).toHaveLength(1);
    expect(followed.oversized[0]).toBeGreaterThan(hugeBytes);
    // Streaming in chunks: nothing near the line's size is ever held (the bound is generous, for the GC's timing).
    expect(heapAfter - heapBefore).toBeLessThan(48 * 1024 * 1024);

    const index = new TranscriptIndex(path);
    await index.update();
    expect(index.lines.map((l) => l.unreadable)).toEqual([null, 'too-long', null]);
    recordFigure('badInputs', { tried: 1 }, 'transcripts');
    recordFigure('faults', { injected: 1, survived: 1 }, '100 MB line');
  }, 60_000);

  it('notices a transcript truncated, truncated and regrown, replaced or deleted while followed', async () => {
    const outcomes: Record<string, boolean> = {};

    const truncated = transcript(`${line(0)}${line(1)}${line(2)}`);
    const a = new TranscriptIndex(truncated);
    await a.update();
    truncateSync(truncated, Buffer.byteLength(line(0)));
    outcomes['transcript truncated'] = (await a.update()) === 'rebuilt' && a.lines.length === 1;

    const regrown = transcript(`${line(0)}${line(1)}`);
    const b = new TranscriptIndex(regrown);
    await b.update();
    truncateSync(regrown, 0);
    appendFileSync(regrown, `${line(7, { regrown: true })}${line(8)}${line(9)}`);
    outcomes['transcript truncated and regrown'] = (await b.update()) === 'rebuilt' && b.lines[0]?.uuid === 'u7' && b.lines.length === 3;

    const replaced = transcript(`${line(0)}${line(1)}`);
    const c = new TranscriptIndex(replaced);
    await c.update();
    // Same size, other content, new file: only its identity tells it apart.
    writeFileSync(`${replaced}.new`, `${line(3)}${line(4)}`);
    renameSync(`${replaced}.new`, replaced);
    outcomes['transcript replaced'] = (await c.update()) === 'rebuilt' && c.lines[0]?.uuid === 'u3';

    const deleted = transcript(`${line(0)}`);
    const d = new TranscriptIndex(deleted);
    await d.update();
    rmSync(deleted);
    outcomes['transcript deleted'] = await d.update().then(
      () => false,
      (error: NodeJS.ErrnoException) => error.code === 'ENOENT',
    );

    for (const [kind, detected] of Object.entries(outcomes)) recordFigure('faults', { injected: 1, survived: detected ? 1 : 0 }, kind);
    recordFigure('badInputs', { tried: 4 }, 'transcripts');
    expect(outcomes).toEqual({
      'transcript truncated': true,
      'transcript truncated and regrown': true,
      'transcript replaced': true,
      'transcript deleted': true,
    });
  });
});
