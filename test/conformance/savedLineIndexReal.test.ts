/**
 * A transcript reopened from its saved line index reads exactly as one indexed from scratch, on every real Claude Code
 * transcript of ../shared/fixtures/claude-real (read in place, never copied; the saved indexes go to a temp folder).
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path, { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LineColumnsBuilder } from '../../electron/core/transcripts/lineColumnsBuilder';
import { SavedLineIndexes } from '../../electron/core/transcripts/savedLineIndexes';
import { MAIN_SCOPE, TranscriptDocument } from '../../electron/core/transcripts/TranscriptDocument';
import { compareCodeUnits } from '../../electron/core/transcripts/sortedStringMap';
import { unreadableLine, type IndexedLine } from '../../shared/transcript/indexedLine';
import { LIVE_VIEW, type TranscriptViewSpec } from '../../shared/transcript/transcriptOutline';
import { createScenarioHome, type ScenarioHome } from '../fixtures/scenarioHome';

/** The fixtures beside the repository (a worktree elsewhere names them with CCMEM_REAL_FIXTURES). */
const FIXTURES = process.env.CCMEM_REAL_FIXTURES ?? path.resolve(__dirname, '../../../shared/fixtures/claude-real');
const present = existsSync(join(FIXTURES, 'SOURCES.md'));
if (!present) console.warn(`[conformance] SKIPPED: real Claude Code fixtures not found at ${FIXTURES} (the ../shared checkout is absent).`);

const FIELDS = Object.keys(unreadableLine(1, 0, 0, 'binary')) as (keyof IndexedLine)[];

function plain(lines: readonly IndexedLine[]): Record<string, unknown>[] {
  return lines.map((line) => Object.fromEntries(FIELDS.map((field) => [field, line[field]])));
}

async function transcripts(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await transcripts(full)));
    else if (entry.name.endsWith('.jsonl')) out.push(full);
  }
  return out.sort();
}

function inKeyOrder<V>(map: ReadonlyMap<string, V>): [string, V][] {
  return [...map].sort((a, b) => compareCodeUnits(a[0], b[0]));
}

const VIEWS: readonly TranscriptViewSpec[] = [LIVE_VIEW, { ...LIVE_VIEW, showMeta: true, showMetadata: true }];

/** What a reader can see of a document: its lines, each view's rows and branch, the first pages, the tree's facts. */
async function seen(document: TranscriptDocument): Promise<unknown> {
  const views = [];
  for (const spec of VIEWS) {
    const view = document.resolve(MAIN_SCOPE, spec);
    views.push({
      rows: view.rows.lines,
      // A reopened view's maps iterate in key order; what they map is what counts.
      rowOfLine: [...view.rows.rowOfLine].sort((a, b) => a[0] - b[0]),
      folded: inKeyOrder(view.rows.resultLineOf),
      hooks: inKeyOrder(view.rows.hookLinesOf),
      compactions: view.rows.compactionRows,
      branch: view.branch,
      isLive: view.isLive,
      page: await document.readPage(0, 500, spec),
    });
  }
  const tree = document.tree();
  const tools = document.toolLines();
  return {
    lines: plain(document.lines),
    views,
    stats: tree.stats,
    parents: [...tree.parent],
    links: tree.parentLink,
    missing: tree.missingParent,
    roots: tree.roots(),
    tools: [inKeyOrder(tools.resultLineOf), inKeyOrder(tools.callLineOf), inKeyOrder(tools.hookLinesOf)],
  };
}

(present ? describe : describe.skip)('saved line index on real Claude Code transcripts', () => {
  let home: ScenarioHome;
  let store: SavedLineIndexes;
  let files: string[] = [];

  beforeAll(async () => {
    home = await createScenarioHome({ prefix: 'ccmem-saved-index-real-' });
    store = new SavedLineIndexes(join(home.tmp, 'transcript-index'), { minFileBytes: 0, saveDelayMs: 0 });
    files = await transcripts(FIXTURES);
  });

  afterAll(async () => home.cleanup());

  it('finds the real transcripts', () => {
    expect(files.length).toBeGreaterThanOrEqual(18);
  });

  it('reopens every real transcript from its saved index with the same lines, views, pages and tree', async () => {
    for (const file of files) {
      const fresh = await TranscriptDocument.open(file);
      const expected = await seen(fresh);
      const first = await TranscriptDocument.open(file, { savedIndexes: store });
      await first.readPage(0, 100);
      await first.saveNow();
      const reopened = await TranscriptDocument.open(file, { savedIndexes: store });
      expect(reopened.index.resumedFrom, file).not.toBeNull();
      expect(await seen(reopened), file).toEqual(expected);
    }
  });

  it('saves every real transcript the same, byte for byte, when its lines are kept in columns (the keeper)', async () => {
    const columnsStore = new SavedLineIndexes(join(home.tmp, 'columns-index'), { minFileBytes: 0, saveDelayMs: 0 });
    for (const file of files) {
      const objects = await TranscriptDocument.open(file, { savedIndexes: store });
      await objects.saveNow();
      const columns = await TranscriptDocument.open(file, { savedIndexes: columnsStore, newLineStore: () => new LineColumnsBuilder() });
      expect(LineColumnsBuilder.of(columns.lines), file).not.toBeNull();
      await columns.saveNow();
      const expected = await readFile(store.fileOf(file));
      expect((await readFile(columnsStore.fileOf(file))).equals(expected), file).toBe(true);
      expect(await seen(columns), file).toEqual(await seen(objects));
    }
  });
});
