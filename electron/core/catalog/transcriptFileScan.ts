import { readJsonlLines, type JsonlReadResult, type ReadBuffers } from '../jsonl/fileLineReader';
import type { TranscriptAggregate } from './transcriptAggregate';
import { isBlankLine, parseTranscriptLine } from './transcriptLineParser';

export interface ScanOptions {
  readonly fromOffset: number;
  readonly signal?: AbortSignal;
  readonly onBytes?: (bytes: number) => void;
  readonly tailBytes?: number;
  readonly sizeHint?: number;
  readonly buffers?: ReadBuffers;
}

/** Feeds one complete line (without its newline) into an aggregate: blank, unreadable, or a record. */
export function feedTranscriptLine(aggregate: TranscriptAggregate, line: Buffer): void {
  if (isBlankLine(line)) return aggregate.blankLine();
  const record = parseTranscriptLine(line);
  if (record) aggregate.add(record);
  else aggregate.badLine();
}

/**
 * Feeds the complete lines of a transcript, from `fromOffset` on, into an aggregate. Bad and over-long
 * lines are counted in the aggregate; a partial last line is left for the next scan.
 */
export function scanTranscriptInto(path: string, aggregate: TranscriptAggregate, options: ScanOptions): Promise<JsonlReadResult> {
  return readJsonlLines(path, {
    fromOffset: options.fromOffset,
    linesBefore: aggregate.lines,
    signal: options.signal,
    onBytes: options.onBytes,
    tailBytes: options.tailBytes,
    sizeHint: options.sizeHint,
    buffers: options.buffers,
    onLine: (line) => feedTranscriptLine(aggregate, line),
    onOversizedLine: () => aggregate.badLine(),
  });
}
