import type { ReadBuffers } from '../jsonl/fileLineReader';
import type { ScanOffload } from './ScanOffload';

/** How the catalog reads a file: for a build (cancellable, with progress) or for a live update. */
export interface ReadContext {
  readonly signal?: AbortSignal;
  /** Called with the bytes read since the last call. */
  readonly onBytes: (delta: number) => void;
  /** A build's reads share their buffers; a live update's few reads allocate their own. */
  readonly buffers?: ReadBuffers;
  /**
   * A live update keeps the file's aggregate for the next append. A build does not: thousands of aggregates
   * kept a while each would all outlive the young generation and fill the old one with garbage.
   */
  readonly live: boolean;
  /** A build's second thread: whole files read from their start go to it (the rest is read here). */
  readonly offload?: ScanOffload;
}
