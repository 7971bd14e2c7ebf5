/**
 * The line index keeper keeps a transcript's lines in the saved format's columns (`LineColumnsBuilder`) and saves them
 * from there: the file it writes must be byte for byte the one a viewer's document (one object per line) writes for the
 * same transcript, and the document must read the same.
 */
import { appendFile, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LineColumnsBuilder } from '../../../electron/core/transcripts/lineColumnsBuilder';
import { SavedLineIndexes } from '../../../electron/core/transcripts/savedLineIndexes';
import { MAIN_SCOPE, TranscriptDocument } from '../../../electron/core/transcripts/TranscriptDocument';
import { unreadableLine, type IndexedLine } from '../../../shared/transcript/indexedLine';
import { LIVE_VIEW } from '../../../shared/transcript/transcriptOutline';
import { createScenarioHome, type ScenarioHome } from '../../fixtures/scenarioHome';

const FIELDS = Object.keys(unreadableLine(1, 0, 0, 'binary')) as (keyof IndexedLine)[];

function plain(lines: readonly IndexedLine[]): Record<string, unknown>[] {
  return lines.map((line) => Object.fromEntries(FIELDS.map((field) => [field, line[field]])));
}

const MAX_LINE_BYTES = 4096;

/**
 * A transcript with every kind of line the index keeps something of: prompts, tool calls (several in one response)
 * and their results, hooks, forks, progress lines, a compaction, a parent missing from the file, sidechain lines,
 * metadata, non-ASCII and lone-surrogate strings, and unreadable lines (bad JSON, binary, too long, invalid UTF-8).
 */
function transcript(turns: number, from = 0, parent: string | null = null): Buffer {
  const lines: (string | Buffer)[] = [];
  let previous = parent;
  const at = (i: number, ms: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, i, ms)).toISOString();
  for (let i = from; i < from + turns; i++) {
    const user = `u-${i}`;
    lines.push(
      JSON.stringify({
        type: 'user',
        uuid: user,
        parentUuid: i % 41 === 40 ? `gone-${i}` : previous,
        timestamp: at(i, 0),
        isMeta: i % 13 === 0,
        message: { role: 'user', content: `prompt ${i} ${'ü'.repeat(i % 5)} 日本` },
      }),
    );
    const calls = i % 3 === 0 ? 2 : 1;
    let last = user;
    for (let c = 0; c < calls; c++) {
      const assistant = `a-${i}-${c}`;
      lines.push(
        JSON.stringify({
          type: 'assistant',
          uuid: assistant,
          parentUuid: last,
          timestamp: at(i, 100 + c),
          isSidechain: i % 17 === 4,
          agentId: i % 17 === 4 ? `agent-${i}` : undefined,
          message: {
            id: `msg-${i}`,
            role: 'assistant',
            content: [{ type: 'tool_use', id: `tool-${i}-${c}`, name: c === 0 ? 'Read' : 'Grep', input: { file_path: `/f${i}` } }],
          },
        }),
      );
      lines.push(
        JSON.stringify({
          type: 'user',
          uuid: `r-${i}-${c}`,
          parentUuid: assistant,
          timestamp: at(i, 200 + c),
          toolUseResult: i % 9 === 2 ? { agentId: `agent-${i}` } : undefined,
          message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `tool-${i}-${c}`, content: 'x'.repeat(100) }] },
        }),
      );
      last = `r-${i}-${c}`;
    }
    if (i % 5 === 1)
      lines.push(
        JSON.stringify({
          type: 'attachment',
          uuid: `h-${i}`,
          parentUuid: `a-${i}-0`,
          timestamp: at(i, 300),
          attachment: { type: 'hook_success', toolUseID: `tool-${i}-0` },
        }),
      );
    if (i % 7 === 3)
      lines.push(JSON.stringify({ type: 'assistant', uuid: `fork-${i}`, parentUuid: user, message: { id: `fork-msg-${i}`, content: [] } }));
    if (i % 11 === 5)
      lines.push(
        JSON.stringify({
          type: 'progress',
          uuid: `p-${i}`,
          parentUuid: last,
          parentToolUseID: `tool-${i}-0`,
          data: { type: 'agent_progress', agentId: `agent-${i}` },
        }),
      );
    if (i % 23 === 10) {
      lines.push(
        JSON.stringify({
          type: 'system',
          subtype: 'compact_boundary',
          uuid: `c-${i}`,
          parentUuid: null,
          logicalParentUuid: last,
          timestamp: at(i, 400),
        }),
      );
      last = `c-${i}`;
    }
    if (i % 19 === 7) {
      // A lone surrogate, escaped as JSON allows: a string with no UTF-8 bytes of its own.
      lines.push(`{"type":"system","subtype":"odd \\ud800","uuid":"s-${i}","parentUuid":"${last}","timestamp":"${at(i, 500)}"}`);
      lines.push(`{"type":"system","subtype":"\\udc00 half","uuid":"t-${i}","parentUuid":"s-${i}"}`);
      last = `t-${i}`;
    }
    if (i % 29 === 11) {
      lines.push('{"type":"user", not json');
      lines.push(Buffer.from([0x7b, 0x00, 0x7d]));
      lines.push(Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]));
      lines.push(JSON.stringify({ type: 'user', uuid: `long-${i}`, message: { content: 'y'.repeat(MAX_LINE_BYTES) } }));
      lines.push(JSON.stringify({ type: 'summary', summary: 'A summary', leafUuid: last }));
    }
    previous = last;
  }
  return Buffer.concat(lines.flatMap((line) => [Buffer.isBuffer(line) ? line : Buffer.from(line), Buffer.from('\n')]));
}

