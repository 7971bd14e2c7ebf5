import { TranscriptDocument } from '../../electron/core/transcripts/TranscriptDocument';
import { serveProbe } from './probeProtocol';

export interface TranscriptOpenInput {
  readonly path: string;
  readonly pageRows: number;
}

export interface TranscriptOpenOutput {
  readonly firstPageMs: number;
  readonly rows: number;
}

/** Opening a transcript in the viewer: index the file by byte offsets, then read the first page of its live branch. */
serveProbe<TranscriptOpenInput, TranscriptOpenOutput>(async ({ path, pageRows }) => {
  const started = performance.now();
  const document = await TranscriptDocument.open(path);
  const page = await document.readPage(0, pageRows);
  const firstPageMs = performance.now() - started;
  if (page.rows.length === 0) throw new Error(`the first page of ${path} is empty`);
  return { firstPageMs, rows: page.rows.length };
});
