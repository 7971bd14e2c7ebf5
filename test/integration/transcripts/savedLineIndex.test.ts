import { appendFile, readdir, readFile, stat, truncate, utimes, writeFile } from 'node:fs/promises';
import { HomeService } from '../../../electron/core/home/HomeService';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SourceOpener } from '../../../electron/core/fs/randomAccessSource';
import { SavedLineIndexes } from '../../../electron/core/transcripts/savedLineIndexes';
import { MAIN_SCOPE, TranscriptDocument } from '../../../electron/core/transcripts/TranscriptDocument';
import { TranscriptService } from '../../../electron/core/transcripts/TranscriptService';
import { DISK_SOURCES } from '../../../electron/core/transcripts/transcriptSources';
import { unreadableLine, type IndexedLine } from '../../../shared/transcript/indexedLine';
import { LIVE_VIEW } from '../../../shared/transcript/transcriptOutline';
import { countingOpener } from '../../fixtures/countingOpener';
import { createScenarioHome, type ScenarioHome } from '../../fixtures/scenarioHome';

const FIELDS = Object.keys(unreadableLine(1, 0, 0, 'binary')) as (keyof IndexedLine)[];

/** Every field of each line as a plain object (a saved line reads its fields from columns). */
function plain(lines: readonly IndexedLine[]): Record<string, unknown>[] {
  return lines.map((line) => Object.fromEntries(FIELDS.map((field) => [field, line[field]])));
}

/** A conversation with tool calls, results, a fork and a progress line, long enough to be worth indexing. */
function conversation(turns: number, from = 0, parent: string | null = null): string[] {
  const lines: string[] = [];
  let previous = parent;
  for (let i = from; i < from + turns; i++) {
    const user = `u-${i}`;
    const assistant = `a-${i}`;
    const result = `r-${i}`;
    lines.push(
      JSON.stringify({
        type: 'user',
        uuid: user,
        parentUuid: previous,
        timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
        message: { role: 'user', content: `prompt ${i} ${'ü'.repeat(i % 50)}` },
      }),
      JSON.stringify({
        type: 'assistant',
        uuid: assistant,
        parentUuid: user,
        timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, i, 500)).toISOString(),
        message: {
          id: `msg-${i}`,
          role: 'assistant',
          content: [{ type: 'tool_use', id: `tool-${i}`, name: 'Read', input: { file_path: `/f${i}` } }],
        },
      }),
      JSON.stringify({
        type: 'user',
        uuid: result,
        parentUuid: assistant,
        timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, i, 700)).toISOString(),
        message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `tool-${i}`, content: 'x'.repeat(200) }] },
      }),
    );
    if (i % 7 === 3) {
      // An abandoned reply: a fork at the user's prompt.
      lines.push(JSON.stringify({ type: 'assistant', uuid: `fork-${i}`, parentUuid: user, message: { id: `fork-msg-${i}`, content: [] } }));
    }
    if (i % 11 === 5)
      lines.push(JSON.stringify({ type: 'progress', uuid: `p-${i}`, parentUuid: result, data: { type: 'agent_progress' } }));
    if (i % 13 === 4) {
      // A sub-agent run: its call, a legacy progress line naming it, and the result naming the agent (2.1.x).
      const call = `agent-call-${i}`;
      lines.push(
        JSON.stringify({
          type: 'assistant',
          uuid: `ac-${i}`,
          parentUuid: result,
          message: { id: `agent-msg-${i}`, content: [{ type: 'tool_use', id: call, name: i % 2 ? 'Task' : 'Agent', input: {} }] },
        }),
        JSON.stringify({
          type: 'progress',
          uuid: `ap-${i}`,
          parentUuid: `ac-${i}`,
          parentToolUseID: call,
          data: { type: 'agent_progress', agentId: `ag-${i}` },
        }),
        JSON.stringify({
          type: 'user',
          uuid: `ar-${i}`,
          parentUuid: `ac-${i}`,
          toolUseResult: { agentId: `ag-${i}` },
          message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: call, content: 'done' }] },
        }),
      );
    }
    // Lines no branch shows: a message without a uuid, and one whose uuid a later line takes.
    if (i % 17 === 6) lines.push(JSON.stringify({ type: 'user', parentUuid: result, message: { role: 'user', content: 'no uuid' } }));
    if (i % 19 === 7) lines.push(JSON.stringify({ type: 'assistant', uuid: `a-${i + 1}`, parentUuid: result, message: { content: [] } }));
    previous = result;
  }
  return lines;
}

