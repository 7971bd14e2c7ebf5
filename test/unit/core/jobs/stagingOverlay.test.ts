import { mkdtempSync, realpathSync } from 'node:fs';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentHash } from '../../../../electron/core/fs/contentHash';
import { readMemoryBaseline } from '../../../../electron/core/jobs/memoryBaseline';
import { StagingOverlay } from '../../../../electron/core/jobs/StagingOverlay';

const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'ccmem-overlay-')));
const memory = join(tmp, 'memory');
afterAll(() => rm(tmp, { recursive: true, force: true }));

beforeAll(async () => {
  await mkdir(join(memory, 'team'), { recursive: true });
  await mkdir(join(memory, 'empty'));
  await writeFile(join(memory, 'MEMORY.md'), '- [A](a.md) — a\n');
  await writeFile(join(memory, 'a.md'), 'fact a\n');
  await writeFile(join(memory, 'team', 'b.md'), 'fact b\n');
  await writeFile(join(memory, '.consolidate-lock'), '123');
  await writeFile(join(memory, 'binary.md'), Buffer.from([0xff, 0xfe, 0x00]));
  await writeFile(join(tmp, 'outside.md'), 'outside');
  await symlink(join(tmp, 'outside.md'), join(memory, 'link.md'));
});

describe('the memory folder as a job sees it', () => {
  it('snapshots text with hashes, and records the lock, binary files and symlinks without reading through them', async () => {
    const baseline = await readMemoryBaseline(memory);
    expect(baseline.files.get('a.md')).toEqual({ kind: 'text', content: 'fact a\n', hash: contentHash('fact a\n'), bytes: 7 });
    expect(baseline.files.get('.consolidate-lock')).toMatchObject({ kind: 'opaque', reason: 'the consolidation lock' });
    expect(baseline.files.get('binary.md')).toMatchObject({ kind: 'opaque', reason: 'not UTF-8 text' });
    expect(baseline.files.get('link.md')).toEqual({ kind: 'symlink' });
    expect([...baseline.dirs].sort()).toEqual(['empty', 'team']);
    expect((await readMemoryBaseline(join(tmp, 'missing'))).files.size).toBe(0);
  });

  it('lays staged writes and deletions over the baseline and reports only real changes', async () => {
    const overlay = new StagingOverlay(await readMemoryBaseline(memory));
    overlay.write('team/c.md', 'fact c\n');
    overlay.delete('a.md');
    overlay.write('MEMORY.md', '- [A](a.md) — a\n');
    expect(overlay.read('a.md')).toEqual({ kind: 'missing' });
    expect(overlay.read('team/c.md')).toEqual({ kind: 'text', content: 'fact c\n' });
    expect(overlay.read('team')).toEqual({ kind: 'folder' });
    expect(overlay.read('link.md')).toMatchObject({ kind: 'unreadable' });
    expect(overlay.list('').map((e) => `${e.name}:${e.type}`)).toEqual([
      '.consolidate-lock:file',
      'binary.md:file',
      'empty:folder',
      'link.md:symlink',
      'MEMORY.md:file',
      'team:folder',
    ]);
    expect(overlay.list('team').map((e) => e.name)).toEqual(['b.md', 'c.md']);
    expect(overlay.changes().map((c) => [c.path, c.after])).toEqual([
      ['a.md', null],
      ['team/c.md', 'fact c\n'],
    ]);
    const checkpoint = overlay.checkpoint();
    overlay.write('later.md', 'x');
    overlay.restore(checkpoint);
    expect(overlay.read('later.md')).toEqual({ kind: 'missing' });
  });
});
