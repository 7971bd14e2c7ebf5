import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createStandardScenario, type StandardScenario } from '../../fixtures/standardScenario';
import { snapshotTree } from '../../fixtures/treeSnapshot';
import { ccmem } from '../../helpers/ccmem';
import type { SearchHit } from '../../../shared/model/search';
import { toSearchHitJson } from '../../../electron/cli/commands/search';
import { agentMemoriesIn, discoverHomePlaces } from '../../../electron/core/home/homePlaces';
import { configRootsFromEnv } from '../../../electron/core/layout/configRoots';
import { HomeSearch } from '../../../electron/core/search/HomeSearch';
import { memoryFoldersToSearch } from '../../../electron/core/search/searchMemoryFolders';

/** The documented schema of `ccmem search --json` (issue #4). */
const hitSchema = z.strictObject({
  kind: z.enum(['transcript', 'memory', 'agent-memory', 'session-memory', 'tool-output']),
  sessionId: z.uuid().nullable(),
  path: z.string().min(1),
  line: z.number().int().positive(),
  preview: z.string(),
  agentType: z.string().nullable(),
  requestRecord: z.boolean(),
  archived: z.boolean(),
});

describe('ccmem search on a scenario home', () => {
  let scenario: StandardScenario;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    scenario = await createStandardScenario();
    env = { HOME: scenario.home.tmp, CLAUDE_CONFIG_DIR: scenario.home.root, CCMEM_DATA_DIR: join(scenario.home.tmp, 'data') };
  });
  afterAll(() => scenario.home.cleanup());

  it('finds prompts in transcripts and text in memory files, in the documented schema, reading only', async () => {
    const before = await snapshotTree(scenario.home.root);
    const { code, stdout, stderr } = await ccmem(['search', 'PAYMENT API', '--json'], env);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const hits = z.array(hitSchema).parse(JSON.parse(stdout));
    const checkout = scenario.webshop.sessions[0];
    expect(hits).toContainEqual({
      kind: 'transcript',
      sessionId: checkout.sessionId,
      path: checkout.file,
      line: 2,
      preview: 'Rewrite the checkout flow to use the new payment API',
      agentType: null,
      requestRecord: false,
      archived: false,
    });
    expect(hits).toContainEqual({
      kind: 'memory',
      sessionId: null,
      path: join(scenario.webshop.memoryDir, 'project_checkout_rewrite.md'),
      line: 3,
      preview: 'description: Checkout moves to the payment API v3 before 2026-06-01',
      agentType: null,
      requestRecord: false,
      archived: false,
    });
    expect(await snapshotTree(scenario.home.root)).toEqual(before);
  });

  it('stops at --limit, prints path:line: preview without --json, and refuses a bad limit or an empty query', async () => {
    const limited = await ccmem(['search', 'Prompt', '--limit', '2', '--json'], env);
    expect(JSON.parse(limited.stdout)).toHaveLength(2);
    const text = await ccmem(['search', 'token bucket'], env);
    expect(text.code).toBe(0);
    const file = scenario.monorepo.sessions[0].file;
    const lines = (await readFile(file, 'utf8')).split('\n');
    const expected = lines.flatMap((line, index) => (line.toLowerCase().includes('token bucket') ? [`${file}:${index + 1}:`] : []));
    expect(expected).toHaveLength(3);
    expect(
      text.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => line.slice(0, line.indexOf(': ') + 1)),
    ).toEqual(expected);
    expect(text.stdout).toContain(`${expected[0]} Use a token bucket per client\n`);
    expect((await ccmem(['search', 'x', '--limit', '0'], env)).code).toBe(2);
    expect((await ccmem(['search'], env)).code).toBe(2);
  });
  it('narrows to one project, one kind and a range of days, and refuses a bad kind, day or project', async () => {
    const all = z.array(hitSchema).parse(JSON.parse((await ccmem(['search', 'PAYMENT API', '--json'], env)).stdout));
    expect(new Set(all.map((hit) => hit.kind))).toEqual(new Set(['transcript', 'memory']));
    const run = async (...extra: string[]) =>
      z.array(hitSchema).parse(JSON.parse((await ccmem(['search', 'PAYMENT API', '--json', ...extra], env)).stdout));
    expect(await run('--kind', 'memory')).toEqual(all.filter((hit) => hit.kind === 'memory'));
    expect(await run('--kind', 'transcript')).toEqual(all.filter((hit) => hit.kind === 'transcript'));
    expect(await run(`--project=${scenario.webshop.slug}`)).toEqual(all.filter((hit) => hit.path.includes(scenario.webshop.slug)));
    expect(await run(`--project=${scenario.windows.slug}`)).toEqual([]);
    expect(await run('--since', '2000-01-01', '--until', '2099-12-31')).toEqual(all);
    expect(await run('--since', '2099-01-01')).toEqual([]);
    expect(await run('--until', '2000-01-01')).toEqual([]);
    expect((await ccmem(['search', 'x', '--kind', 'notes'], env)).code).toBe(2);
    expect((await ccmem(['search', 'x', '--since', '2026-02-30'], env)).code).toBe(2);
    expect((await ccmem(['search', 'x', '--project', 'no-such-project'], env)).code).toBe(1);
  });

  it('gives the hits one search over every folder gives, in its order, though it reads project and memory folders apart', async () => {
    const home = await discoverHomePlaces(configRootsFromEnv(env));
    const whole = new HomeSearch({
      roots: [scenario.home.root],
      memoryFolders: async () => memoryFoldersToSearch(home, await agentMemoriesIn(home)),
    });
    try {
      for (const [query, limit] of [
        ['the', 1000],
        ['the', 7],
        ['payment', 3],
        ['a', 2],
      ] as const) {
        const expected: SearchHit[] = [];
        await whole.search(query, { limit, onHit: (hit) => expected.push(hit) });
        const { code, stdout } = await ccmem(['search', query, '--json', '--limit', String(limit)], env);
        expect(code).toBe(0);
        expect(JSON.parse(stdout), `${query} --limit ${limit}`).toEqual(expected.map(toSearchHitJson));
        if (limit === 1000) expect(new Set(expected.map((hit) => hit.kind)).size).toBeGreaterThan(1);
      }
    } finally {
      await whole.dispose();
    }
  });
});
