import { statSync } from 'node:fs';
import { join } from 'node:path';
import { drainQueue } from '../../electron/core/catalog/buildQueue';
import { summarizeAggregate } from '../../electron/core/catalog/fileSummary';
import { memoryPathMatcher } from '../../electron/core/catalog/memoryPathMatcher';
import { ScanOffload } from '../../electron/core/catalog/ScanOffload';
import { TranscriptAggregate } from '../../electron/core/catalog/transcriptAggregate';
import { scanTranscriptInto } from '../../electron/core/catalog/transcriptFileScan';
import { ReadBuffers } from '../../electron/core/jsonl/fileLineReader';
import { serveProbe } from './probeProtocol';

/** The catalog's read-parallelism on the engine's thread (CatalogBuild's READ_PARALLELISM). */
const READ_PARALLELISM = 3;
const TAIL_BYTES = 64;

export interface ScanCeilingInput {
  readonly root: string;
  readonly files: readonly string[];
  /** The built catalog scan worker, for the second thread; null: this thread alone. */
  readonly scanWorker: string | null;
}

export interface ScanCeilingOutput {
  readonly bytes: number;
  readonly seconds: number;
  /** CPU time of the whole process (both threads, the garbage collector's and the thread pool's). */
  readonly cpuSeconds: number;
}

interface ScanItem {
  readonly path: string;
  readonly size: number;
}

/**
 * The catalog's reading alone, as fast as it can go on this machine: every transcript read from its start by the
 * catalog's own reader, line scanner and aggregate, biggest first, on this thread or shared with the scan worker
 * through the build's own queue, and summarised, with nothing else a build does (no discovery, no cache, no session
 * records, no saved states). A cold build cannot beat the two-thread figure; what it adds is the rest of its work.
 */
serveProbe<ScanCeilingInput, ScanCeilingOutput>(async ({ root, files, scanWorker }) => {
  const items: ScanItem[] = files.map((path) => ({ path, size: statSync(path).size })).sort((a, b) => b.size - a.size);
  const memoryDir = join(root, 'projects', 'memory');
  const isMemoryPath = memoryPathMatcher(root, memoryDir);
  const buffers = new ReadBuffers();
  let bytes = 0;
  const readInThread = async ({ path, size }: ScanItem): Promise<void> => {
    const aggregate = new TranscriptAggregate(isMemoryPath, false);
    const result = await scanTranscriptInto(path, aggregate, { fromOffset: 0, sizeHint: size, tailBytes: TAIL_BYTES, buffers });
    summarizeAggregate(aggregate);
    bytes += result.size;
  };
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const offload = scanWorker ? new ScanOffload(scanWorker) : null;
  try {
    await drainQueue(items, {
      parallelism: READ_PARALLELISM,
      readInThread,
      worker: offload
        ? {
            load: offload,
            bytesOf: (item) => item.size,
            accepts: (item) => item.size > 0,
            read: async (item) => {
              const job = {
                path: item.path,
                isSubagentFile: false,
                configRoot: root,
                memoryDir,
                sizeHint: item.size,
                tailBytes: TAIL_BYTES,
              };
              const done = await offload.scan({ ...job, stateMinBytes: Infinity, stateDir: '', fileId: '' }, () => undefined);
              if (done) bytes += done.size;
              else await readInThread(item);
            },
          }
        : undefined,
      stopped: () => false,
    });
  } finally {
    await offload?.dispose();
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  return { bytes, seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6 };
});
