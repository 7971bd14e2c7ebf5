import { basename, dirname } from 'node:path';
import { LIVE_VIEW } from '../../shared/transcript/transcriptOutline';
import { createWebShellEngine } from './webShellEngine';
import { serveProbe } from './probeProtocol';

export interface TranscriptViewerOpenInput {
  readonly root: string;
  /** A copy of the app data a first start left (its saved line indexes among it). */
  readonly dataDir: string;
  /** The session file to open, under `<root>/projects/<slug>/`. */
  readonly path: string;
  readonly pageRows: number;
}

export interface TranscriptViewerOpenOutput {
  /** From the viewer's first request to the answer of its second: the outline, then the first page of rows. */
  readonly firstPageMs: number;
  readonly subagents: number;
  readonly rows: number;
}

/**
 * Opening a transcript as the viewer does, through the engine's requests: `openTranscript` (the outline: title,
 * branches, compactions, sub-agents linked to their calls, resume commands), then `readTranscriptPage` of the first
 * rows. The engine is the web shell's, not watching, in a new process over a copy of the first start's app data, with
 * the home found first, as the window has it before a transcript can be opened.
 */
serveProbe<TranscriptViewerOpenInput, TranscriptViewerOpenOutput>(async ({ root, dataDir, path, pageRows }) => {
  const engine = await createWebShellEngine({ root, dataDir, watch: false });
  // The window has the home before it opens a transcript: the outline reads a session's title from its listing.
  await engine.home.getHome();
  const ref = { configRoot: root, slug: basename(dirname(path)), sessionId: basename(path, '.jsonl') };
  const started = performance.now();
  const outline = await engine.handlers.openTranscript({ ...ref, view: LIVE_VIEW, focusLine: null });
  const page = await engine.handlers.readTranscriptPage({ ...ref, view: LIVE_VIEW, start: 0, limit: pageRows });
  const firstPageMs = performance.now() - started;
  if (page.rows.length === 0) throw new Error(`the first page of ${path} is empty`);
  void engine.dispose();
  return { firstPageMs, subagents: outline.subagents.length, rows: page.rows.length };
});
