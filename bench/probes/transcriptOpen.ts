import { SavedLineIndexes } from '../../electron/core/transcripts/savedLineIndexes';
import { TranscriptDocument } from '../../electron/core/transcripts/TranscriptDocument';
import { serveProbe } from './probeProtocol';

export interface TranscriptOpenInput {
  readonly path: string;
  readonly pageRows: number;
  /** The saved line indexes folder, as the app's (null: none, every open indexes the whole file). */
  readonly savedIndexDir: string | null;
  /** Found nowhere in the transcript: find reads every line of the live branch. */
  readonly findText: string;
}

export interface TranscriptOpenOutput {
  readonly firstPageMs: number;
  readonly rows: number;
  /** Whether the open went on from a saved index instead of reading the whole file. */
  readonly fromSavedIndex: boolean;
  /** The usage chart's first ask (turn by turn usage of the live branch), after the first page. */
  readonly usageMs: number;
  /** Find of `findText` after that. */
  readonly findMs: number;
}

/**
 * Opening a transcript in the viewer: index the file by byte offsets (or load its saved index), then read the first
 * page of its live branch. With a saved-index folder, the index is saved after the timed part, for the next open. Then
 * the usage chart's first ask and a find of a text the transcript does not hold, each timed on its own.
 */
serveProbe<TranscriptOpenInput, TranscriptOpenOutput>(async ({ path, pageRows, savedIndexDir, findText }) => {
  const savedIndexes = savedIndexDir === null ? null : new SavedLineIndexes(savedIndexDir);
  const started = performance.now();
  const document = await TranscriptDocument.open(path, { savedIndexes });
  const page = await document.readPage(0, pageRows);
  const firstPageMs = performance.now() - started;
  if (page.rows.length === 0) throw new Error(`the first page of ${path} is empty`);
  await document.saveNow();
  const usageStarted = performance.now();
  const turns = await document.turnUsage();
  const usageMs = performance.now() - usageStarted;
  if (turns.length === 0) throw new Error(`no turn of ${path} reports its usage`);
  const findStarted = performance.now();
  const found = await document.find(findText, 100);
  const findMs = performance.now() - findStarted;
  if (found.hits.length > 0) throw new Error(`${path} holds ${findText}`);
  return { firstPageMs, rows: page.rows.length, fromSavedIndex: document.index.resumedFrom !== null, usageMs, findMs };
});
