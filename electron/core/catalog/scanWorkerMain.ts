import { parentPort } from 'node:worker_threads';
import { summarizeAggregate } from './fileSummary';
import { ReadBuffers } from '../jsonl/fileLineReader';
import { memoryPathMatcher } from './memoryPathMatcher';
import type { ScanJob, ScanWorkerReply } from './scanWorkerProtocol';
import { TranscriptAggregate } from './transcriptAggregate';
import { scanTranscriptInto } from './transcriptFileScan';
import { saveStateFileSync } from './catalogStateFile';

/**
 * The catalog's second thread: reads whole transcripts from their start for a build, exactly as the engine's
 * thread would (same reader, parser and aggregate), saves the aggregate's state of a big one, and sends back each
 * file's summary. Built into its own
 * self-contained bundle (vite.worker.config.ts), since a worker thread cannot load the TypeScript sources.
 */
const BYTES_REPORT_INTERVAL_MS = 100;

const port = parentPort;
if (!port) throw new Error('the catalog scan worker must run in a worker thread');
const buffers = new ReadBuffers();
/** Jobs run one after another: this thread is a second core for the build, not a pool. A cancelled build terminates it. */
let queue: Promise<void> = Promise.resolve();

function reply(message: ScanWorkerReply): void {
  port!.postMessage(message);
}

async function scan(job: ScanJob): Promise<void> {
  try {
    const aggregate = new TranscriptAggregate(memoryPathMatcher(job.configRoot, job.memoryDir), job.isSubagentFile);
    let reportedAt = performance.now();
    const result = await scanTranscriptInto(job.path, aggregate, {
      fromOffset: 0,
      tailBytes: job.tailBytes,
      sizeHint: job.sizeHint,
      buffers,
      onBytes: (bytes) => {
        const now = performance.now();
        if (now - reportedAt < BYTES_REPORT_INTERVAL_MS) return;
        reportedAt = now;
        reply({ type: 'bytes', id: job.id, bytes });
      },
    });
    if (result.offset >= job.stateMinBytes)
      saveStateFileSync(job.stateDir, job.path, job.fileId, result.offset, JSON.stringify(aggregate.stateView()));
    reply({
      type: 'done',
      id: job.id,
      offset: result.offset,
      size: result.size,
      tailHex: result.tail.toString('hex'),
      summary: summarizeAggregate(aggregate),
    });
  } catch {
    reply({ type: 'failed', id: job.id });
  }
}

port.on('message', (job: ScanJob) => {
  queue = queue.then(() => scan(job));
});
