import { mkdtempSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readWholeFile } from '../../../../electron/core/fs/readSafely';

const dir = mkdtempSync(join(tmpdir(), 'ccmem-read-whole-'));
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('readWholeFile', () => {
  it('reads every byte of a file bigger than one of fs.readFile’s chunks', async () => {
    const bytes = Buffer.alloc(3 * 1024 * 1024 + 17);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31 + (i >> 9)) & 0xff;
    const path = join(dir, 'big.bin');
    await writeFile(path, bytes);
    const read = await readWholeFile(path, bytes.length);
    expect(read?.equals(bytes)).toBe(true);
  });

  it('refuses a file larger than the limit, reads an empty one, and rejects a missing one like fs.readFile', async () => {
    const path = join(dir, 'small.txt');
    await writeFile(path, 'twelve bytes');
    expect(await readWholeFile(path, 11)).toBeNull();
    expect((await readWholeFile(path, 12))?.toString()).toBe('twelve bytes');
    await writeFile(join(dir, 'empty'), '');
    expect((await readWholeFile(join(dir, 'empty'), 0))?.length).toBe(0);
    await expect(readWholeFile(join(dir, 'missing'), 10)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
