/**
 * The one-shot search's cheap discovery (`discoverHomePlaces`) must place every project and its memory exactly where
 * the full discovery does, in the same order, and its per-session read must agree with the quick read on what it
 * keeps: on the standard scenario, on sessions whose fields sit beyond the first or last 8 KiB, and on the real
 * Claude Code files (../shared/fixtures/claude-real) when they are there.
 */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path, { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAgentMemories } from '../../../electron/core/agents/agentMemoryListing';
import { agentMemoriesIn, discoverHomePlaces } from '../../../electron/core/home/homePlaces';
import { HomeService } from '../../../electron/core/home/HomeService';
import { readSessionPlaceInfo } from '../../../electron/core/layout/sessionPlaceInfo';
import { readSessionQuickInfo } from '../../../electron/core/layout/sessionQuickInfo';
import { seededUuid } from '../../fixtures/sessionLines';
import { createStandardScenario, type StandardScenario } from '../../fixtures/standardScenario';

const FIXTURES = path.resolve(__dirname, '../../../../shared/fixtures/claude-real');

const line = (record: Record<string, unknown>): string => `${JSON.stringify(record)}\n`;
const filler = (bytes: number): string => line({ type: 'assistant', message: { content: 'x'.repeat(bytes) } });

/** Sessions whose working folder or last timestamp lie beyond the 8 KiB the place read looks at first. */
const EDGE_SESSIONS: Readonly<Record<string, string>> = {
  'cwd after 8 KiB': filler(20_000) + line({ type: 'user', cwd: '/work/late', timestamp: '2026-05-01T10:00:00.000Z' }),
  'first line longer than 64 KiB': filler(70_000) + line({ type: 'user', cwd: '/work/tail', timestamp: '2026-05-01T11:00:00.000Z' }),
  'last timestamp before the last 8 KiB':
    line({ type: 'user', cwd: '/work/a', timestamp: '2026-05-01T12:00:00.000Z' }) + filler(100_000) + filler(20_000),
  'between 8 and 64 KiB': line({ type: 'user', cwd: '/work/b', timestamp: '2026-05-01T13:00:00.000Z' }) + filler(30_000),
  'no cwd anywhere': line({ type: 'user', timestamp: '2026-05-01T14:00:00.000Z' }) + filler(100),
  'half-written last line': line({ type: 'user', cwd: '/work/c', timestamp: '2026-05-01T15:00:00.000Z' }) + '{"type":"assis',
  empty: '',
};

async function jsonlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile() && entry.name.endsWith('.jsonl')).map((entry) => join(entry.parentPath, entry.name));
}

async function expectPlaceReadsAgree(files: readonly string[]): Promise<void> {
  for (const file of files) {
    const sessionId = path.basename(file, '.jsonl');
    const quick = await readSessionQuickInfo(file, sessionId);
    const place = await readSessionPlaceInfo(file, sessionId);
    expect({ cwd: place.cwd, lastTimestamp: place.lastTimestamp, bytes: place.bytes, mtime: place.mtime }, file).toEqual({
      cwd: quick.cwd,
      lastTimestamp: quick.lastTimestamp,
      bytes: quick.bytes,
      mtime: quick.mtime,
    });
  }
}

describe('discoverHomePlaces', () => {
  let scenario: StandardScenario;

  beforeAll(async () => {
    scenario = await createStandardScenario();
    const edges = scenario.home.project(scenario.home.workPath('edges'));
    for (const [name, text] of Object.entries(EDGE_SESSIONS)) await edges.rawFile(`${seededUuid(name)}.jsonl`, text);
  });

  afterAll(async () => {
    await scenario.home.cleanup();
  });

  it('places every project and its memory as the full discovery does, in its order, with the same agent memory', async () => {
    const home = new HomeService({
      roots: [{ path: scenario.home.root, source: 'CLAUDE_CONFIG_DIR' }],
      dataDir: join(scenario.home.tmp, 'data'),
      demoHomeSource: null,
      shell: 'cli',
      readOnly: true,
    });
    const full = await home.getHome();
    const places = await discoverHomePlaces([{ path: scenario.home.root, source: 'CLAUDE_CONFIG_DIR' }]);
    expect(places.roots).toEqual(full.roots);
    expect(places.projects).toEqual(
      full.projects.map(({ configRoot, slug, path: projectPath, memoryDir, memoryDirExists }) => ({
        configRoot,
        slug,
        path: projectPath,
        memoryDir,
        memoryDirExists,
      })),
    );
    // The monorepo's sessions start in a sub-folder and its memory is the repository root's: placed by the git root.
    expect(places.projects).toContainEqual(
      expect.objectContaining({ slug: scenario.monorepo.memorySlug, memoryDir: scenario.monorepo.memoryDir }),
    );
    expect(await agentMemoriesIn(places)).toEqual(await listAgentMemories(home));
    await home.dispose();
  });

  it('reads what places a session as the quick read does, wherever in the file it is', async () => {
    const files = await jsonlFiles(join(scenario.home.root, 'projects'));
    expect(files.length).toBeGreaterThan(Object.keys(EDGE_SESSIONS).length);
    await expectPlaceReadsAgree(files);
  });

  (existsSync(join(FIXTURES, 'SOURCES.md')) ? it : it.skip)(
    'reads what places a session as the quick read does, on real Claude Code files',
    async () => {
      await expectPlaceReadsAgree(await jsonlFiles(FIXTURES));
    },
  );
});
