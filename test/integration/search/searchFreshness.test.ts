import { appendFile, readFile, readdir, rm, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HomeSearch } from '../../../electron/core/search/HomeSearch';
import { HomeWatcher } from '../../../electron/core/watch/HomeWatcher';
import { createScenarioHome, type ProjectBuilder, type ScenarioHome } from '../../fixtures/scenarioHome';
import { seededUuid } from '../../fixtures/sessionLines';
import { userPrompt } from '../../fixtures/transcriptLines';

const WORD = 'heron';

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(path)));
    else if (/\.(jsonl|md)$/.test(entry.name)) out.push(path);
  }
  return out;
}

/**
 * What a search must report, worked out without the search code: every line of every transcript and
 * memory file that holds the word, once, by file newest first (ties by path), then by line.
 */
async function expectedHits(root: string): Promise<string[]> {
  const files = await Promise.all((await filesUnder(join(root, 'projects'))).map(async (path) => ({ path, stats: await stat(path) })));
  files.sort((a, b) => b.stats.mtimeMs - a.stats.mtimeMs || a.path.localeCompare(b.path));
  const hits: string[] = [];
  for (const { path } of files) {
    const lines = (await readFile(path, 'utf8')).split('\n');
    for (const [index, text] of lines.entries()) if (text.toLowerCase().includes(WORD)) hits.push(`${path}:${index + 1}`);
  }
  return hits;
}

async function reportedHits(search: HomeSearch): Promise<string[]> {
  const hits: string[] = [];
  await search.search(WORD, { limit: 10_000, onHit: (hit) => hits.push(`${hit.path}:${hit.line}`) });
  return hits;
}

function transcript(sessionId: string, prompts: readonly string[]): string {
  return `${prompts.map((text) => userPrompt(text, { sessionId })).join('\n')}\n`;
}

/** Resolves once the watcher has reported every one of `paths` (a kept listing learns of changes only from it). */
function reported(watcher: HomeWatcher | null, paths: readonly string[]): { done: Promise<void>; stop: () => void } {
  if (!watcher) return { done: Promise.resolve(), stop: () => undefined };
  const waiting = new Set(paths);
  let stop = (): void => undefined;
  const done = new Promise<void>((resolve) => {
    stop = watcher.onDidChange((changes) => {
      for (const change of changes) waiting.delete(change.path);
      if (waiting.size === 0) resolve();
    });
  });
  return { done, stop };
}

describe.each([
  { listing: 'listed afresh by every search', keep: false },
  { listing: 'kept between searches and followed by a watcher', keep: true },
])('HomeSearch across changes between searches, its listing $listing', ({ keep }) => {
  let home: ScenarioHome;
  let shop: ProjectBuilder;
  let docs: ProjectBuilder;
  let search: HomeSearch;
  let watcher: HomeWatcher | null = null;
  const first = seededUuid('fresh-first');
  const second = seededUuid('fresh-second');
  const third = seededUuid('fresh-third');

  beforeAll(async () => {
    home = await createScenarioHome();
    shop = home.project(home.workPath('shop'));
    docs = home.project(home.workPath('docs'));
    await shop.rawFile(`${first}.jsonl`, transcript(first, ['a heron', 'nothing', `Heron again, ${'and again '.repeat(40)}heron`]), {
      mtime: '2026-05-01T00:00:00.000Z',
    });
    await shop.rawFile(`${first}/subagents/agent-s1.jsonl`, transcript(first, ['sub-agent heron']), { mtime: '2026-05-02T00:00:00.000Z' });
    await docs.rawFile(`${second}.jsonl`, transcript(second, ['nothing', 'heron']), { mtime: '2026-05-03T00:00:00.000Z' });
    await docs.memory('topic.md', '# Birds\n\nThe heron note.\n', { mtime: '2026-05-04T00:00:00.000Z' });
    // Small ranges, so files are scanned in several parts: a line with the word in two parts is still one hit.
    search = new HomeSearch({ roots: [home.root], unitBytes: 256, keepListing: keep });
    if (keep) {
      watcher = new HomeWatcher({ configRoots: [home.root], memoryDirs: [] });
      await watcher.start();
      watcher.onDidChange((changes) => search.filesChanged(changes.map(({ event, path }) => ({ event, path }))));
    }
  });
  afterAll(async () => {
    await search.dispose();
    await watcher?.dispose();
    await home.cleanup();
  });

  it('reports every line once, newest file first', async () => {
    const hits = await reportedHits(search);
    expect(hits).toEqual(await expectedHits(home.root));
    expect(hits).toHaveLength(5);
    expect(new Set(hits).size).toBe(hits.length);
  });

  it('finds files created, grown and touched since the previous search, in their new place, and skips deleted ones', async () => {
    await reportedHits(search);
    const grown = join(shop.dir, `${first}.jsonl`);
    const changes = reported(watcher, [
      join(shop.dir, `${third}.jsonl`),
      join(docs.memoryDir, 'later.md'),
      join(shop.dir, third, 'subagents', 'agent-s2.jsonl'),
      grown,
      join(docs.dir, `${second}.jsonl`),
    ]);
    await shop.rawFile(`${third}.jsonl`, transcript(third, ['brand new heron']), { mtime: '2026-06-01T00:00:00.000Z' });
    await docs.memory('later.md', 'A later heron.\n', { mtime: '2026-05-20T00:00:00.000Z' });
    await shop.rawFile(`${third}/subagents/agent-s2.jsonl`, transcript(third, ['new sub-agent heron']), {
      mtime: '2026-05-10T00:00:00.000Z',
    });
    // The oldest session grows and so becomes the newest file.
    await appendFile(grown, transcript(first, ['one more heron']));
    await utimes(grown, new Date('2026-07-01T00:00:00.000Z'), new Date('2026-07-01T00:00:00.000Z'));
    await rm(join(docs.dir, `${second}.jsonl`));
    await changes.done;
    changes.stop();

    const hits = await reportedHits(search);
    expect(hits).toEqual(await expectedHits(home.root));
    expect(hits.slice(0, 3)).toEqual([`${grown}:1`, `${grown}:3`, `${grown}:4`]);
    expect(hits).toContain(join(shop.dir, `${third}.jsonl:1`));
    expect(hits).toContain(join(docs.memoryDir, 'later.md:1'));
    expect(hits).toContain(join(shop.dir, third, 'subagents', 'agent-s2.jsonl:1'));
    expect(hits.some((hit) => hit.includes(second))).toBe(false);
    expect(new Set(hits).size).toBe(hits.length);
  });

  it('reads a file that only grew in its new place, with its new length', async () => {
    await reportedHits(search);
    const topic = join(docs.memoryDir, 'topic.md');
    const changes = reported(watcher, [topic]);
    await appendFile(topic, 'A heron that came later.\n');
    await utimes(topic, new Date('2026-08-01T00:00:00.000Z'), new Date('2026-08-01T00:00:00.000Z'));
    await changes.done;
    changes.stop();

    const hits = await reportedHits(search);
    expect(hits).toEqual(await expectedHits(home.root));
    expect(hits.slice(0, 2)).toEqual([`${topic}:3`, `${topic}:4`]);
  });
});