describe('saved line indexes', () => {
  let home: ScenarioHome;
  let path: string;
  let store: SavedLineIndexes;

  beforeEach(async () => {
    home = await createScenarioHome({ prefix: 'ccmem-saved-index-' });
    path = join(home.tmp, 'session.jsonl');
    store = new SavedLineIndexes(join(home.tmp, 'data', 'transcript-index'), { minFileBytes: 0, saveDelayMs: 0 });
    await writeFile(path, `${conversation(300).join('\n')}\n`);
  });

  afterEach(async () => home.cleanup());

  async function openSaved(opener?: SourceOpener): Promise<TranscriptDocument> {
    return TranscriptDocument.open(path, { savedIndexes: store, opener });
  }

  /** What the sub-agent links and the outline's accounting take from a document, as plain values. */
  function linksAndUnreachable(document: TranscriptDocument) {
    const { calls, byResult, byProgress } = document.agentCallLinks();
    return {
      calls,
      byResult: [...byResult].sort(),
      byProgress: [...byProgress].sort(),
      unreachable: document.unreachableLines(),
    };
  }

  /** The lines, live rows, first page and derived facts of a transcript indexed from scratch, with no saved index. */
  async function fresh() {
    const document = await TranscriptDocument.open(path);
    return {
      lines: plain(document.lines),
      rows: document.resolve(MAIN_SCOPE, LIVE_VIEW).rows.lines,
      page: await document.readPage(0, 100),
      derived: linksAndUnreachable(document),
    };
  }

  async function saveFirst(): Promise<void> {
    const first = await openSaved();
    await first.readPage(0, 100);
    await first.saveNow();
  }

  it('reopens from the saved index reading only its signature bytes, with the same lines, rows and page', async () => {
    await saveFirst();
    const size = (await stat(path)).size;
    const counted = countingOpener();
    const second = await openSaved(counted.opener);
    expect(second.index.resumedFrom).not.toBeNull();
    // Opening read the head and tail signatures alone, not the file (size bytes).
    expect(counted.bytesRead()).toBeLessThanOrEqual(256 + 4096);
    expect(size).toBeGreaterThan(100_000);
    const page = await second.readPage(0, 100);
    const expected = await fresh();
    expect(plain(second.lines)).toEqual(expected.lines);
    expect(second.resolve(MAIN_SCOPE, LIVE_VIEW).rows.lines).toEqual(expected.rows);
    expect(page).toEqual(expected.page);
    // The sub-agent links and the unreachable lines come with the index (read from it, not worked out from every line
    // again), the same as worked out afresh.
    expect(second.agentCallLinks().byResult).not.toBeInstanceOf(Map);
    expect(linksAndUnreachable(second)).toEqual(expected.derived);
    expect(expected.derived.calls.length).toBeGreaterThan(10);
    expect(expected.derived.byResult.length).toBe(expected.derived.calls.length);
    expect(expected.derived.byProgress.length).toBe(expected.derived.calls.length);
    expect(new Set(expected.derived.unreachable.map((line) => line.reason))).toEqual(new Set(['no-uuid', 'duplicate-uuid']));
  });

  it('indexes only what was appended to a grown file, and the result equals a fresh index', async () => {
    await saveFirst();
    const before = (await stat(path)).size;
    const appended = `${conversation(40, 300, 'r-299').join('\n')}\n`;
    await appendFile(path, appended);
    const counted = countingOpener();
    const second = await openSaved(counted.opener);
    const indexBytesRead = counted.bytesRead();
    expect(second.index.resumedFrom).not.toBeNull();
    expect(indexBytesRead).toBeLessThanOrEqual(Buffer.byteLength(appended) + 256 + 2 * 4096);
    expect(indexBytesRead).toBeLessThan(before / 5);
    const expected = await fresh();
    expect(plain(second.lines)).toEqual(expected.lines);
    expect(second.resolve(MAIN_SCOPE, LIVE_VIEW).rows.lines).toEqual(expected.rows);
    expect(await second.readPage(0, 100)).toEqual(expected.page);
    // The signatures (head, the old tail to check, the new tail to keep) and the appended lines: nothing else.
    // Saved again, it reopens from the new end.
    await second.saveNow();
    const third = await openSaved();
    expect(third.index.resumedFrom?.extent.indexedBytes).toBe((await stat(path)).size);
  });

  it('ignores a saved index that is corrupt or cut short, indexes the file again and saves a good one', async () => {
    await saveFirst();
    const [name] = await readdir(store.dir);
    const file = join(store.dir, name);
    const bytes = await readFile(file);
    for (const damage of ['flipped', 'cut'] as const) {
      if (damage === 'flipped') {
        const flipped = Buffer.from(bytes);
        flipped[Math.floor(flipped.length / 2)] ^= 0xff;
        await writeFile(file, flipped);
      } else {
        await truncate(file, Math.floor(bytes.length / 2));
      }
      expect(await store.load(path)).toBeNull();
      const counted = countingOpener();
      const document = await openSaved(counted.opener);
      expect(document.index.resumedFrom).toBeNull();
      expect(counted.bytesRead()).toBeGreaterThanOrEqual((await stat(path)).size);
      expect(plain(document.lines)).toEqual((await fresh()).lines);
      await document.saveNow();
      expect(await store.load(path)).not.toBeNull();
    }
  });

  it('indexes a rewritten or shrunk file again instead of trusting the saved index', async () => {
    const original = await readFile(path, 'utf8');
    const rewrites = {
      // Same size and mtime, another first line: the head no longer matches.
      head: original.replace('prompt 0', 'PROMPT 0'),
      // Same size, the last indexed line changed: the tail no longer matches.
      tail: original.replace('"uuid":"r-299"', '"uuid":"R-299"'),
      shrunk: original.slice(0, original.length / 2),
    };
    const { mtime } = await stat(path);
    for (const rewritten of Object.values(rewrites)) {
      await writeFile(path, original);
      await saveFirst();
      await writeFile(path, rewritten);
      await utimes(path, mtime, mtime);
      const counted = countingOpener();
      const document = await openSaved(counted.opener);
      expect(document.index.resumedFrom).toBeNull();
      expect(counted.bytesRead()).toBeGreaterThanOrEqual(Buffer.byteLength(rewritten));
      const expected = await fresh();
      expect(plain(document.lines)).toEqual(expected.lines);
      expect(await document.readPage(0, 100)).toEqual(expected.page);
    }
  });

  it('does not save transcripts smaller than the threshold', async () => {
    const strict = new SavedLineIndexes(store.dir, { minFileBytes: (await stat(path)).size + 1, saveDelayMs: 0 });
    const document = await TranscriptDocument.open(path, { savedIndexes: strict });
    await document.saveNow();
    await expect(readdir(strict.dir)).rejects.toThrow();
  });

  it('keeps the total under its bound by removing the least recently used index', async () => {
    const paths = ['a', 'b', 'c'].map((name) => join(home.tmp, `${name}.jsonl`));
    for (const other of paths) await writeFile(other, await readFile(path));
    const probe = await TranscriptDocument.open(paths[0], { savedIndexes: store });
    await probe.saveNow();
    const oneIndex = (await stat(store.fileOf(paths[0]))).size;
    const bounded = new SavedLineIndexes(store.dir, { minFileBytes: 0, saveDelayMs: 0, maxTotalBytes: oneIndex * 2 + 100 });
    await (await TranscriptDocument.open(paths[1], { savedIndexes: bounded })).saveNow();
    // Used last: a load marks it.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await bounded.load(paths[0])).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await (await TranscriptDocument.open(paths[2], { savedIndexes: bounded })).saveNow();
    expect(await bounded.load(paths[0])).not.toBeNull();
    expect(await bounded.load(paths[1])).toBeNull();
    expect(await bounded.load(paths[2])).not.toBeNull();
  });
});

