import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DoctorFixProjectJson } from '../../../electron/cli/commands/doctorFix';
import { runCli } from '../../../electron/cli/main';
import { createMessyMemory, FAKE_GITHUB_TOKEN, type MessyMemory } from '../../fixtures/messyMemory';
import { createScenarioHome, type ScenarioHome } from '../../fixtures/scenarioHome';
import { snapshotTree } from '../../fixtures/treeSnapshot';

let home: ScenarioHome;
let messy: MessyMemory;

beforeEach(async () => {
  home = await createScenarioHome({ prefix: 'ccmem-doctor-fix-' });
  messy = await createMessyMemory(home);
});

afterEach(() => home.cleanup());

async function ccmem(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const dataDir = join(home.tmp, 'data');
  const code = await runCli(args, {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    env: { CLAUDE_CONFIG_DIR: home.root, CCMEM_DATA_DIR: dataDir, HOME: dataDir },
  });
  return { code, stdout, stderr };
}

const read = (rel: string) => readFile(join(messy.memoryDir, rel), 'utf8');

describe('ccmem doctor --fix', () => {
  it('prints the diff on a dry run and writes nothing', async () => {
    const before = await snapshotTree(home.root);
    const run = await ccmem(['doctor', '--fix', 'index.orphan', '--project', messy.project.slug, '--dry-run']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('--- a/MEMORY.md\n+++ b/MEMORY.md\n');
    expect(run.stdout).toContain('+- [Orphan topic](orphan_topic.md) — Nobody points at this one\n');
    expect(run.stdout).toContain('  planned: Added pointers to 2 files (dry run: nothing was written)\n');
    expect(await snapshotTree(home.root)).toEqual(before);
  });

  it('applies one cure to every finding with the code as one change set, which ccmem revert undoes', async () => {
    const index = await read('MEMORY.md');
    const run = await ccmem(['doctor', '--fix', 'scan.beyond-cap', '--project', messy.project.slug, '--json']);
    expect(run.code).toBe(0);
    const output = JSON.parse(run.stdout) as { code: string; cure: string; dryRun: boolean; projects: DoctorFixProjectJson[] };
    expect(Object.keys(output)).toEqual(['code', 'cure', 'dryRun', 'projects']);
    expect(output).toMatchObject({ code: 'scan.beyond-cap', cure: 'prune', dryRun: false });
    const [project] = output.projects;
    expect(Object.keys(project)).toEqual(['slug', 'path', 'summary', 'fixes', 'skipped', 'files', 'refusal', 'changeSetId']);
    expect(project.summary).toBe(`Pruned ${messy.beyondCap.length} files`);
    expect(project.files.map((f) => f.path).sort()).toEqual(['MEMORY.md', ...messy.beyondCap].sort());
    for (const file of messy.beyondCap) await expect(stat(join(messy.memoryDir, file))).rejects.toMatchObject({ code: 'ENOENT' });

    const revert = await ccmem(['revert', '--change-set', project.changeSetId ?? '']);
    expect(revert.code).toBe(0);
    expect(await read('MEMORY.md')).toBe(index);
  });

  it('takes another cure and one file, and never prints the secret', async () => {
    const run = await ccmem([
      'doctor',
      '--fix',
      'secret.detected',
      '--cure',
      'remove-secret-line',
      '--file',
      messy.files.secret,
      '--project',
      messy.project.slug,
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain(FAKE_GITHUB_TOKEN);
    expect(run.stdout).toContain('-Token: ••••');
    expect(await read(messy.files.secret)).not.toContain('Token:');
    expect(await read(messy.files.teamSecret)).toContain('Key id: ');
  });

  it('refuses codes without a cure and cure options without --fix', async () => {
    expect((await ccmem(['doctor', '--fix', 'index.not-an-index'])).code).toBe(2);
    expect((await ccmem(['doctor', '--fix', 'index.orphan', '--cure', 'nonsense'])).code).toBe(2);
    expect((await ccmem(['doctor', '--dry-run'])).code).toBe(2);
    const none = await ccmem(['doctor', '--fix', 'index.orphan', '--file', 'note_100.md']);
    expect(none).toMatchObject({ code: 0, stdout: 'No index.orphan finding on note_100.md to cure with add-pointer.\n' });
  });
});
