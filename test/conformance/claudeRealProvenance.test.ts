/**
 * Reconstruction over real Claude Code files (../shared/fixtures/claude-real, see its SOURCES.md): no crash, and
 * every Write a real session made into a memory folder is found, with the bytes Claude Code reported writing.
 * The fixtures are never copied: temp config roots symlink to them, and nothing is written into them.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, symlink } from 'node:fs/promises';
import path, { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentHash } from '../../electron/core/fs/contentHash';
import { ChangeSetWriter } from '../../electron/core/changes/changeSetWriter';
import { HistoryService } from '../../electron/core/history/HistoryService';
import { HistoryStore } from '../../electron/core/changes/HistoryStore';
import { HomeService } from '../../electron/core/home/HomeService';
import { createScenarioHome, type ScenarioHome } from '../fixtures/scenarioHome';
import { snapshotTree, type TreeSnapshot } from '../fixtures/treeSnapshot';

const FIXTURES = path.resolve(__dirname, '../../../shared/fixtures/claude-real');
const present = existsSync(join(FIXTURES, 'SOURCES.md'));
if (!present) console.warn(`[conformance] SKIPPED: real Claude Code fixtures not found at ${FIXTURES} (the ../shared checkout is absent).`);

/** The fixture folders that hold `projects/<slug>/` trees, by the name of the temp root that links them. */
const PROJECT_TREES: Readonly<Record<string, string>> = {
  eduardo: 'Eduardodmb__ClaudeHome/projects.bak-20260511-072525',
  eiji: 'Eiji1202__dotclaude/projects',
  halibit: '4thehalibit__omarchy-backup/.claude/projects',
  kimuson: 'd-kimuson__claude-code-viewer/mock-global-claude-dir/projects',
};

async function jsonlFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await jsonlFiles(full)));
    else if (entry.name.endsWith('.jsonl')) out.push(full);
  }
  return out;
}

interface CountedWrite {
  readonly slug: string;
  /** Relative to `projects/<slug>/memory/`. */
  readonly path: string;
  readonly bytes: string;
}

/**
 * Counts the Writes into a memory folder by reading the transcripts directly (independently of the engine): every
 * assistant `Write` whose `file_path` lies under `projects/<slug>/memory/`, with the bytes its successful result
 * reports (`toolUseResult.content`), else what it sent.
 */
async function countMemoryWrites(tree: string): Promise<CountedWrite[]> {
  const writes: CountedWrite[] = [];
  for (const file of await jsonlFiles(tree)) {
    const calls = new Map<string, { filePath: string; content: string }>();
    const results = new Map<string, { ok: boolean; content: string | null }>();
    for (const line of (await readFile(file, 'utf8')).split('\n')) {
      if (!line.trim()) continue;
      let record: Record<string, unknown>;
      try {
        record = JSON.parse(line) as Record<string, unknown>;
      } catch {
        continue;
      }
      const content = (record.message as { content?: unknown } | undefined)?.content;
      if (!Array.isArray(content)) continue;
      for (const block of content as Record<string, unknown>[]) {
        if (block.type === 'tool_use' && block.name === 'Write') {
          const input = block.input as { file_path?: string; content?: string };
          if (input.file_path && typeof input.content === 'string')
            calls.set(block.id as string, { filePath: input.file_path, content: input.content });
        } else if (block.type === 'tool_result') {
          const detail = record.toolUseResult as { content?: unknown } | undefined;
          results.set(block.tool_use_id as string, {
            ok: block.is_error !== true,
            content: detail && typeof detail.content === 'string' ? detail.content : null,
          });
        }
      }
    }
    for (const [id, call] of calls) {
      const match = /[\\/]projects[\\/]([^\\/]+)[\\/]memory[\\/](.+\.md)$/.exec(call.filePath);
      const result = results.get(id);
      if (!match || !result?.ok) continue;
      writes.push({ slug: match[1], path: match[2].replace(/\\/g, '/'), bytes: result.content ?? call.content });
    }
  }
  return writes;
}

(present ? describe : describe.skip)('conformance: reconstructing memory history from real Claude Code files', () => {
  let home: ScenarioHome;
  let before: TreeSnapshot;
  let service: HomeService;
  let history: HistoryService;
  let store: HistoryStore;
  const roots: Record<string, string> = {};

  beforeAll(async () => {
    before = await snapshotTree(FIXTURES);
    home = await createScenarioHome({ prefix: 'ccmem-conformance-provenance-' });
    for (const [name, tree] of Object.entries(PROJECT_TREES)) {
      const root = join(home.tmp, name);
      await mkdir(join(root, 'projects'), { recursive: true });
      for (const slug of await readdir(join(FIXTURES, tree))) await symlink(join(FIXTURES, tree, slug), join(root, 'projects', slug));
      roots[name] = root;
    }
    const dataDir = join(home.tmp, 'data');
    service = new HomeService({
      roots: Object.values(roots).map((root) => ({ path: root, source: 'CLAUDE_CONFIG_DIR' as const })),
      dataDir,
      demoHomeSource: null,
      shell: 'cli',
      readOnly: true,
    });
    store = new HistoryStore(join(dataDir, 'history'));
    history = new HistoryService({
      home: service,
      store,
      historyDir: join(dataDir, 'history'),
      live: null,
      writer: new ChangeSetWriter({ history: store }),
    });
    await history.recordNow();
  });

  afterAll(async () => {
    await history?.dispose();
    service?.dispose();
    await home?.cleanup();
  });

  it('reconstructs without a crash, and finds every Write into a memory folder with the bytes Claude Code wrote', async () => {
    const status = await history.status();
    expect(status.reconstruction.state).toBe('done');
    expect(status.reconstruction.error).toBeNull();
    const counted = (await Promise.all(Object.values(PROJECT_TREES).map((tree) => countMemoryWrites(join(FIXTURES, tree))))).flat();
    // Eduardodmb a572bd87 (2.1.128, Windows): reference_odoo18_source.md, MEMORY.md, reference_docker_config.md.
    expect(counted.map((w) => `${w.slug}/${w.path}`).sort()).toEqual([
      'X--03-ACG-Custom-Addons/MEMORY.md',
      'X--03-ACG-Custom-Addons/reference_docker_config.md',
      'X--03-ACG-Custom-Addons/reference_odoo18_source.md',
    ]);
    for (const write of counted) {
      const folder = { kind: 'project' as const, configRoot: roots.eduardo, slug: write.slug };
      const versions = await history.listFileVersions(folder, write.path);
      const found = versions.find((v) => v.reconstructed && v.after === contentHash(write.bytes));
      expect(found, `${write.slug}/${write.path}`).toMatchObject({
        cause: 'session',
        certainty: 'exact',
        sessionId: 'a572bd87-2e28-4d70-9b73-cd08231cacb6',
      });
      expect(found?.turnUuid).toMatch(/^[0-9a-f-]{36}$/);
    }
    // The memory folder of that project is not in the fixtures: its files end deleted, with no trace of who did it.
    const last = await history.listFileVersions(
      { kind: 'project', configRoot: roots.eduardo, slug: 'X--03-ACG-Custom-Addons' },
      'MEMORY.md',
    );
    expect(last[last.length - 1]).toMatchObject({ kind: 'deleted', certainty: 'exact', cause: 'external' });
  });

  it('nothing was written into the fixtures', async () => {
    expect(await snapshotTree(FIXTURES)).toEqual(before);
  });
});
