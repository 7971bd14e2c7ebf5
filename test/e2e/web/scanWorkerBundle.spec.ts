import { test, expect } from '@playwright/test';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { bundledScanWorkerScript } from '../../../electron/core/catalog/scanWorkerScript';
import type { ScanJob, ScanWorkerReply } from '../../../electron/core/catalog/scanWorkerProtocol';
import { assistantChunk, userPrompt } from '../../fixtures/transcriptLines';

const out = resolve(import.meta.dirname, '../../../out');

/** `npm run build` must leave the scan worker where the app and the CLI look for it, and it must run on its own. */
test('the build puts a working catalog scan worker beside the app and CLI bundles', async () => {
  const script = bundledScanWorkerScript(join(out, 'cli'));
  expect(script, 'out/worker/catalogScanWorker.mjs, from vite.worker.config.ts').not.toBeNull();
  expect(bundledScanWorkerScript(join(out, 'main'))).toBe(script);

  const tmp = mkdtempSync(join(tmpdir(), 'ccmem-worker-bundle-'));
  const path = join(tmp, 'session.jsonl');
  writeFileSync(path, `${userPrompt('hello')}\n${assistantChunk({ messageId: 'msg_1', usage: { output: 42 } })}\n`);
  const worker = new Worker(script!, { execArgv: [] });
  try {
    const reply = new Promise<ScanWorkerReply>((resolveReply) => worker.on('message', resolveReply));
    const job: ScanJob = {
      id: 1,
      path,
      isSubagentFile: false,
      configRoot: tmp,
      memoryDir: join(tmp, 'memory'),
      sizeHint: 0,
      tailBytes: 8,
      stateMinBytes: 0,
      stateDir: join(tmp, 'state'),
      fileId: '1:1',
    };
    worker.postMessage(job);
    const done = await reply;
    expect(done).toMatchObject({
      type: 'done',
      id: 1,
      summary: { lines: 2, userPrompts: 1, firstPrompt: 'hello', tokens: { output: 42 } },
    });
    // Read past `stateMinBytes`, so the worker saved the file's state itself.
    expect(readdirSync(join(tmp, 'state'))).toHaveLength(1);
  } finally {
    await worker.terminate();
    rmSync(tmp, { recursive: true, force: true });
  }
});
