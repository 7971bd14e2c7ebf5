import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contentHash } from '../../../electron/core/fs/contentHash';
import { HistoryStore, type NewHistoryEntry } from '../../../electron/core/changes/HistoryStore';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ccmem-history-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function entry(path: string, before: string | null, after: string | null, changeSetId: string): NewHistoryEntry {
  return { folder: '/m', path, before, after, size: after ? 1 : null, cause: 'app-edit', changeSetId, summary: 'test' };
}

describe('HistoryStore', () => {
  it('stores content-addressed blobs once and reads them back verified', async () => {
    const store = new HistoryStore(dir);
    const hash = await store.putBlob(Buffer.from('version one'));
    expect(hash).toBe(contentHash('version one'));
    expect(await store.putBlob(Buffer.from('version one'))).toBe(hash);
    expect((await store.readBlob(hash)).toString()).toBe('version one');
    await expect(store.readBlob(contentHash('never stored'))).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await writeFile(join(dir, 'blobs', hash.slice(0, 2), hash.slice(2)), 'tampered');
    await expect(store.readBlob(hash)).rejects.toMatchObject({ code: 'INTERNAL' });
  });

  it('journals change sets and lists versions per file, across instances and incrementally', async () => {
    const a = contentHash('a');
    const b = contentHash('b');
    const store = new HistoryStore(dir);
    const id = store.newChangeSetId();
    await store.append([entry('x.md', null, a, id), entry('MEMORY.md', a, b, id)]);
    expect((await store.changeSet(id)).map((e) => e.path)).toEqual(['x.md', 'MEMORY.md']);
    const other = new HistoryStore(dir);
    await other.append([entry('x.md', a, null, other.newChangeSetId())]);
    expect((await store.listVersions('/m', 'x.md')).map((e) => [e.before, e.after])).toEqual([
      [null, a],
      [a, null],
    ]);
    expect((await store.listVersions('/other', 'x.md')).length).toBe(0);
    const line = (await readFile(join(dir, 'journal.jsonl'), 'utf8')).split('\n')[0];
    expect(JSON.parse(line)).toMatchObject({
      v: 1,
      folder: '/m',
      path: 'x.md',
      before: null,
      after: a,
      cause: 'app-edit',
      changeSetId: id,
    });
  });

  it('survives a torn last line from a crash: skipped, and the next entry still lands on its own line', async () => {
    const store = new HistoryStore(dir);
    await store.append([entry('x.md', null, contentHash('a'), 'set-1')]);
    await appendFile(join(dir, 'journal.jsonl'), '{"v":1,"folder":"/m","pa');
    await store.append([entry('y.md', null, contentHash('b'), 'set-2')]);
    const fresh = new HistoryStore(dir);
    expect((await fresh.load()).map((e) => e.path)).toEqual(['x.md', 'y.md']);
  });
});
