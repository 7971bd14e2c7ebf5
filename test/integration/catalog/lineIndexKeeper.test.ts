import { appendFile, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backgroundHeapGrowth } from '../../../electron/core/async/backgroundHeapGrowth';
import { CatalogService } from '../../../electron/core/catalog/CatalogService';
import { LineIndexKeeper } from '../../../electron/core/catalog/LineIndexKeeper';
import type { HomeService } from '../../../electron/core/home/HomeService';
import { SavedLineIndexes, type SavedLineIndexOptions } from '../../../electron/core/transcripts/savedLineIndexes';
import { TranscriptDocument } from '../../../electron/core/transcripts/TranscriptDocument';
import { countingOpener } from '../../fixtures/countingOpener';
import { createScenarioHome, type ScenarioHome } from '../../fixtures/scenarioHome';
import { seededUuid } from '../../fixtures/sessionLines';
import { createTestHomeService } from '../../fixtures/testEngine';
import { assistantChunk, toolResult, toolUse, userPrompt } from '../../fixtures/transcriptLines';

/** A linear conversation of `turns` prompt, tool call and result triples, each padded to about `padding` bytes. */
function conversation(sessionId: string, turns: number, day: number, padding = 300): string {
  const lines: string[] = [];
  let parent: string | null = null;
  for (let i = 0; i < turns; i++) {
    const at = (second: number) => new Date(Date.UTC(2026, 4, day, 10, 0, 0) + i * 3000 + second * 1000).toISOString();
    const ids = [0, 1, 2].map((k) => seededUuid(`${sessionId}:${i}:${k}`));
    lines.push(
      userPrompt(`prompt ${i} ${'p'.repeat(padding)}`, { sessionId, uuid: ids[0], parentUuid: parent, timestamp: at(0) }),
      assistantChunk({
        sessionId,
        uuid: ids[1],
        parentUuid: ids[0],
        timestamp: at(1),
        messageId: `msg_${sessionId.slice(0, 8)}_${i}`,
        usage: { output: 10 },
        block: toolUse(`toolu_${sessionId.slice(0, 8)}_${i}`, 'Read', { file_path: `/f${i}` }),
      }),
      toolResult(`toolu_${sessionId.slice(0, 8)}_${i}`, 'r'.repeat(padding), {
        sessionId,
        uuid: ids[2],
        parentUuid: ids[1],
        timestamp: at(2),
      }),
    );
    parent = ids[2];
  }
  return `${lines.join('\n')}\n`;
}

