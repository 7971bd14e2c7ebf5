import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CATALOG_CACHE_FORMAT, type CachedFile, type CatalogIndex } from '../../../electron/core/catalog/catalogCacheSchema';
import { CatalogStore } from '../../../electron/core/catalog/catalogStore';
import type { SessionCatalogEntry } from '../../../shared/model/catalog';
import type { FileSummary } from '../../../electron/core/catalog/fileSummary';
import { emptyAggregateState } from '../../../electron/core/catalog/transcriptAggregate';
import { readChecksummedJson, writeChecksummedJson, writeChecksummedJsonText } from '../../../electron/core/fs/checksummedJsonFile';

function summary(i: number): FileSummary {
  return {
    lines: i,
    badLines: 0,
    firstTimestamp: '2026-01-01T00:00:00.000Z',
    lastTimestamp: null,
    firstSessionId: `session-${i}`,
    cwds: ['/work/projet-été'],
    gitBranches: [],
    versions: ['2.1.37'],
    models: [],
    customTitle: i % 2 === 0 ? `Réparer le panier 🛒 n°${i}` : null,
    aiTitle: null,
    lastPrompt: null,
    summary: null,
    otherSummaries: [],
    leafUuids: [`uuid-${i}`],
    firstPrompt: 'x'.repeat(300),
    prLinks: i % 3 === 0 ? [{ url: `https://example.com/pr/${i}`, number: i, repository: 'o/r' }] : [],
    agentName: null,
    mode: i % 2 === 0 ? 'normal' : null,
    userPrompts: 1,
    assistantTurns: 2,
    toolCalls: 0,
    tokens: { input: 1, output: 2, cacheCreation: 3, cacheRead: 4 },
    compactions: [],
    memoryReads: [],
    memoryWrites: [],
    agentLinks: [],
    inlineRuns: [],
  };
}

/** Big enough that the index is written in many batches, with characters of every UTF-8 length. */
function bigIndex(): CatalogIndex {
  const files: CachedFile[] = Array.from({ length: 600 }, (_, i) => ({
    path: `/home/me/.claude/projects/-work-projet-été/${i}.jsonl`,
    fileId: `1:${i}`,
    size: 1000 + i,
    mtimeNs: `${1_700_000_000_000_000_000n + BigInt(i)}`,
    mtimeMs: 1_700_000_000_000 + i,
    offset: 1000 + i,
    tailHex: 'ab'.repeat(64),
    memoryKey: '/home/me/.claude/projects/-work-projet-été/memory',
    isSubagentFile: false,
    summary: summary(i),
  }));
  return {
    format: CATALOG_CACHE_FORMAT,
    files,
    metas: [
      {
        path: '/m.meta.json',
        fileId: '1:1',
        size: 2,
        mtimeNs: '1',
        mtimeMs: 1,
        meta: { agentType: 'qa', description: null, parentAgentId: null, spawnDepth: 1 },
      },
    ],
    sessions: files.map((file, i) => ({
      configRoot: '/home/me/.claude',
      slug: '-work-projet-été',
      sessionId: `session-${i}`,
      path: file.path,
      mainTranscript: true,
      customTitle: null,
      subagents: [],
      sessionMemoryPath: null,
    })),
  };
}

/** A new temp folder for each test of the block, removed after it. */
function useTempDir(prefix: string, receive: (dir: string) => void): void {
  let dir = '';
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    receive(dir);
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));
}

