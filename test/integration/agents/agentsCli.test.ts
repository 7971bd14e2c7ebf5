import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createStandardScenario, type StandardScenario } from '../../fixtures/standardScenario';
import { snapshotTree } from '../../fixtures/treeSnapshot';
import { ccmem } from '../../helpers/ccmem';

/** The documented schema of `ccmem agents --json` (issue #7); scripts rely on exactly these keys. */
const agentJsonSchema = z.strictObject({
  agentType: z.string().min(1),
  scope: z.enum(['user', 'project', 'local']),
  dir: z.string().min(1),
  projectPath: z.string().nullable(),
  fileCount: z.number().int().nonnegative(),
  snapshot: z.strictObject({
    dir: z.string().nullable(),
    updatedAt: z.string().nullable(),
    syncedFrom: z.string().nullable(),
    action: z.enum(['none', 'initialize', 'prompt-update']),
  }),
  outsideRoot: z.array(z.enum(['local', 'snapshot'])),
});
const outputSchema = z.array(agentJsonSchema);

let scenario: StandardScenario;
let env: NodeJS.ProcessEnv;
let snapshotsDir: string;

beforeAll(async () => {
  scenario = await createStandardScenario();
  env = { HOME: scenario.home.tmp, CLAUDE_CONFIG_DIR: scenario.home.root, CCMEM_DATA_DIR: join(scenario.home.tmp, 'data') };
  snapshotsDir = join(scenario.webshop.path, '.claude', 'agent-memory-snapshots');
  await scenario.home.agentSnapshot(scenario.webshop.path, 'planner', { 'MEMORY.md': '# plan\n' }, '2026-05-01T00:00:00.000Z');
});
afterAll(() => scenario.home.cleanup());

describe('ccmem agents', () => {
  it('--json prints every agent in the exact schema, and writes nothing', async () => {
    const before = await snapshotTree(scenario.home.tmp);
    const { code, stdout, stderr } = await ccmem(['agents', '--json'], env);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const agents = outputSchema.parse(JSON.parse(stdout));
    expect(agents).toEqual([
      {
        agentType: 'code-reviewer',
        scope: 'user',
        dir: scenario.agents.userCodeReviewer.dir,
        projectPath: null,
        fileCount: scenario.agents.userCodeReviewer.fileCount,
        snapshot: { dir: null, updatedAt: null, syncedFrom: null, action: 'none' },
        outsideRoot: [],
      },
      {
        agentType: 'planner',
        scope: 'project',
        dir: join(scenario.webshop.path, '.claude', 'agent-memory', 'planner'),
        projectPath: scenario.webshop.path,
        fileCount: 0,
        snapshot: { dir: join(snapshotsDir, 'planner'), updatedAt: '2026-05-01T00:00:00.000Z', syncedFrom: null, action: 'initialize' },
        outsideRoot: [],
      },
      {
        agentType: 'qa',
        scope: 'project',
        dir: scenario.agents.projectQa.dir,
        projectPath: scenario.webshop.path,
        fileCount: scenario.agents.projectQa.fileCount,
        snapshot: { dir: null, updatedAt: null, syncedFrom: null, action: 'none' },
        outsideRoot: [],
      },
    ]);
    expect(await snapshotTree(scenario.home.tmp)).toEqual(before);
  });

  it('prints a table without --json', async () => {
    const { code, stdout } = await ccmem(['agents'], env);
    expect(code).toBe(0);
    expect(stdout.split('\n')[0]).toMatch(/^AGENT\s+SCOPE\s+PROJECT\s+FILES\s+SNAPSHOT/);
    expect(stdout).toContain('initialize');
  });
});

describe('ccmem snapshot', () => {
  const base = ['snapshot', '--project'];

  it('--dry-run prints what would change and writes nothing', async () => {
    const before = await snapshotTree(scenario.home.tmp);
    const { code, stdout, stderr } = await ccmem([...base, scenario.webshop.slug, '--agent', 'qa', '--create', '--dry-run'], env);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toContain('Dry run: create would');
    expect(stdout).toContain(`create ${join(snapshotsDir, 'qa')}/MEMORY.md`);
    expect(stdout).toContain(`create ${join(snapshotsDir, 'qa')}/flaky-tests.md`);
    expect(await snapshotTree(scenario.home.tmp)).toEqual(before);
  });

  it('--create writes the snapshot; --initialize seeds a snapshot-only agent', async () => {
    const created = await ccmem([...base, scenario.webshop.slug, '--agent', 'qa', '--create'], env);
    expect(created.code).toBe(0);
    expect((await readdir(join(snapshotsDir, 'qa'))).sort()).toEqual(['MEMORY.md', 'flaky-tests.md', 'snapshot.json']);

    const plannerDir = join(scenario.webshop.path, '.claude', 'agent-memory', 'planner');
    const initialised = await ccmem([...base, scenario.webshop.slug, '--agent', 'planner', '--initialize'], env);
    expect(initialised.code).toBe(0);
    expect(await readFile(join(plannerDir, 'MEMORY.md'), 'utf8')).toBe('# plan\n');
    const listed = outputSchema.parse(JSON.parse((await ccmem(['agents', '--json'], env)).stdout));
    expect(listed.find((a) => a.agentType === 'planner')?.snapshot.action).toBe('none');
  });

  it('refusals and usage errors go to stderr with a non-zero exit', async () => {
    const noFlag = await ccmem([...base, scenario.webshop.slug, '--agent', 'qa'], env);
    expect(noFlag.code).toBe(2);
    expect(noFlag.stderr).toContain('exactly one of --create, --initialize, --replace');
    const unknown = await ccmem([...base, 'no-such-project', '--agent', 'qa', '--create'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('no project no-such-project');
    const refused = await ccmem([...base, scenario.webshop.slug, '--agent', 'qa', '--initialize'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('already has local memory');
  });

  it('--create over a teammate’s newer snapshot is refused unless --overwrite-newer', async () => {
    const plannerSnapshot = join(snapshotsDir, 'planner');
    await writeFile(join(plannerSnapshot, 'MEMORY.md'), '# plan, updated by a teammate\n');
    await writeFile(join(plannerSnapshot, 'snapshot.json'), `${JSON.stringify({ updatedAt: '2026-06-01T00:00:00.000Z' })}\n`);
    const dryRun = await ccmem([...base, scenario.webshop.slug, '--agent', 'planner', '--create', '--dry-run'], env);
    expect(dryRun.code).toBe(0);
    expect(dryRun.stderr).toContain('warning: The committed snapshot (updated 2026-06-01T00:00:00.000Z) is newer than this agent');
    const refused = await ccmem([...base, scenario.webshop.slug, '--agent', 'planner', '--create'], env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('creating it now would overwrite MEMORY.md');
    expect(await readFile(join(plannerSnapshot, 'MEMORY.md'), 'utf8')).toBe('# plan, updated by a teammate\n');
    const forced = await ccmem([...base, scenario.webshop.slug, '--agent', 'planner', '--create', '--overwrite-newer'], env);
    expect(forced.code).toBe(0);
    expect(await readFile(join(plannerSnapshot, 'MEMORY.md'), 'utf8')).toBe('# plan\n');
  });
});