describe('LineIndexKeeper', () => {
  let home: ScenarioHome;
  let homes: HomeService;
  let catalog: CatalogService;
  let store: SavedLineIndexes;
  let keeper: LineIndexKeeper | null;
  /** Session id → transcript path; "big" ones are over the store's threshold, "small" ones under it. */
  const paths = new Map<string, string>();
  const BIG_BYTES = 200 * 1024;

  async function writeSession(name: string, turns: number, day: number): Promise<void> {
    const sessionId = seededUuid(`keeper:${name}`);
    const project = home.project(home.workPath('shop'));
    paths.set(name, await project.rawFile(`${sessionId}.jsonl`, conversation(sessionId, turns, day)));
  }

  function useStore(options: Partial<SavedLineIndexOptions> = {}): void {
    store = new SavedLineIndexes(join(home.tmp, 'data', 'transcript-index'), { minFileBytes: BIG_BYTES, saveDelayMs: 0, ...options });
  }

  beforeEach(async () => {
    home = await createScenarioHome({ prefix: 'ccmem-keeper-' });
    // Two big sessions (the newer first in the catalog) and a small one.
    await writeSession('older-big', 400, 1);
    await writeSession('newer-big', 400, 2);
    await writeSession('small', 20, 3);
    homes = createTestHomeService(home);
    catalog = new CatalogService({ home: homes, live: null, dataDir: join(home.tmp, 'data'), roots: [home.root], scanWorker: null });
    await catalog.buildNow();
    useStore();
    keeper = null;
  });

  afterEach(async () => {
    await keeper?.dispose();
    await catalog.dispose();
    await home.cleanup();
    paths.clear();
  });

  function keep(follow = false): LineIndexKeeper {
    keeper = new LineIndexKeeper({ catalog, savedIndexes: store, follow });
    return keeper;
  }

  it('saves the index of every big transcript, and a first open then reads only its signature bytes', async () => {
    for (const name of ['older-big', 'newer-big']) expect((await stat(paths.get(name) as string)).size).toBeGreaterThan(BIG_BYTES);
    const kept = await keep().bringUpToDate();
    expect(kept).toMatchObject({ saved: 2, current: 0, full: false, cancelled: false });
    expect(await store.extentOf(paths.get('small') as string)).toBeNull();
    for (const name of ['older-big', 'newer-big']) {
      const path = paths.get(name) as string;
      const counted = countingOpener();
      const reopened = await TranscriptDocument.open(path, { savedIndexes: store, opener: counted.opener });
      expect(reopened.index.resumedFrom).not.toBeNull();
      expect(counted.bytesRead()).toBeLessThan(10_000);
      const fresh = await TranscriptDocument.open(path);
      expect(await reopened.readPage(0, 100)).toEqual(await fresh.readPage(0, 100));
      // Written from its columns (see `LineColumnsBuilder`), the file is the one the viewer's document writes.
      const viewerStore = new SavedLineIndexes(join(home.tmp, 'viewer-index'), { minFileBytes: 0, saveDelayMs: 0 });
      await (await TranscriptDocument.open(path, { savedIndexes: viewerStore })).saveNow();
      expect((await readFile(store.fileOf(path))).equals(await readFile(viewerStore.fileOf(path)))).toBe(true);
    }
  });

  it('holds the heap’s growth while it indexes and saves, and gives it back after', async () => {
    const heldAtSave: boolean[] = [];
    const save = store.save.bind(store);
    store.save = (extent, snapshot) => {
      heldAtSave.push(backgroundHeapGrowth.held);
      return save(extent, snapshot);
    };
    expect(await keep().bringUpToDate()).toMatchObject({ saved: 2 });
    expect(heldAtSave).toEqual([true, true]);
    expect(backgroundHeapGrowth.held).toBe(false);
  });

  it('leaves current indexes alone and indexes again a transcript that grew past its index', async () => {
    await keep().bringUpToDate();
    expect(await keeper?.bringUpToDate()).toMatchObject({ saved: 0, current: 2 });
    const grown = paths.get('older-big') as string;
    const sessionId = seededUuid('keeper:older-big');
    // A little more than a megabyte: more than a reopen should read on from the old index.
    await appendFile(grown, conversation(sessionId, 2200, 9).replaceAll(seededUuid(`${sessionId}:0:0`), seededUuid('appended')));
    expect(await keeper?.bringUpToDate()).toMatchObject({ saved: 1, current: 1 });
    expect((await store.extentOf(grown))?.indexedBytes).toBe((await stat(grown)).size);
  });

  it('goes newest first and stops once the indexes fill its share of the store', async () => {
    useStore({ maxTotalBytes: 1 });
    // Any saved index fills a one-byte store: nothing is saved (too big), so the store stays empty...
    expect(await keep().bringUpToDate()).toMatchObject({ saved: 0 });
    await keeper?.dispose();
    // ...and with room for about one index, the newer session's is kept and the run stops there.
    const probe = new SavedLineIndexes(join(home.tmp, 'probe'), { minFileBytes: 0 });
    const one = await TranscriptDocument.open(paths.get('newer-big') as string, { savedIndexes: probe });
    const oneIndexBytes = (await one.saveNow()) as number;
    useStore({ maxTotalBytes: Math.ceil(oneIndexBytes * 1.2) });
    expect(await keep().bringUpToDate()).toMatchObject({ saved: 1, full: true });
    expect(await store.extentOf(paths.get('newer-big') as string)).not.toBeNull();
    expect(await store.extentOf(paths.get('older-big') as string)).toBeNull();
  });

  it('runs after each finished catalog build when it follows the catalog', async () => {
    keep(true);
    await catalog.refresh();
    const transcript = paths.get('newer-big') as string;
    for (let waited = 0; (await store.extentOf(transcript)) === null; waited += 20) {
      if (waited > 20_000) throw new Error('the keeper never saved the index after the build');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await keeper?.bringUpToDate();
    expect((await readdir(store.dir)).length).toBe(2);
  });

  it('tells when no run is going: at once before any, else once the run has saved what it indexed', async () => {
    const idleKeeper = keep();
    await idleKeeper.whenIdle();
    expect(await readdir(store.dir).catch(() => [])).toEqual([]);
    let runDone = false;
    const run = idleKeeper.bringUpToDate().then((kept) => {
      runDone = true;
      return kept;
    });
    await idleKeeper.whenIdle();
    expect(runDone).toBe(true);
    expect((await readdir(store.dir)).length).toBe(2);
    expect(await run).toMatchObject({ saved: 2 });
  });

  it('leaves no save behind when disposed while a transcript is opened', async () => {
    const keeper = keep();
    const load = store.load.bind(store);
    // The engine's teardown comes while the keeper opens the first transcript, which its first slice indexes whole.
    store.load = (path) => {
      void keeper.dispose();
      return load(path);
    };
    expect(await keeper.bringUpToDate()).toMatchObject({ saved: 0, cancelled: true });
    // Longer than the store's save delay (0 ms here), so a save the opened document scheduled would have been written.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await readdir(store.dir).catch(() => [])).toEqual([]);
  });

  it('stops when disposed, saving nothing more', async () => {
    const run = keep().bringUpToDate();
    await keeper?.dispose();
    expect(await run).toMatchObject({ saved: 0, cancelled: true });
    expect(await readdir(store.dir).catch(() => [])).toEqual([]);
  });
});
