import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { saveStateFileSync, stateFilePath } from '../../../electron/core/catalog/catalogStateFile';
import { CatalogStore } from '../../../electron/core/catalog/catalogStore';
import { emptyAggregateState } from '../../../electron/core/catalog/transcriptAggregate';
import { replaceFileAtomicallySync } from '../../../electron/core/fs/replaceFileAtomicallySync';

describe('state files saved in blocking calls (the scan worker)', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'ccmem-state-file-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('writes what CatalogStore writes and loads, making the state folder', async () => {
    const state = { ...emptyAggregateState(), lines: 7 };
    const store = new CatalogStore(dataDir);
    saveStateFileSync(store.stateDir, '/p/a.jsonl', '1:1', 700, JSON.stringify(state));
    expect((await store.loadState('/p/a.jsonl', '1:1', 700))?.lines).toBe(7);

    const other = new CatalogStore(mkdtempSync(join(tmpdir(), 'ccmem-state-file-other-')));
    try {
      other.saveStateInBackground('/p/a.jsonl', '1:1', 700, JSON.stringify(state));
      await other.statesWritten();
      expect(readFileSync(stateFilePath(store.stateDir, '/p/a.jsonl'), 'utf8')).toBe(
        readFileSync(stateFilePath(other.stateDir, '/p/a.jsonl'), 'utf8'),
      );
    } finally {
      rmSync(join(other.dir, '..'), { recursive: true, force: true });
    }
  });

  it('makes the state folder again when it was removed after an earlier write', async () => {
    const store = new CatalogStore(dataDir);
    saveStateFileSync(store.stateDir, '/p/a.jsonl', '1:1', 700, JSON.stringify({ ...emptyAggregateState(), lines: 1 }));
    rmSync(store.stateDir, { recursive: true });
    // The folder was made already as far as this thread knew: the write finds it gone and makes it again.
    saveStateFileSync(store.stateDir, '/p/b.jsonl', '1:2', 700, JSON.stringify({ ...emptyAggregateState(), lines: 2 }));
    expect((await store.loadState('/p/b.jsonl', '1:2', 700))?.lines).toBe(2);
    expect(readdirSync(store.stateDir)).toEqual([basename(stateFilePath(store.stateDir, '/p/b.jsonl'))]);
  });

  it('replaces a state whole and leaves no temporary file behind, even when it cannot write', () => {
    const target = join(dataDir, 'state.json');
    replaceFileAtomicallySync(target, 'old');
    replaceFileAtomicallySync(target, 'new');
    expect(readFileSync(target, 'utf8')).toBe('new');
    expect(readdirSync(dataDir)).toEqual(['state.json']);
    expect(() => replaceFileAtomicallySync(join(dataDir, 'missing', 'state.json'), 'x')).toThrow();
    // The rename fails after the temp file was written (a folder is in the way): the temp file is removed again.
    mkdirSync(join(dataDir, 'taken', 'inside'), { recursive: true });
    expect(() => replaceFileAtomicallySync(join(dataDir, 'taken'), 'x')).toThrow();
    expect(readdirSync(dataDir).sort()).toEqual(['state.json', 'taken']);
    rmSync(join(dataDir, 'taken'), { recursive: true });
    // A state folder that cannot be made (a file is in the way): nothing thrown, nothing written.
    writeFileSync(join(dataDir, 'catalog'), 'a file where the cache folder should be');
    expect(() => saveStateFileSync(join(dataDir, 'catalog', 'state'), '/p/b.jsonl', '1:2', 10, '{}')).not.toThrow();
    expect(readdirSync(dataDir).sort()).toEqual(['catalog', 'state.json']);
  });
});