describe('line indexes kept in columns', () => {
  let home: ScenarioHome;
  let path: string;

  beforeEach(async () => {
    home = await createScenarioHome({ prefix: 'ccmem-line-columns-' });
    path = join(home.tmp, 'session.jsonl');
  });

  afterEach(async () => home.cleanup());

  function store(name: string): SavedLineIndexes {
    return new SavedLineIndexes(join(home.tmp, name), { minFileBytes: 0, saveDelayMs: 0 });
  }

  /** Indexes the transcript to its end (in slices, as the keeper does) and saves it; returns the document and the file. */
  async function indexAndSave(into: SavedLineIndexes, inColumns: boolean): Promise<{ document: TranscriptDocument; bytes: Buffer }> {
    const document = await TranscriptDocument.open(path, {
      budgetMs: 1,
      maxLineBytes: MAX_LINE_BYTES,
      savedIndexes: into,
      ...(inColumns ? { newLineStore: () => new LineColumnsBuilder() } : {}),
    });
    while (!document.complete) await document.refresh(1, { publish: false });
    document.publish();
    expect(await document.saveNow()).not.toBeNull();
    return { document, bytes: await readFile(into.fileOf(path)) };
  }

  it('saves the same bytes as a document of line objects, and reads the same', async () => {
    await writeFile(path, transcript(400));
    const objects = await indexAndSave(store('objects'), false);
    const columns = await indexAndSave(store('columns'), true);
    expect(columns.document.lines.length).toBeGreaterThan(1500);
    // The keeper's document holds views of its columns, not the scanned objects.
    expect(LineColumnsBuilder.of(columns.document.lines)).not.toBeNull();
    expect(LineColumnsBuilder.of(objects.document.lines)).toBeNull();
    expect(columns.bytes.equals(objects.bytes)).toBe(true);
    expect(plain(columns.document.lines)).toEqual(plain(objects.document.lines));
    expect(columns.document.tree().stats).toEqual(objects.document.tree().stats);
    expect(columns.document.tree().stats.danglingParents).toBeGreaterThan(0);
    expect(columns.document.resolve(MAIN_SCOPE, LIVE_VIEW).rows).toEqual(objects.document.resolve(MAIN_SCOPE, LIVE_VIEW).rows);
    expect(await columns.document.readPage(0, 200)).toEqual(await objects.document.readPage(0, 200));
    // The file reopens as any saved index does.
    const reopened = await TranscriptDocument.open(path, { maxLineBytes: MAX_LINE_BYTES, savedIndexes: store('columns') });
    expect(reopened.index.resumedFrom).not.toBeNull();
    expect(reopened.lines.length).toBe(objects.document.lines.length);
  });

  it('going on from a saved index of the start of a grown transcript, saves the same bytes as a document of line objects', async () => {
    await writeFile(path, transcript(150));
    const first = await indexAndSave(store('objects'), false);
    await appendFile(path, transcript(150, 150, 'r-149-0'));
    const objects = await indexAndSave(store('objects'), false);
    expect(objects.document.index.resumedFrom).not.toBeNull();
    // The same saved start, for the document of columns to go on from.
    const columnsStore = store('columns');
    await mkdir(columnsStore.dir, { recursive: true });
    await writeFile(columnsStore.fileOf(path), first.bytes);
    const columns = await indexAndSave(columnsStore, true);
    expect(columns.document.index.resumedFrom).not.toBeNull();
    expect(LineColumnsBuilder.of(columns.document.lines)).not.toBeNull();
    expect(columns.bytes.equals(objects.bytes)).toBe(true);
    expect(plain(columns.document.lines)).toEqual(plain(objects.document.lines));
  });

  it('starts its columns again when the transcript is replaced while it is read', async () => {
    // More than one read chunk (1 MiB): the first slice stops before the end.
    await writeFile(path, transcript(3000));
    const document = await TranscriptDocument.open(path, {
      budgetMs: 0,
      maxLineBytes: MAX_LINE_BYTES,
      savedIndexes: store('columns'),
      newLineStore: () => new LineColumnsBuilder(),
    });
    expect(document.complete).toBe(false);
    // Another transcript in its place (a new file, another first line): indexed again from its start.
    await writeFile(`${path}.new`, transcript(120, 1000));
    await rename(`${path}.new`, path);
    while (!document.complete) await document.refresh(1, { publish: false });
    document.publish();
    await document.saveNow();
    // The replaced transcript's lines alone, in a builder of their own, written from it.
    expect(LineColumnsBuilder.of(document.lines)).not.toBeNull();
    const objects = await indexAndSave(store('objects'), false);
    expect(plain(document.lines)).toEqual(plain(objects.document.lines));
    expect((await readFile(store('columns').fileOf(path))).equals(objects.bytes)).toBe(true);
  });
});
