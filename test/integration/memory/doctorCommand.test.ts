import { cp, mkdir } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../electron/cli/main';
import type { DoctorReport } from '../../../shared/memory/doctorReport';
import { FINDING_CODES } from '../../../shared/memory/findingCodes';
import { truncateEntrypoint } from '../../../shared/memory/modelView';
import { createScenarioHome, topicFile, type ScenarioHome } from '../../fixtures/scenarioHome';
import { createStandardScenario } from '../../fixtures/standardScenario';
import { snapshotTree } from '../../fixtures/treeSnapshot';

const REAL = resolve(import.meta.dirname, '../../../../shared/fixtures/claude-real');
const homes: ScenarioHome[] = [];

afterEach(async () => {
  for (const home of homes.splice(0)) await home.cleanup();
});

async function doctor(root: string, dataDir: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(['doctor', ...args], {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    env: { CLAUDE_CONFIG_DIR: root, CCMEM_DATA_DIR: dataDir, HOME: dataDir },
  });
  return { code, stdout, stderr };
}

function expectSchema(report: DoctorReport): void {
  for (const project of report.projects) {
    expect(Object.keys(project)).toEqual(['slug', 'path', 'memoryDir', 'index', 'files', 'findings']);
    expect(Object.keys(project.index)).toEqual(['lines', 'chars', 'truncated', 'loadedText']);
    for (const file of project.files) {
      expect(Object.keys(file)).toEqual(['path', 'type', 'name', 'description', 'mtime', 'bytes', 'inScan', 'findings']);
      expect(file.path.startsWith('/')).toBe(false);
      for (const code of file.findings) expect(FINDING_CODES).toContain(code);
    }
    for (const finding of project.findings) {
      expect(Object.keys(finding)).toEqual(['code', 'severity', 'file', 'line', 'message']);
      expect(['info', 'warn', 'error']).toContain(finding.severity);
    }
  }
}

