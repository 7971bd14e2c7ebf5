import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateHome, type GeneratedHome } from '../../../bench/generator/generateHome';
import { buildScanWorker } from '../../../bench/runner/scanWorkerBuild';
import { discoverSessionFiles } from '../../../electron/core/catalog/catalogDiscovery';
import { ScanOffload } from '../../../electron/core/catalog/ScanOffload';
import { SessionCatalog, type SessionCatalogOptions } from '../../../electron/core/catalog/SessionCatalog';
import { WorkerHeadStart } from '../../../electron/core/catalog/workerHeadStart';
import type { SessionCatalogEntry } from '../../../shared/model/catalog';
import { assistantChunk, userPrompt } from '../../fixtures/transcriptLines';

/** Every saved aggregate state, by file name: the worker must save what the engine's thread would have. */
function savedStates(dataDir: string): Record<string, string> {
  const dir = join(dataDir, 'catalog', 'state');
  return Object.fromEntries(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name), 'utf8')]));
}

describe('catalog builds with the scan worker', () => {
  let tmp: string;
  let home: GeneratedHome;
  let script: string;
  let reference: SessionCatalogEntry[];
  let referenceDataDir: string;
  let count = 0;
  const newDataDir = (): string => join(tmp, `data-${++count}`);

  async function buildOnce(options: Partial<SessionCatalogOptions> & { readonly dataDir: string }, signal?: AbortSignal) {
    const catalog = new SessionCatalog({ roots: [home.root], ...options });
    const result = await catalog.build({ signal, onProgress: () => undefined });
    const listed = catalog.list();
    await catalog.dispose();
    return { result, listed };
  }

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'ccmem-scan-worker-'));
    home = await generateHome({ size: 'small', seed: 11, out: join(tmp, 'home') });
    script = await buildScanWorker(join(tmp, 'worker'));
    referenceDataDir = newDataDir();
    reference = (await buildOnce({ dataDir: referenceDataDir })).listed;
  }, 60_000);
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('shares the reading with the worker and comes to the same catalog and saved states', async () => {
    const dataDir = newDataDir();
    const { result, listed } = await buildOnce({ dataDir, scanWorker: { script, minBuildBytes: 0 } });
    expect(result.cancelled).toBe(false);
    // The biggest session is read first, and by the worker, which takes first.
    expect(result.workerBytes).toBeGreaterThanOrEqual(home.largestTranscript.bytes);
    expect(result.workerBytes).toBeLessThan(result.bytesRead);
    expect(listed).toEqual(reference);
    expect(savedStates(dataDir)).toEqual(savedStates(referenceDataDir));
  });

  it('reads the big session files discovery hands it while discovery goes on, each reply taken once', async () => {
    const offload = new ScanOffload(script);
    const headStart = new WorkerHeadStart(offload, (file, configRoot, slug) => ({
      path: file.path,
      isSubagentFile: false,
      configRoot,
      memoryDir: join(configRoot, 'projects', slug, 'memory'),
      sizeHint: file.size,
      tailBytes: 64,
      stateMinBytes: Infinity,
      stateDir: '',
      fileId: file.fileId,
    }));
    try {
      const mains = (await discoverSessionFiles([home.root], (project) => headStart.offer(project)))
        .flatMap((project) => project.sessions)
        .flatMap((session) => (session.main ? [session.main] : []));
      const big = mains.filter((file) => file.size >= 1024 * 1024);
      const small = mains.find((file) => file.size < 1024 * 1024);
      expect(big.length).toBeGreaterThan(0);
      for (const file of big) {
        const done = await headStart.take(file.path);
        expect(done?.size).toBe(file.size);
        expect(headStart.take(file.path)).toBeUndefined();
      }
      expect(offload.bytesRead).toBe(big.reduce((sum, file) => sum + file.size, 0));
      expect(headStart.take(small!.path)).toBeUndefined();
    } finally {
      await offload.dispose();
    }
  });

  it('leaves builds with less to read than its threshold in the engine thread', async () => {
    const { result, listed } = await buildOnce({ dataDir: newDataDir(), scanWorker: { script, minBuildBytes: home.bytes.total * 2 } });
    expect(result.workerBytes).toBe(0);
    expect(listed).toEqual(reference);
  });

  it('goes on from the state the worker saved when the biggest transcript grows', async () => {
    const dataDir = newDataDir();
    await buildOnce({ dataDir, scanWorker: { script, minBuildBytes: 0 } });
    const { path, sessionId } = home.largestTranscript;
    const original = readFileSync(path);
    const { atime, mtime } = statSync(path);
    try {
      const appended = `\n${userPrompt('one more thing', { sessionId })}\n${assistantChunk({ sessionId, messageId: 'msg_grown', usage: { output: 4321 } })}\n`;
      appendFileSync(path, appended);
      const grown = await buildOnce({ dataDir, scanWorker: { script, minBuildBytes: 0 } });
      // Only what follows the saved offset was read, in the engine's thread (the worker reads whole files only):
      // the held-back partial line (if any) and the new lines.
      expect(grown.result).toMatchObject({ filesRead: 1, workerBytes: 0 });
      expect(grown.result.bytesRead).toBeLessThan(statSync(path).size / 4);
      const fresh = await buildOnce({ dataDir: newDataDir() });
      expect(grown.listed).toEqual(fresh.listed);
      expect(fresh.listed.find((entry) => entry.sessionId === sessionId)?.tokens.output).toBeGreaterThan(
        reference.find((entry) => entry.sessionId === sessionId)!.tokens.output,
      );
    } finally {
      // As generated, so the other tests compare with the same reference.
      writeFileSync(path, original);
      utimesSync(path, atime, mtime);
    }
  });

  it('reads everything in the engine thread when the worker cannot start or dies', async () => {
    const dies = join(tmp, 'dies.mjs');
    writeFileSync(dies, `import { parentPort } from 'node:worker_threads';\nparentPort.once('message', () => process.exit(3));\n`);
    const throws = join(tmp, 'throws.mjs');
    writeFileSync(throws, `throw new Error('a broken worker bundle');\n`);
    for (const broken of [join(tmp, 'missing.mjs'), throws, dies]) {
      const { result, listed } = await buildOnce({ dataDir: newDataDir(), scanWorker: { script: broken, minBuildBytes: 0 } });
      expect(result, broken).toMatchObject({
        cancelled: false,
        workerBytes: 0,
        bytesRead: home.bytes.sessions + home.bytes.subagents - metaBytes(),
      });
      expect(listed, broken).toEqual(reference);
    }
  });

  it('stops when cancelled while the worker reads, and the next build completes the catalog', async () => {
    const dataDir = newDataDir();
    const controller = new AbortController();
    const catalog = new SessionCatalog({ dataDir, roots: [home.root], scanWorker: { script, minBuildBytes: 0 } });
    // Cancelled at the build's first turn of the event loop: files are queued in the worker by then.
    const result = await catalog.build({ signal: controller.signal, onProgress: () => setImmediate(() => controller.abort()) });
    await catalog.dispose();
    expect(result.cancelled).toBe(true);
    expect(result.bytesRead).toBeLessThan(home.bytes.total / 2);
    const again = await buildOnce({ dataDir, scanWorker: { script, minBuildBytes: 0 } });
    expect(again.result.cancelled).toBe(false);
    expect(again.listed).toEqual(reference);
  });

  it('leaves out a transcript deleted after it was found, when the worker was to read it', async () => {
    const { path, sessionId } = home.largestTranscript;
    const original = readFileSync(path);
    const { atime, mtime } = statSync(path);
    try {
      let deleted = false;
      const catalog = new SessionCatalog({ dataDir: newDataDir(), roots: [home.root], scanWorker: { script, minBuildBytes: 0 } });
      // The first progress report comes once every file is found and before any is read.
      const result = await catalog.build({
        onProgress: () => {
          if (!deleted) rmSync(path);
          deleted = true;
        },
      });
      const listed = catalog.list();
      await catalog.dispose();
      expect(result).toMatchObject({ cancelled: false, sessions: reference.length - 1 });
      expect(listed).toEqual(reference.filter((entry) => entry.sessionId !== sessionId));
    } finally {
      writeFileSync(path, original);
      utimesSync(path, atime, mtime);
    }
  });

  /** Sub-agent bytes in the manifest include their `meta.json` files, which the catalog does not count as read. */
  function metaBytes(): number {
    let bytes = 0;
    for (const name of readdirSync(join(home.root, 'projects'), { recursive: true, encoding: 'utf8' }))
      if (name.endsWith('meta.json')) bytes += statSync(join(home.root, 'projects', name)).size;
    return bytes;
  }
});
