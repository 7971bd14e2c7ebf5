import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { contentHash } from '../../../electron/core/fs/contentHash';
import { SafeWriter } from '../../../electron/core/fs/safeWriter';
import { recordFigure } from '../support/figureLog';
import { atScale, timeoutAtScale } from '../support/reliabilityScale';

/**
 * Another process (Claude Code loading memory) reads the file in a tight loop and checks every read is one
 * whole version. A read that finds no file at all is counted apart, once per gap: the safe writer swaps a
 * version in by moving the old one aside and linking the new one in, back to back (see SafeWriter.commit).
 * Plain JavaScript, so it starts at once.
 */
const READER = `
const { readFileSync } = require('node:fs');
const { createHash } = require('node:crypto');
const [file, hashes, stopFile] = process.argv.slice(1);
const known = new Set(hashes.split(','));
let reads = 0, torn = 0, absent = 0, inGap = false;
for (;;) {
  let bytes;
  try { bytes = readFileSync(file); } catch (error) {
    if (error.code !== 'ENOENT') throw error;
    if (!inGap) absent++;
    inGap = true;
    continue;
  }
  inGap = false;
  reads++;
  if (!known.has(createHash('sha256').update(bytes).digest('hex'))) torn++;
  if (reads % 50 === 0) { try { readFileSync(stopFile); break; } catch {} }
}
process.stdout.write(JSON.stringify({ reads, torn, absent }));
`;

const sandbox = realpathSync(mkdtempSync(join(tmpdir(), 'ccmem-torn-')));
afterAll(() => rmSync(sandbox, { recursive: true, force: true }));

describe('no torn read while the app writes', () => {
  it(
    'every read by another process sees one whole version, never a mix or a truncation',
    async () => {
      const root = join(sandbox, 'memory');
      // Versions of different lengths and contents: a torn read cannot hash to either.
      const versions = [
        Buffer.from(`---\nname: a\n---\n${'A'.repeat(300_000)}\n`),
        Buffer.from(`---\nname: b\n---\n${'B'.repeat(90_000)}\n`),
      ];
      const writer = new SafeWriter();
      await writer.write(root, 'topic.md', versions[0], 'absent');
      const file = join(root, 'topic.md');
      const stopFile = join(sandbox, 'stop');
      const reader = spawn(process.execPath, ['-e', READER, file, versions.map((v) => contentHash(v)).join(','), stopFile], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      let output = '';
      reader.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const done = new Promise<void>((resolve) => reader.once('exit', () => resolve()));

      const writes = atScale(300, 10_000);
      for (let i = 1; i <= writes; i++) {
        await writer.write(root, 'topic.md', versions[i % 2], contentHash(versions[(i + 1) % 2]));
      }
      writeFileSync(stopFile, '');
      await done;
      const { reads, torn, absent } = JSON.parse(output) as { reads: number; torn: number; absent: number };
      recordFigure('tornReads', { torn, reads, absent });
      expect(reads).toBeGreaterThan(0);
      expect(torn).toBe(0);
      // And the writer leaves nothing of its own behind.
      expect(readdirSync(root)).toEqual(['topic.md']);
    },
    timeoutAtScale(30_000, 1_800_000),
  );
});
