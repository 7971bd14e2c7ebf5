/**
 * The catalog's reader under a live writer: another process appends a transcript in random chunks that
 * split lines and multi-byte characters, while the reader reads on from its saved offset, "restarting"
 * (a fresh call with only the saved offset and line count, read back from disk) after every read.
 * Every record must arrive exactly once, whole and in order.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readJsonlLines } from '../../../electron/core/jsonl/fileLineReader';
import { SessionCatalog } from '../../../electron/core/catalog/SessionCatalog';
import { assistantChunk, userPrompt } from '../../unit/catalog/transcriptLines';

const RECORDS = 1500;
const tmp = mkdtempSync(join(tmpdir(), 'ccmem-exactly-once-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Lines with non-ASCII text in every width (é, €, 中, 🧪), some of them long. */
function recordLines(): string[] {
  const lines: string[] = [];
  for (let i = 0; i < RECORDS; i++) {
    const text = `record ${i} é€中🧪 ${'ü🧪'.repeat(i % 7 === 0 ? 3000 : i % 13)}`;
    lines.push(
      i % 2 === 0
        ? userPrompt(text, { uuid: `u${i}`, timestamp: new Date(Date.UTC(2026, 4, 1, 0, 0, i)).toISOString() })
        : assistantChunk({ messageId: `msg_${i >> 2}`, usage: { input: 1, output: i }, uuid: `u${i}`, block: { type: 'text', text } }),
    );
  }
  return lines;
}

/** A child process that appends `source` to `target` in random 1 B – 8 KiB pieces with tiny pauses. */
const APPENDER = `
import { openSync, readFileSync, writeSync, closeSync } from 'node:fs';
const [source, target, seedText] = process.argv.slice(2);
const bytes = readFileSync(source);
let seed = Number(seedText);
const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
const fd = openSync(target, 'a');
let at = 0;
while (at < bytes.length) {
  const size = Math.min(bytes.length - at, 1 + Math.floor(random() ** 3 * 8192));
  writeSync(fd, bytes, at, size);
  at += size;
  if (random() < 0.2) await new Promise((resolve) => setTimeout(resolve, Math.floor(random() * 3)));
}
closeSync(fd);
`;

function runAppender(source: string, target: string, seed: number): Promise<number> {
  const script = join(tmp, 'appender.mjs');
  writeFileSync(script, APPENDER);
  const child = spawn(process.execPath, [script, source, target, String(seed)], { stdio: 'ignore' });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve(code ?? -1));
  });
}

describe('reading a transcript while another process appends to it', () => {
  it.each([1, 2])('delivers every record exactly once, across restarts from the saved offset (seed %i)', async (seed) => {
    const lines = recordLines();
    const source = join(tmp, `source-${seed}.jsonl`);
    const target = join(tmp, `target-${seed}.jsonl`);
    const saved = join(tmp, `saved-${seed}.json`);
    writeFileSync(source, `${lines.join('\n')}\n`);
    writeFileSync(target, '');
    writeFileSync(saved, JSON.stringify({ offset: 0, lines: 0 }));
    const delivered: string[] = [];
    let unparsable = 0;
    const readOnce = async (): Promise<void> => {
      const state = JSON.parse(readFileSync(saved, 'utf8')) as { offset: number; lines: number };
      const result = await readJsonlLines(target, {
        fromOffset: state.offset,
        linesBefore: state.lines,
        onLine: (line, lineNumber) => {
          try {
            const record = JSON.parse(line.toString('utf8')) as { uuid: string };
            expect(record.uuid).toBe(`u${lineNumber - 1}`);
            delivered.push(record.uuid);
          } catch {
            unparsable++;
          }
        },
      });
      writeFileSync(saved, JSON.stringify({ offset: result.offset, lines: result.lines }));
    };
    let finished = false;
    const writer = runAppender(source, target, seed).then((code) => {
      finished = true;
      return code;
    });
    let reads = 0;
    while (!finished) {
      await readOnce();
      reads++;
    }
    expect(await writer).toBe(0);
    await readOnce();
    expect(reads).toBeGreaterThan(3);
    expect(unparsable).toBe(0);
    expect(delivered).toEqual(lines.map((_, i) => `u${i}`));
    expect(JSON.parse(readFileSync(saved, 'utf8'))).toEqual({ offset: readFileSync(target).length, lines: RECORDS });
  });

  it('gives the same catalog entry when it follows the writer as when it reads the finished file once', async () => {
    const lines = recordLines();
    const root = join(tmp, 'claude');
    const slug = '-work-app';
    const sessionId = '5e55a0e1-0000-4000-8000-000000000001';
    mkdirSync(join(root, 'projects', slug), { recursive: true });
    const source = join(tmp, 'catalog-source.jsonl');
    const target = join(root, 'projects', slug, `${sessionId}.jsonl`);
    writeFileSync(source, `${lines.join('\n')}\n`);
    writeFileSync(target, `${lines[0]}\n`);
    const following = new SessionCatalog({ dataDir: join(tmp, 'data-following'), roots: [root] });
    await following.build();
    let finished = false;
    const writer = runAppender(source, target, 3).then(() => (finished = true));
    while (!finished) {
      await following.refreshSessions([{ configRoot: root, slug, sessionId }]);
      // A refresh of a small file finishes without giving the event loop a turn; the writer's exit needs one.
      await new Promise((resolve) => setImmediate(resolve));
    }
    await writer;
    await following.refreshSessions([{ configRoot: root, slug, sessionId }]);
    const cold = new SessionCatalog({ dataDir: join(tmp, 'data-cold'), roots: [root] });
    await cold.build();
    const followed = following.get(root, slug, sessionId);
    expect(followed).toEqual(cold.get(root, slug, sessionId));
    // The first line was written twice (once before the appender started), so it is there twice.
    expect(followed?.userPrompts).toBe(RECORDS / 2 + 1);
    await following.dispose();
    await cold.dispose();
  });
});