describe('ccmem doctor on a scenario home', () => {
  it('prints the documented JSON, reads only, and exits 1 with --strict only when something warns', async () => {
    const scenario = await createStandardScenario();
    homes.push(scenario.home);
    const dataDir = join(scenario.home.tmp, 'data');
    const before = await snapshotTree(scenario.home.root);
    const run = await doctor(scenario.home.root, dataDir, ['--json']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as DoctorReport;
    expectSchema(report);
    expect(report.agents).toBeUndefined();
    expect(report.projects.map((p) => p.slug).sort()).toEqual([scenario.monorepo.memorySlug, scenario.webshop.slug].sort());
    const webshop = report.projects.find((p) => p.slug === scenario.webshop.slug);
    expect(webshop?.index).toEqual({
      lines: 4,
      chars: scenario.webshop.indexText.trim().length,
      truncated: false,
      loadedText: scenario.webshop.indexText.trim(),
    });
    expect(webshop?.files.map((f) => f.path)).toEqual(scenario.webshop.topicFiles);
    expect(webshop?.files.find((f) => f.path === 'team/conventions.md')).toMatchObject({
      type: 'feedback',
      name: 'Team conventions',
      inScan: true,
      findings: [],
    });
    expect(webshop?.findings).toEqual([
      {
        code: 'stale.age',
        severity: 'warn',
        file: 'project_checkout_rewrite.md',
        line: null,
        message: expect.stringMatching(/^Project memory last changed \d+ days ago \(older than 30\)$/) as unknown as string,
      },
    ]);
    expect((await doctor(scenario.home.root, dataDir, ['--strict'])).code).toBe(1);
    const one = await doctor(scenario.home.root, dataDir, ['--json', '--project', scenario.monorepo.memorySlug]);
    expect((JSON.parse(one.stdout) as DoctorReport).projects.map((p) => p.slug)).toEqual([scenario.monorepo.memorySlug]);
    const withAgents = JSON.parse((await doctor(scenario.home.root, dataDir, ['--json', '--agents'])).stdout) as DoctorReport;
    expect(withAgents.agents?.map((a) => [a.agentType, a.scope]).sort()).toEqual([
      ['code-reviewer', 'user'],
      ['qa', 'project'],
    ]);
    expect(await snapshotTree(scenario.home.root)).toEqual(before);
  });

  it('exits 0 with --strict on a clean folder, and 2 for an unknown project', async () => {
    const home = await createScenarioHome({ prefix: 'ccmem-doctor-clean-' });
    homes.push(home);
    const project = home.project(home.workPath('clean'));
    await project.session();
    await project.memory('user_role.md', topicFile({ variant: 'flat', name: 'Role', description: 'Backend developer', type: 'user' }));
    await project.memoryIndex('- [Role](user_role.md) — backend developer\n');
    const dataDir = join(home.tmp, 'data');
    const strict = await doctor(home.root, dataDir, ['--strict']);
    expect(strict.code).toBe(0);
    expect(strict.stdout).toContain('no findings');
    const unknown = await doctor(home.root, dataDir, ['--project', '-no-such-project']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No project with the slug -no-such-project');
  });
});

describe.skipIf(!existsSync(REAL))('ccmem doctor on real memory folders (../shared/fixtures/claude-real)', () => {
  it('reads a real config root without writing to it', async () => {
    const root = join(REAL, '4thehalibit__omarchy-backup', '.claude');
    const home = await createScenarioHome({ prefix: 'ccmem-doctor-real-' });
    homes.push(home);
    const before = await snapshotTree(root);
    const run = await doctor(root, join(home.tmp, 'data'), ['--json']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as DoctorReport;
    expectSchema(report);
    const project = report.projects.find((p) => p.slug === '-home-vwestberg-Claude');
    const indexText = readFileSync(join(root, 'projects', '-home-vwestberg-Claude', 'memory', 'MEMORY.md'), 'utf8');
    expect(project?.index.loadedText).toBe(truncateEntrypoint(indexText).content);
    expect(project?.files.map((f) => [f.path, f.type])).toEqual([['project_omarchy_customization.md', 'project']]);
    expect(project?.findings.filter((f) => f.code === 'index.dangling-link').map((f) => f.line)).toEqual([3]);
    expect(await snapshotTree(root)).toEqual(before);
  });

  it('reports real-world index shapes and all three frontmatter layouts', async () => {
    const home = await createScenarioHome({ prefix: 'ccmem-doctor-real-' });
    homes.push(home);
    const bga = home.project(home.workPath('bga'));
    await bga.session();
    await cp(join(REAL, 'AnotherSava__bga-assistant', '.claude', 'memory'), bga.memoryDir, { recursive: true });
    const odoo = home.project(home.workPath('odoo'));
    await odoo.session();
    await cp(join(REAL, 'Eduardodmb__ClaudeHome', 'projects.bak-20260511-072525', 'X--03-ACG-Odoo-Docs', 'memory'), odoo.memoryDir, {
      recursive: true,
    });
    const frog = home.project(home.workPath('frog'));
    await frog.session();
    await mkdir(join(frog.cwd, '.claude'), { recursive: true });
    await cp(join(REAL, 'Randroids-Dojo__UnrealFrog', '.claude', 'agent-memory'), join(frog.cwd, '.claude', 'agent-memory'), {
      recursive: true,
    });
    const report = JSON.parse((await doctor(home.root, join(home.tmp, 'data'), ['--json', '--agents'])).stdout) as DoctorReport;
    expectSchema(report);
    const bgaJson = report.projects.find((p) => p.slug === bga.slug);
    expect(bgaJson?.findings.map((f) => f.code)).toContain('index.not-an-index');
    expect(bgaJson?.files.map((f) => [f.path, f.type])).toEqual([
      ['feedback_no_defensive_fallbacks.md', 'feedback'],
      ['feedback_tests_no_gitignored_data.md', 'feedback'],
      ['project_bga_framework_dom_probing.md', 'project'],
      ['project_innovation_action_states.md', 'reference'],
    ]);
    const odooJson = report.projects.find((p) => p.slug === odoo.slug);
    expect(odooJson?.findings.filter((f) => f.code === 'index.dangling-link').map((f) => f.line)).toEqual([1, 4]);
    expect(odooJson?.findings.some((f) => f.code === 'index.not-an-index')).toBe(false);
    expect(report.agents?.map((a) => [a.agentType, a.findings.some((f) => f.code === 'index.not-an-index')])).toEqual([
      ['qa-lead', true],
      ['sound-engineer', true],
    ]);
  });
});
