import { gunzipSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readTar, writeTarGz } from '../../../../../electron/core/history/backup/tarArchive';

const T = Date.parse('2026-06-01T12:00:00.000Z');

describe('tar archives written and read by our own code', () => {
  it('round-trips any files, including long and non-ASCII names, byte for byte', () => {
    const name = fc
      .array(
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }).filter((s) => !s.includes('/') && !s.includes('\0')),
        { minLength: 1, maxLength: 6 },
      )
      .map((parts) => parts.join('/'));
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.record({ name, bytes: fc.uint8Array({ maxLength: 1500 }) }), { selector: (f) => f.name, maxLength: 6 }),
        (files) => {
          const archive = writeTarGz(files.map((f) => ({ ...f, mtimeMs: T })));
          const read = readTar(archive);
          expect(read.skipped).toEqual([]);
          expect(read.files.map((f) => f.name)).toEqual(files.map((f) => f.name));
          read.files.forEach((f, i) => expect(Buffer.from(f.bytes).equals(Buffer.from(files[i].bytes))).toBe(true));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('lists links and other special entries without extracting them', () => {
    // A symlink header ('2') put by hand in front of a real file.
    const plain = gunzipSync(writeTarGz([{ name: 'a.md', bytes: Buffer.from('a'), mtimeMs: T }]));
    const link = Buffer.from(plain.subarray(0, 512));
    link.write('evil.md'.padEnd(100, '\0'), 0, 'utf8');
    link.write('2', 156, 'utf8');
    link.write('00000000000\0', 124, 'utf8');
    fixChecksum(link);
    const read = readTar(Buffer.concat([link, plain]));
    expect(read.skipped).toEqual(['evil.md']);
    expect(read.files.map((f) => f.name)).toEqual(['a.md']);
  });

  it('refuses what is not an archive, a damaged header, and more than 64 MB unpacked', () => {
    expect(() => readTar(Buffer.from('not a tar at all, just text that is long enough'.repeat(20)))).toThrow(/Not a valid archive/);
    const archive = gunzipSync(writeTarGz([{ name: 'a.md', bytes: Buffer.from('a'), mtimeMs: T }]));
    archive[10] ^= 0xff;
    expect(() => readTar(archive)).toThrow(/checksum/);
    const bomb = gzipSync(Buffer.alloc(65 * 1024 * 1024));
    expect(() => readTar(bomb)).toThrow(/64 MB/);
  });
});

function fixChecksum(block: Buffer): void {
  block.fill(0x20, 148, 156);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'utf8');
}
