import { backgroundHeapGrowth } from '../../../electron/core/async/backgroundHeapGrowth';
import { appendFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionUpdate } from '../../../shared/model/catalog';
import type { RequestHandlers } from '../../../shared/contract/api';
import { dispatchRequest } from '../../../shared/contract/dispatch';
import { CatalogService } from '../../../electron/core/catalog/CatalogService';
import type { HomeService } from '../../../electron/core/home/HomeService';
import type { LiveHome } from '../../../electron/core/watch/liveHome';
import { seededUuid } from '../../fixtures/sessionLines';
import { createStandardScenario, type StandardScenario } from '../../fixtures/standardScenario';
import { assistantChunk, userPrompt } from '../../fixtures/transcriptLines';
import { startWatchedHome } from '../../fixtures/watchedHome';
import { createTestHomeService } from '../../fixtures/testEngine';

function nextUpdate(service: CatalogService, predicate: (update: SessionUpdate) => boolean, timeoutMs = 5000): Promise<SessionUpdate> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no matching sessionUpdated event')), timeoutMs);
    const stop = service.onDidUpdateSessions((update) => {
      if (!predicate(update)) return;
      clearTimeout(timer);
      stop();
      resolve(update);
    });
  });
}

async function settled(service: CatalogService): Promise<void> {
  for (let i = 0; i < 200 && (await service.listing({})).building; i++) await new Promise((resolve) => setTimeout(resolve, 25));
}

describe('live catalog: a session updates in place as Claude Code appends', () => {
  let scenario: StandardScenario;
  let home: HomeService;
  let live: LiveHome;
  let service: CatalogService;

  beforeEach(async () => {
    scenario = await createStandardScenario();
    ({ home, live } = await startWatchedHome(scenario.home));
    service = new CatalogService({ home, live, dataDir: join(scenario.home.tmp, 'data'), roots: [scenario.home.root], scanWorker: null });
  });

  afterEach(async () => {
    await service.dispose();
    await live.dispose();
    home.dispose();
    await scenario.home.cleanup();
  });

  it('builds in the background with the heap’s growth held, and gives it back after', async () => {
    const heldWhileBuilding: boolean[] = [];
    service.onDidProgress((progress) => {
      if (progress.running) heldWhileBuilding.push(backgroundHeapGrowth.held);
    });
    await service.listing({});
    await settled(service);
    expect(heldWhileBuilding.length).toBeGreaterThan(0);
    expect(heldWhileBuilding.every(Boolean)).toBe(true);
    expect(backgroundHeapGrowth.held).toBe(false);
  });

  it('serves the cache at once, refreshes in the background, then follows appends, new sessions and deletions', async () => {
    // Nothing cached yet: the answer comes at once, with discovery's reads of the sessions in place of the catalog's.
    const first = await service.listing({});
    expect(first.building).toBe(true);
    expect(first.sessions.length).toBeGreaterThan(0);
    expect(first.sessions.every((entry) => entry.provisional === true && entry.userPrompts === 0)).toBe(true);
    await settled(service);
    expect((await service.listing({})).sessions.some((entry) => entry.provisional)).toBe(false);
    const session = scenario.webshop.sessions[0];
    const before = (await service.listing({ slug: scenario.webshop.slug })).sessions.find((s) => s.sessionId === session.sessionId)!;
    expect(before.userPrompts).toBe(3);

    const grown = nextUpdate(service, (u) => u.updated.some((s) => s.sessionId === session.sessionId));
    await appendFile(
      session.file,
      `${userPrompt('One more thing', { sessionId: session.sessionId, timestamp: '2026-06-02T00:00:00.000Z' })}\n${assistantChunk({
        sessionId: session.sessionId,
        messageId: 'msg_live',
        usage: { output: 77 },
        timestamp: '2026-06-02T00:00:05.000Z',
      })}\n`,
    );
    const update = await grown;
    const after = update.updated.find((s) => s.sessionId === session.sessionId)!;
    expect(after).toMatchObject({ userPrompts: 4, assistantTurns: before.assistantTurns + 1, lastTimestamp: '2026-06-02T00:00:05.000Z' });
    expect(after.tokens.output).toBe(before.tokens.output + 77);

    const newId = seededUuid('live-catalog-new');
    const added = nextUpdate(service, (u) => u.updated.some((s) => s.sessionId === newId));
    await appendFile(join(scenario.webshop.dir, `${newId}.jsonl`), `${userPrompt('A brand new session', { sessionId: newId })}\n`);
    expect((await added).updated.find((s) => s.sessionId === newId)).toMatchObject({ title: 'A brand new session', userPrompts: 1 });

    const removed = nextUpdate(service, (u) => u.removed.some((s) => s.sessionId === newId));
    await rm(join(scenario.webshop.dir, `${newId}.jsonl`));
    expect((await removed).removed).toEqual([{ configRoot: scenario.home.root, slug: scenario.webshop.slug, sessionId: newId }]);
  });
});

describe('the catalog listing in pages', () => {
  let scenario: StandardScenario;
  let service: CatalogService;
  let handlers: Pick<RequestHandlers, 'getSessionCatalog'>;

  beforeEach(async () => {
    scenario = await createStandardScenario();
    const home = createTestHomeService(scenario.home);
    service = new CatalogService({
      home,
      live: null,
      dataDir: join(scenario.home.tmp, 'data'),
      roots: [scenario.home.root],
      scanWorker: null,
    });
    handlers = { getSessionCatalog: (request) => service.listing(request) };
    await service.buildNow();
  });

  afterEach(async () => {
    await service.dispose();
    await scenario.home.cleanup();
  });

  const ask = (args: unknown) => dispatchRequest(handlers as RequestHandlers, 'getSessionCatalog', args, { readOnly: true });

  it('hands out the listing a page at a time, in the order of its first page, whatever changed meanwhile', async () => {
    const whole = await service.listing({});
    expect(whole).toMatchObject({ total: 6, snapshot: null });
    const first = await service.listing({ limit: 4 });
    expect(first.sessions).toEqual(whole.sessions.slice(0, 4));
    expect(first.total).toBe(6);
    expect(first.snapshot).not.toBeNull();
    // A session goes away before the next page: the page still goes on from the first one's order.
    await rm(whole.sessions[0].path);
    await service.buildNow();
    expect((await service.listing({})).total).toBe(5);
    const rest = await service.listing({ snapshot: first.snapshot!, offset: 4, limit: 4 });
    expect(rest.sessions).toEqual(whole.sessions.slice(4));
    expect(rest.snapshot).toBeNull();
    // A listing that fits its first page names no snapshot.
    expect((await service.listing({ limit: 10 })).snapshot).toBeNull();
  });

  it('says so when a later page names a listing no longer kept, or an offset without its listing', async () => {
    const gone = await ask({ snapshot: 'listing-999', offset: 4, limit: 4 });
    expect(gone).toMatchObject({ ok: false, error: { code: 'NOT_FOUND' } });
    expect(await ask({ offset: 4 })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
    expect(await ask({ limit: 0 })).toMatchObject({ ok: false, error: { code: 'INVALID_INPUT' } });
  });
});