describe('saved line indexes in the transcript viewer', () => {
  let home: ScenarioHome;
  afterEach(async () => home.cleanup());

  it('saves the index a background indexing completed, and a later service answers its first outline from it', async () => {
    home = await createScenarioHome({ prefix: 'ccmem-saved-index-service-' });
    const project = home.project(home.workPath('shop'));
    const sessionId = 'aaaaaaaa-0000-4000-8000-000000000001';
    await project.rawFile(`${sessionId}.jsonl`, `${conversation(4000).join('\n')}\n`);
    const homes = new HomeService({
      roots: [{ path: home.root, source: 'CLAUDE_CONFIG_DIR' }],
      dataDir: join(home.tmp, 'data'),
      demoHomeSource: null,
      shell: 'cli',
      readOnly: true,
    });
    const store = new SavedLineIndexes(join(home.tmp, 'data', 'transcript-index'), { minFileBytes: 0, saveDelayMs: 0 });
    const ref = { configRoot: home.root, slug: project.slug, sessionId };
    // Every file counts as big and the first answer reads one chunk: the rest is indexed in the background.
    const firstScreen = { budgetMs: 0, wholeIndexBytes: 0 };
    const first = new TranscriptService(homes, null, firstScreen, DISK_SOURCES, store);
    expect((await first.outline(ref, LIVE_VIEW)).indexing).not.toBeNull();
    const transcript = join(home.root, 'projects', project.slug, `${sessionId}.jsonl`);
    for (let waited = 0; (await store.load(transcript)) === null; waited += 20) {
      if (waited > 20_000) throw new Error('the index was never saved');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    first.dispose();

    const second = new TranscriptService(homes, null, firstScreen, DISK_SOURCES, store);
    const outline = await second.outline(ref, LIVE_VIEW);
    // Whole at once, with nothing left to index in the background.
    expect(outline.indexing).toBeNull();
    const plain = new TranscriptService(homes, null);
    const expected = await plain.outline(ref, LIVE_VIEW);
    expect(outline).toEqual(expected);
    expect(await second.page(ref, LIVE_VIEW, 0, 300)).toEqual(await plain.page(ref, LIVE_VIEW, 0, 300));
    second.dispose();
    plain.dispose();
  });
});
