import { appendFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HomeSnapshot } from '../../../shared/model/home';
import type { HomeService } from '../../../electron/core/home/HomeService';
import { createLiveHome, type LiveHome } from '../../../electron/core/watch/liveHome';
import type { WatchedChange } from '../../../electron/core/watch/watchedChange';
import { createStandardScenario, seededUuid, type StandardScenario } from '../../fixtures/scenarioHome';
import { startWatchedHome } from '../../fixtures/watchedHome';

function nextChange(live: LiveHome, predicate: (change: WatchedChange) => boolean, timeoutMs = 5000): Promise<WatchedChange> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no matching change event')), timeoutMs);
    const stop = live.onDidChange((changes) => {
      const hit = changes.find(predicate);
      if (hit) {
        clearTimeout(timer);
        stop();
        resolve(hit);
      }
    });
  });
}

function nextHome(home: HomeService, predicate: (snapshot: HomeSnapshot) => boolean, timeoutMs = 5000): Promise<HomeSnapshot> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no matching home snapshot')), timeoutMs);
    const stop = home.onDidChangeHome((snapshot) => {
      if (predicate(snapshot)) {
        clearTimeout(timer);
        stop();
        resolve(snapshot);
      }
    });
  });
}

describe('live home: the watcher keeps the project list current', () => {
  let scenario: StandardScenario;
  let home: HomeService;
  let live: LiveHome;

  beforeEach(async () => {
    scenario = await createStandardScenario();
    ({ home, live } = await startWatchedHome(scenario.home));
  });

  afterEach(async () => {
    await live.dispose();
    await scenario.home.cleanup();
  });

  it('sees a new session appear and pushes a new snapshot with the count moved', async () => {
    const sessionId = seededUuid('live-new-session');
    const file = join(scenario.webshop.dir, `${sessionId}.jsonl`);
    const change = nextChange(live, (c) => c.kind === 'transcript' && c.sessionId === sessionId);
    const snapshot = nextHome(
      home,
      (s) => s.projects.find((p) => p.slug === scenario.webshop.slug)?.sessionCount === scenario.webshop.sessions.length + 1,
    );
    await writeFile(
      file,
      `${JSON.stringify({ type: 'user', cwd: scenario.webshop.path, timestamp: '2026-11-01T10:00:00.000Z', message: { role: 'user', content: 'hi' } })}\n`,
    );
    expect(await change).toMatchObject({ kind: 'transcript', event: 'add', slug: scenario.webshop.slug, configRoot: scenario.home.root });
    await snapshot;
  });

  it('classifies memory edits and lock changes by memory folder', async () => {
    const memoryEdit = nextChange(live, (c) => c.kind === 'memory-file');
    await appendFile(join(scenario.webshop.memoryDir, scenario.webshop.topicFiles[0]), '\nmore\n');
    expect(await memoryEdit).toMatchObject({
      kind: 'memory-file',
      event: 'change',
      memoryDir: scenario.webshop.memoryDir,
      relativePath: scenario.webshop.topicFiles[0],
    });
    const lock = nextChange(live, (c) => c.kind === 'consolidation-lock');
    await writeFile(join(scenario.webshop.memoryDir, '.consolidate-lock'), '');
    expect(await lock).toMatchObject({ kind: 'consolidation-lock', memoryDir: scenario.webshop.memoryDir });
  });

  it('swallows the events of our own announced writes, but not of others', async () => {
    const [ours, theirs] = scenario.webshop.topicFiles.map((rel) => join(scenario.webshop.memoryDir, rel));
    const seen: string[] = [];
    live.onDidChange((changes) => seen.push(...changes.map((c) => c.path)));
    live.expectOwnWrite(ours);
    await appendFile(ours, '\nours\n');
    const foreign = nextChange(live, (c) => c.path === theirs);
    await appendFile(theirs, '\ntheirs\n');
    await foreign;
    expect(seen).not.toContain(ours);
  });

  it('watches nothing before start(), and keeps own writes announced before it', async () => {
    const waiting = createLiveHome(home);
    try {
      let readyYet = false;
      void waiting.ready.then(() => (readyYet = true));
      const [ours, theirs] = scenario.webshop.topicFiles.map((rel) => join(scenario.webshop.memoryDir, rel));
      waiting.expectOwnWrite(ours);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(readyYet).toBe(false);

      waiting.start();
      await waiting.ready;
      const seen: string[] = [];
      waiting.onDidChange((changes) => seen.push(...changes.map((c) => c.path)));
      await appendFile(ours, '\nours\n');
      const foreign = nextChange(waiting, (c) => c.path === theirs);
      await appendFile(theirs, '\ntheirs\n');
      await foreign;
      expect(seen).not.toContain(ours);
    } finally {
      await waiting.dispose();
    }
  });
});