describe('CatalogStore index', () => {
  let dataDir: string;
  useTempDir('ccmem-catalog-store-', (made) => (dataDir = made));

  it('writes entry by entry the JSON text of the whole index, in ASCII, under a header holding its hash, and reads it back', async () => {
    const index = bigIndex();
    const store = new CatalogStore(dataDir);
    await store.saveIndex(index, []);
    const bytes = await readFile(join(dataDir, 'catalog', 'index.json'));
    const headerEnd = bytes.indexOf(0x0a);
    const body = bytes.subarray(headerEnd + 1);
    expect(isAscii(body)).toBe(true);
    expect(JSON.parse(body.toString('latin1'))).toEqual(index);
    expect(JSON.parse(bytes.toString('utf8', 0, headerEnd))).toEqual({
      format: CATALOG_CACHE_FORMAT,
      sha1: createHash('sha1').update(body).digest('hex'),
    });
    expect(await new CatalogStore(dataDir).loadIndex()).toEqual(index);
    expect((await readdir(join(dataDir, 'catalog'))).sort()).toEqual(['index.json', 'listing.json']);
  });

  it('saves the listing beside the index it was made from, and refuses it beside another index', async () => {
    const store = new CatalogStore(dataDir);
    const listing = [
      { sessionId: 'a', title: 'Réparer le panier 🛒' },
      { sessionId: 'b', title: null },
    ] as unknown as SessionCatalogEntry[];
    await store.saveIndex(bigIndex(), listing);
    expect(await new CatalogStore(dataDir).loadListing()).toEqual(listing);
    // A save cut short after the index: the listing on disk was made from the index before it.
    const changed = { ...bigIndex(), sessions: bigIndex().sessions.slice(1) };
    await writeChecksummedJsonText(join(dataDir, 'catalog', 'index.json'), CATALOG_CACHE_FORMAT, [JSON.stringify(changed)]);
    expect(await new CatalogStore(dataDir).loadIndex()).toEqual(changed);
    expect(await new CatalogStore(dataDir).loadListing()).toBeNull();
    // No index at all.
    await rm(join(dataDir, 'catalog', 'index.json'));
    expect(await new CatalogStore(dataDir).loadListing()).toBeNull();
  });
});

describe('CatalogStore states', () => {
  let dataDir: string;
  useTempDir('ccmem-catalog-states-', (made) => (dataDir = made));

  it('writes states behind the caller, in order per file', async () => {
    const store = new CatalogStore(dataDir);
    const path = '/home/me/.claude/projects/-work/a.jsonl';
    const state = emptyAggregateState();
    for (let lines = 1; lines <= 20; lines++) {
      state.lines = lines;
      store.saveStateInBackground(path, '1:1', lines * 100, JSON.stringify(state));
    }
    // A load waits for the writes of its file, so it sees the newest save and never an older one.
    expect((await store.loadState(path, '1:1', 2000))?.lines).toBe(20);
    expect(await store.loadState(path, '1:1', 1900)).toBeNull();
    state.lines = 999;
    store.saveStateInBackground('/home/me/.claude/projects/-work/b.jsonl', '1:2', 300, JSON.stringify(state));
    await store.statesWritten();
    expect(await readdir(join(dataDir, 'catalog', 'state'))).toHaveLength(2);
    expect((await new CatalogStore(dataDir).loadState('/home/me/.claude/projects/-work/b.jsonl', '1:2', 300))?.lines).toBe(999);
  });

  it("writes a build's state at once, or behind an earlier write of the same file still on its way", async () => {
    const store = new CatalogStore(dataDir);
    const state = emptyAggregateState();
    state.lines = 1;
    store.saveStateNow('/a.jsonl', '1:1', 100, JSON.stringify(state));
    // Landed before the call returned: nothing to wait for.
    expect(await readdir(join(dataDir, 'catalog', 'state'))).toHaveLength(1);
    expect((await store.loadState('/a.jsonl', '1:1', 100))?.lines).toBe(1);
    state.lines = 2;
    store.saveStateInBackground('/a.jsonl', '1:1', 200, JSON.stringify(state));
    state.lines = 3;
    store.saveStateNow('/a.jsonl', '1:1', 300, JSON.stringify(state));
    await store.statesWritten();
    expect((await store.loadState('/a.jsonl', '1:1', 300))?.lines).toBe(3);
  });

  it('drops a state it cannot write, which only means reading that file again from the start', async () => {
    await writeFile(join(dataDir, 'catalog'), 'a file where the cache folder should be');
    const store = new CatalogStore(dataDir);
    store.saveStateInBackground('/p.jsonl', '1:1', 100, JSON.stringify(emptyAggregateState()));
    await store.statesWritten();
    expect(await store.loadState('/p.jsonl', '1:1', 100)).toBeNull();
  });

  it('makes its state folder again when it was removed between two writes', async () => {
    const store = new CatalogStore(dataDir);
    const state = JSON.stringify(emptyAggregateState());
    store.saveStateInBackground('/a.jsonl', '1:1', 100, state);
    await store.statesWritten();
    await rm(join(dataDir, 'catalog'), { recursive: true });
    // The first write after the removal fails (and costs a re-read only); the next one makes the folder again.
    store.saveStateInBackground('/b.jsonl', '1:2', 100, state);
    await store.statesWritten();
    store.saveStateInBackground('/c.jsonl', '1:3', 100, state);
    await store.statesWritten();
    expect(await store.loadState('/c.jsonl', '1:3', 100)).not.toBeNull();
  });
});

