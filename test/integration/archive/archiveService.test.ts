import { appendFile, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ArchiveProgress, ArchiveStatus } from '../../../shared/model/archive';
import { backgroundHeapGrowth } from '../../../electron/core/async/backgroundHeapGrowth';
import { CatalogService } from '../../../electron/core/catalog/CatalogService';
import { archiveDir } from '../../../electron/core/history/archive/archiveDir';
import { ArchiveService } from '../../../electron/core/history/archive/ArchiveService';
import { TranscriptArchive } from '../../../electron/core/history/archive/TranscriptArchive';
import { seededUuid } from '../../fixtures/sessionLines';
import { createStandardScenario, type StandardScenario } from '../../fixtures/standardScenario';
import { startWatchedHome, type WatchedHome } from '../../fixtures/watchedHome';
import { userPrompt } from '../../fixtures/transcriptLines';
import { candidateFor, fingerprint, readArchived } from './archiveCandidates';

/** Polls until `probe` gives a value (the machine is shared: no timing is asserted, only that it happens). */
async function until<T>(probe: () => Promise<T | null | undefined> | T | null | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null && value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const FAST = { liveDelayMs: 50, liveMaxDelayMs: 200, startDelayMs: 10 };

describe('ArchiveService in an app shell', () => {
  let scenario: StandardScenario;
  let watched: WatchedHome;
  let catalog: CatalogService;
  let transcriptArchive: TranscriptArchive;
  let service: ArchiveService;
  const progress: ArchiveProgress[] = [];
  const changes: ArchiveStatus[] = [];

  beforeEach(async () => {
    scenario = await createStandardScenario();
    watched = await startWatchedHome(scenario.home);
    transcriptArchive = new TranscriptArchive(archiveDir(watched.dataDir));
    catalog = new CatalogService({
      home: watched.home,
      live: watched.live,
      dataDir: watched.dataDir,
      roots: [scenario.home.root],
      scanWorker: null,
      archive: transcriptArchive,
    });
    service = new ArchiveService({ archive: transcriptArchive, catalog, home: watched.home, follow: true, timing: FAST });
    progress.length = 0;
    changes.length = 0;
    service.onDidProgress((event) => progress.push(event));
    service.onDidChange((status) => changes.push(status));
  });
  afterEach(async () => {
    await service.dispose();
    await catalog.dispose();
    await watched.dispose();
    await scenario.home.cleanup();
  });

  it('archives after the catalog first builds, then follows appends and deletions', async () => {
    service.start(Promise.resolve());
    const first = await until(() => changes.find((status) => status.sessions === 6));
    expect(first).toMatchObject({ deletedSessions: 0, enabled: true });
    expect(progress[0]).toMatchObject({ running: true });
    expect(progress).toContainEqual(expect.objectContaining({ running: false, cancelled: false, filesDone: 6, filesTotal: 6 }));

    const session = scenario.webshop.sessions[1];
    await appendFile(session.file, `${userPrompt('one more thing', { sessionId: session.sessionId })}\n`);
    const bytes = await readFile(session.file);
    await until(() => (transcriptArchive.record(session.file)?.bytes === bytes.length ? true : null));
    expect(fingerprint(await readArchived(transcriptArchive, session.file))).toEqual(fingerprint(bytes));

    await rm(session.file);
    const after = await until(() => changes.find((status) => status.deletedSessions === 1));
    expect(after.sessions).toBe(6);
    const entry = await until(() => catalog.catalog.get(scenario.home.root, scenario.webshop.slug, session.sessionId));
    expect(entry.archived).toBe(true);
  });

  it('starts a background run only once what it waits for (the line index keeper) is done', async () => {
    await service.dispose();
    let open = (): void => undefined;
    const gate = new Promise<void>((resolve) => (open = resolve));
    service = new ArchiveService({
      archive: transcriptArchive,
      catalog,
      home: watched.home,
      follow: true,
      waitBeforeRun: () => gate,
      timing: FAST,
    });
    service.onDidProgress((event) => progress.push(event));
    await catalog.buildNow();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(progress).toEqual([]);
    expect(transcriptArchive.files()).toEqual([]);
    open();
    await until(() => progress.find((event) => !event.running && event.filesDone === 6));
    expect(transcriptArchive.files()).toHaveLength(6);
  });

  it('reads the catalog’s files before a run that comes ahead of any build (a warm start lists from the saved listing alone)', async () => {
    const options = { home: watched.home, live: watched.live, dataDir: watched.dataDir, roots: [scenario.home.root], scanWorker: null };
    const lastRun = new CatalogService({ ...options, archive: transcriptArchive });
    await lastRun.buildNow();
    await lastRun.dispose();
    await catalog.preloadCache();
    expect(catalog.catalog.list()).toHaveLength(6);
    expect(await service.bringUpToDate()).toMatchObject({ filesChecked: 6, filesArchived: 6 });
    expect(transcriptArchive.files()).toHaveLength(6);
  });

  it('holds the heap’s growth while it archives, and gives it back after', async () => {
    const heldInUpdate: boolean[] = [];
    const update = transcriptArchive.update.bind(transcriptArchive);
    transcriptArchive.update = (...args: Parameters<TranscriptArchive['update']>) => {
      heldInUpdate.push(backgroundHeapGrowth.held);
      return update(...args);
    };
    await catalog.buildNow();
    await service.bringUpToDate();
    expect(transcriptArchive.files()).toHaveLength(6);
    expect(heldInUpdate.length).toBeGreaterThan(0);
    expect(heldInUpdate.every(Boolean)).toBe(true);
    expect(backgroundHeapGrowth.held).toBe(false);
  });

  it('does nothing while turned off, and catches up when turned on again', async () => {
    const off = await service.setSettings({ enabled: false });
    expect(off).toMatchObject({ enabled: false, sessions: 0 });
    expect(off.warnings).toEqual([expect.stringMatching(/^The archive is off/)]);
    await catalog.buildNow();
    await service.update();
    expect(await service.bringUpToDate()).toBeNull();
    expect((await service.status()).sessions).toBe(0);
    await service.setSettings({ enabled: true });
    await until(async () => ((await service.status()).sessions === 6 ? true : null));
  });
});

describe('cancelling an archive run', () => {
  it('stops after the frame being written, keeps what it wrote byte-exact, and goes on from there', async () => {
    const scenario = await createStandardScenario();
    try {
      const session = scenario.webshop.sessions[0];
      const filler = Array.from({ length: 40_000 }, (_, i) => `${seededUuid(`w${i % 500}`).slice(0, 8)} ${i}`).join(' ');
      for (let i = 0; i < 8; i++) await appendFile(session.file, `${userPrompt(filler, { sessionId: session.sessionId })}\n`);
      const archive = new TranscriptArchive(join(scenario.home.tmp, 'data', 'archive'));
      const candidate = () =>
        candidateFor({ path: session.file, configRoot: scenario.home.root, slug: scenario.webshop.slug, sessionId: session.sessionId });
      const controller = new AbortController();
      const result = await archive.update([candidate()], {
        signal: controller.signal,
        onProgress: (event) => {
          if (event.bytesDone > 0) controller.abort();
        },
      });
      expect(result.cancelled).toBe(true);
      const partial = archive.record(session.file)!;
      const bytes = await readFile(session.file);
      expect(partial.bytes).toBeGreaterThan(0);
      expect(partial.bytes).toBeLessThan(bytes.length);
      expect(fingerprint(await readArchived(archive, session.file))).toEqual(fingerprint(bytes.subarray(0, partial.bytes)));
      expect(await archive.update([candidate()])).toMatchObject({ cancelled: false, filesRewritten: 0 });
      expect(fingerprint(await readArchived(archive, session.file))).toEqual(fingerprint(bytes));
      await archive.dispose();
    } finally {
      await scenario.home.cleanup();
    }
  });
});
