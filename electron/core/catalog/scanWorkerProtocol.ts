import type { FileSummary } from './fileSummary';

/** One transcript for the scan worker to read from its start, as a catalog build would read it in-thread. */
export interface ScanJob {
  readonly id: number;
  readonly path: string;
  readonly isSubagentFile: boolean;
  /** With `memoryDir`, what the worker rebuilds the project's memory path test from (a function cannot be sent). */
  readonly configRoot: string;
  readonly memoryDir: string;
  readonly sizeHint: number;
  readonly tailBytes: number;
  /** Files read this far or further have their aggregate's state saved, for the next read to go on from. */
  readonly stateMinBytes: number;
  /** The catalog's state folder, where the worker saves those states itself (`saveStateFileSync`). */
  readonly stateDir: string;
  /** The file's identity as the saved state names it. */
  readonly fileId: string;
}

export interface ScanDone {
  readonly type: 'done';
  readonly id: number;
  readonly offset: number;
  /** Where the file ended when the read stopped (the bytes read, for progress). */
  readonly size: number;
  readonly tailHex: string;
  readonly summary: FileSummary;
}

export type ScanWorkerReply =
  | { readonly type: 'bytes'; readonly id: number; readonly bytes: number }
  | ScanDone
  /** The worker could not read the file (gone, unreadable): the engine reads it itself, and reports why if it fails too. */
  | { readonly type: 'failed'; readonly id: number };
