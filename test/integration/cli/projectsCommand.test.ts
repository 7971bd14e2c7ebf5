import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createStandardScenario, type StandardScenario } from '../../fixtures/standardScenario';
import { snapshotTree } from '../../fixtures/treeSnapshot';
import { ccmem } from '../../helpers/ccmem';

/** The documented schema of `ccmem projects --json`; scripts rely on exactly these keys. */
const projectJsonSchema = z.strictObject({
  slug: z.string().min(1),
  configRoot: z.string().min(1),
  path: z.string().nullable(),
  pathSource: z.enum(['transcript-cwd', 'sessions-index', 'git-root-match', 'unknown']),
  sessionCount: z.number().int().nonnegative(),
  memoryDir: z.string().nullable(),
  memoryFileCount: z.number().int().nonnegative(),
  memoryOwner: z.string().nullable(),
  memorySharedWith: z.array(z.string()),
  lastActivity: z.iso.datetime().nullable(),
});
const outputSchema = z.array(projectJsonSchema);

describe('ccmem projects --json on a scenario home', () => {
  let scenario: StandardScenario;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    scenario = await createStandardScenario();
    env = { HOME: scenario.home.tmp, CLAUDE_CONFIG_DIR: scenario.home.root, CCMEM_DATA_DIR: join(scenario.home.tmp, 'data') };
  });
  afterAll(() => scenario.home.cleanup());

  it('matches the schema and reports real paths, sources, counts and memory folders', async () => {
    const before = await snapshotTree(scenario.home.root);
    const { code, stdout, stderr } = await ccmem(['projects', '--json'], env);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const projects = outputSchema.parse(JSON.parse(stdout));
    const bySlug = new Map(projects.map((p) => [p.slug, p]));
    expect(bySlug.get(scenario.webshop.slug)).toMatchObject({
      configRoot: scenario.home.root,
      path: scenario.webshop.path,
      pathSource: 'transcript-cwd',
      sessionCount: scenario.webshop.sessions.length,
      memoryDir: scenario.webshop.memoryDir,
      memoryFileCount: scenario.webshop.memoryFileCount,
    });
    expect(bySlug.get(scenario.monorepo.memorySlug)).toMatchObject({
      path: scenario.monorepo.repoPath,
      pathSource: 'git-root-match',
      sessionCount: 0,
      memoryFileCount: scenario.monorepo.memoryFileCount,
      memoryOwner: null,
      memorySharedWith: [scenario.monorepo.sessionSlug],
    });
    // Sessions started in a sub-folder of the repository use the git root's memory folder, as Claude Code does.
    expect(bySlug.get(scenario.monorepo.sessionSlug)).toMatchObject({
      path: scenario.monorepo.apiPath,
      memoryDir: join(scenario.home.root, 'projects', scenario.monorepo.memorySlug, 'memory'),
      memoryFileCount: scenario.monorepo.memoryFileCount,
      memoryOwner: scenario.monorepo.memorySlug,
      memorySharedWith: [],
    });
    expect(bySlug.get(scenario.windows.slug)).toMatchObject({ path: scenario.windows.path, pathSource: 'transcript-cwd' });
    expect(await snapshotTree(scenario.home.root)).toEqual(before);
  });

  it('prints a readable table without --json', async () => {
    const { code, stdout } = await ccmem(['projects'], env);
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toMatch(/^PROJECT\s+SESSIONS\s+MEMORIES\s+LAST ACTIVITY$/);
    expect(stdout).toContain(scenario.webshop.path);
  });

  it('reports errors on stderr with a non-zero exit', async () => {
    const unknownFlag = await ccmem(['projects', '--bogus'], env);
    expect(unknownFlag.code).toBe(2);
    expect(unknownFlag.stdout).toBe('');
    expect(unknownFlag.stderr).toContain("Unknown option '--bogus'");
    const unknownCommand = await ccmem(['frobnicate'], env);
    expect(unknownCommand.code).toBe(2);
    expect(unknownCommand.stderr).toContain("unknown command 'frobnicate'");
  });

  it('lists nothing and warns when the config root does not exist', async () => {
    const missing = join(scenario.home.tmp, 'nowhere');
    const { code, stdout, stderr } = await ccmem(['projects', '--json'], { ...env, CLAUDE_CONFIG_DIR: missing });
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual([]);
    expect(stderr).toContain(`${missing} does not exist`);
    expect(existsSync(missing)).toBe(false);
  });

  it('runs from a checkout as `npm run ccmem -- projects --json`', async () => {
    const { stdout } = await promisify(execFile)('npm', ['run', '-s', 'ccmem', '--', 'projects', '--json'], {
      env: { ...process.env, ...env },
      cwd: resolve(import.meta.dirname, '../../..'),
    });
    expect(outputSchema.parse(JSON.parse(stdout)).length).toBe(scenario.projectCount);
  });
});

const realFixtures = resolve(import.meta.dirname, '../../../../shared/fixtures/claude-real');
const describeReal = existsSync(realFixtures) ? describe : describe.skip;
if (!existsSync(realFixtures)) console.log(`Skipping real-fixture CLI checks: ${realFixtures} is absent`);

describeReal('ccmem projects --json on the real fixtures', () => {
  it('matches the schema and resolves the Windows paths from transcripts', async () => {
    const root = mkdtempSync(join(tmpdir(), 'ccmem-real-'));
    mkdirSync(join(root, 'projects'));
    const projectsDirs = [
      join(realFixtures, 'Eduardodmb__ClaudeHome/projects.bak-20260511-072525'),
      join(realFixtures, 'Eiji1202__dotclaude/projects'),
      join(realFixtures, '4thehalibit__omarchy-backup/.claude/projects'),
    ];
    const { readdirSync } = await import('node:fs');
    for (const dir of projectsDirs) for (const slug of readdirSync(dir)) symlinkSync(join(dir, slug), join(root, 'projects', slug));
    const before = await snapshotTree(realFixtures);
    const { code, stdout } = await ccmem(['projects', '--json'], {
      HOME: root,
      CLAUDE_CONFIG_DIR: root,
      CCMEM_DATA_DIR: join(root, 'data'),
    });
    expect(code).toBe(0);
    const bySlug = new Map(outputSchema.parse(JSON.parse(stdout)).map((p) => [p.slug, p]));
    expect(bySlug.size).toBe(7);
    expect(bySlug.get('X--03-ACG-Custom-Addons')).toMatchObject({
      path: 'X:\\03_ACG\\Custom_Addons',
      pathSource: 'transcript-cwd',
      sessionCount: 1,
    });
    expect(bySlug.get('X--03-ACG-Odoo-Docs')).toMatchObject({ sessionCount: 1, memoryFileCount: 3 });
    expect(bySlug.get('-home-vwestberg-Claude')).toMatchObject({ sessionCount: 2, memoryFileCount: 1 });
    // A file-history-only session and an orphan sub-agent folder (a session whose file is gone), whose cwd is the path.
    expect(bySlug.get('-Users-tachikawa-eiji-EijiCode-UTAGE3-0-utage3')).toMatchObject({
      path: '/Users/tachikawa_eiji/EijiCode/UTAGE3.0/utage3',
      pathSource: 'transcript-cwd',
      sessionCount: 2,
    });
    expect(await snapshotTree(realFixtures)).toEqual(before);
  });
});
