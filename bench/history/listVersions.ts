/**
 * Benchmark: listing the versions of one memory file that has 10,000 of them (issue #5: under 100 ms), through
 * the same call the History page and `ccmem restore` use. Cold = a fresh service that parses the journal;
 * warm = the running service asked again. Prints figures; it is not a test.
 *
 *   npx tsx bench/history/listVersions.ts [--versions N] [--other N] [--runs N] [--json]
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { HistoryService } from '../../electron/core/history/HistoryService';
import { HistoryStore, type NewHistoryEntry } from '../../electron/core/changes/HistoryStore';
import { HomeService } from '../../electron/core/home/HomeService';
import { ChangeSetWriter } from '../../electron/core/changes/changeSetWriter';

export interface VersionListingFigures {
  readonly versions: number;
  readonly journalLines: number;
  readonly coldMs: number;
  readonly warmMs: number;
}

function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Writes a journal with `versions` changes of one file among `other` changes of other files. */
async function buildHistory(memoryDir: string, historyDir: string, versions: number, other: number): Promise<void> {
  const store = new HistoryStore(historyDir);
  const batch: NewHistoryEntry[] = [];
  let previous: string | null = null;
  const total = versions + other;
  for (let i = 0; i < total; i++) {
    // Exactly `versions` of the lines are this file's, spread evenly among the others.
    const mine = Math.floor(((i + 1) * versions) / total) > Math.floor((i * versions) / total);
    const path = mine ? 'MEMORY.md' : `topic_${i % 500}.md`;
    const after = hashOf(`${path}:${i}`);
    batch.push({
      folder: memoryDir,
      path,
      before: mine ? previous : null,
      after,
      size: 100,
      cause: 'external',
      changeSetId: `bench-${i}`,
      summary: 'bench',
    });
    if (mine) previous = after;
    if (batch.length === 2000) await store.append(batch.splice(0));
  }
  if (batch.length > 0) await store.append(batch);
}

async function measure(root: string, dataDir: string, slug: string): Promise<{ coldMs: number; warmMs: number; count: number }> {
  const home = new HomeService({
    roots: [{ path: root, source: 'CLAUDE_CONFIG_DIR' }],
    dataDir,
    demoHomeSource: null,
    shell: 'cli',
    readOnly: true,
  });
  await home.getHome();
  const historyDir = join(dataDir, 'history');
  const store = new HistoryStore(historyDir);
  const service = new HistoryService({ home, store, historyDir, live: null, writer: new ChangeSetWriter({ history: store }) });
  const folder = { kind: 'project' as const, configRoot: root, slug };
  const coldStarted = performance.now();
  const list = await service.listFileVersions(folder, 'MEMORY.md');
  const coldMs = performance.now() - coldStarted;
  const warmStarted = performance.now();
  await service.listFileVersions(folder, 'MEMORY.md');
  const warmMs = performance.now() - warmStarted;
  await service.dispose();
  home.dispose();
  return { coldMs, warmMs, count: list.length };
}

export async function measureVersionListing(options: { versions: number; other: number; runs: number }): Promise<VersionListingFigures> {
  const tmp = realpathSync(mkdtempSync(join(tmpdir(), 'ccmem-bench-history-')));
  try {
    const slug = '-bench-project';
    const root = join(tmp, 'claude');
    const memoryDir = join(root, 'projects', slug, 'memory');
    mkdirSync(memoryDir, { recursive: true });
    writeFileSync(join(memoryDir, 'MEMORY.md'), '- [x](x.md) — x\n');
    const dataDir = join(tmp, 'data');
    await buildHistory(memoryDir, join(dataDir, 'history'), options.versions, options.other);
    const runs = [];
    for (let i = 0; i < options.runs; i++) runs.push(await measure(root, dataDir, slug));
    return {
      versions: runs[0].count,
      journalLines: options.versions + options.other,
      coldMs: median(runs.map((r) => r.coldMs)),
      warmMs: median(runs.map((r) => r.warmMs)),
    };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      versions: { type: 'string', default: '10000' },
      other: { type: 'string', default: '10000' },
      runs: { type: 'string', default: '5' },
      json: { type: 'boolean', default: false },
    },
  });
  const figures = await measureVersionListing({
    versions: Number(values.versions),
    other: Number(values.other),
    runs: Number(values.runs),
  });
  process.stdout.write(
    values.json
      ? `${JSON.stringify(figures)}\n`
      : `history: list ${figures.versions} versions of one file (journal of ${figures.journalLines} lines): cold ${figures.coldMs.toFixed(1)} ms, warm ${figures.warmMs.toFixed(2)} ms (target < 100 ms)\n`,
  );
}