describe('writeChecksummedJsonText', () => {
  let dir: string;
  useTempDir('ccmem-hashed-file-', (made) => (dir = made));

  it('writes the header with the format and the SHA-1 of the body, then the body given in pieces', async () => {
    const value = { entries: Array.from({ length: 5000 }, (_, i) => ({ i, text: `entry ${i} — ünïcode` })) };
    const text = JSON.stringify(value);
    await writeChecksummedJsonText(join(dir, 'pieces.json'), 'test/1', text.match(/[\s\S]{1,1000}/g)!);
    const bytes = await readFile(join(dir, 'pieces.json'));
    const headerEnd = bytes.indexOf(0x0a);
    const body = bytes.subarray(headerEnd + 1);
    const sha1 = createHash('sha1').update(body).digest('hex');
    expect(bytes.toString('utf8', 0, headerEnd)).toBe(`{"format":"test/1","sha1":"${sha1}"}`);
    expect(JSON.parse(body.toString('utf8'))).toEqual(value);
    expect(await readChecksummedJson(join(dir, 'pieces.json'), 'test/1', 1e8)).toEqual(value);
    expect(await readChecksummedJson(join(dir, 'pieces.json'), 'test/2', 1e8)).toBeNull();
    await writeChecksummedJson(join(dir, 'whole.json'), 'test/1', value);
    expect(await readFile(join(dir, 'whole.json'), 'utf8')).toBe(await readFile(join(dir, 'pieces.json'), 'utf8'));
  });

  it('keeps the body to ASCII, every other character escaped, and reads back every string as it was', async () => {
    const value = {
      accents: 'Réparer le panier, Größe, naïve',
      cjk: '記憶を整理する',
      astral: 'cart 🛒, family 👨‍👩‍👧',
      loneSurrogates: ['\ud800', 'a\udfffb'],
      controls: 'tab\there, nul \u0000, del \u007f, nbsp \u00a0',
      ascii: 'plain "quoted" \\ text',
    };
    await writeChecksummedJson(join(dir, 'escaped.json'), 'test/1', value);
    const bytes = await readFile(join(dir, 'escaped.json'));
    expect(isAscii(bytes)).toBe(true);
    expect(bytes.toString('latin1')).toContain('R\\u00e9parer');
    expect(await readChecksummedJson(join(dir, 'escaped.json'), 'test/1', 1e8)).toEqual(value);
  });

  it('still reads a body written in UTF-8 before bodies were kept to ASCII', async () => {
    const value = { title: 'Réparer le panier 🛒', prompt: '記憶を整理する' };
    const body = Buffer.from(JSON.stringify(value), 'utf8');
    const sha1 = createHash('sha1').update(body).digest('hex');
    await writeFile(join(dir, 'older.json'), Buffer.concat([Buffer.from(`{"format":"test/1","sha1":"${sha1}"}\n`), body]));
    expect(await readChecksummedJson(join(dir, 'older.json'), 'test/1', 1e8)).toEqual(value);
  });

  it('leaves the previous file alone and no temporary file behind when the body fails half way', async () => {
    const path = join(dir, 'index.json');
    await writeFile(path, 'previous');
    function* failing(): Generator<string> {
      yield 'y'.repeat(200_000);
      throw new Error('an entry could not be written');
    }
    await expect(writeChecksummedJsonText(path, 'test/1', failing())).rejects.toThrow('could not be written');
    expect(await readFile(path, 'utf8')).toBe('previous');
    expect(await readdir(dir)).toEqual(['index.json']);
  });
});
