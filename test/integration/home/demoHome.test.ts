import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../electron/cli/main';
import { createEngine, type Engine } from '../../../electron/core/engine';
import { FINDING_CODES, type FindingCode } from '../../../shared/memory/findingCodes';
import type { HomeSnapshot } from '../../../shared/model/home';

/**
 * The codes the demo cannot show: `lock.held` needs a live process holding `.consolidate-lock` while the demo
 * is open (a dream running right then); a static copy can only name a process that has long ended.
 */
const IMPOSSIBLE_IN_A_STATIC_DEMO: readonly FindingCode[] = ['lock.held'];

async function ccmem(argv: string[], env: NodeJS.ProcessEnv): Promise<unknown> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t), env });
  // Warnings (the agent folder that leads out) go to stderr; the command still succeeds.
  expect(code, stderr).toBe(0);
  return JSON.parse(stdout);
}

let tmp: string;
let dataDir: string;
let engine: Engine;
let demo: HomeSnapshot;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'ccmem-demo-'));
  dataDir = join(tmp, 'data');
  engine = await createEngine({
    roots: [{ path: join(tmp, 'no-claude-here'), source: 'CLAUDE_CONFIG_DIR' }],
    dataDir,
    demoHomeSource: resolve(import.meta.dirname, '../../../resources/demo-home'),
    shell: 'web',
    readOnly: false,
    watch: false,
  });
  expect(await engine.inbox.count()).toBe(0);
  // The app records history at start, here of a home with nothing in it yet.
  await engine.memoryHistory.recordNow();
  demo = await engine.handlers.openDemoHome({});
  env = { HOME: tmp, CLAUDE_CONFIG_DIR: join(dataDir, 'demo-home'), CCMEM_DATA_DIR: dataDir };
});

afterAll(async () => {
  await engine?.dispose();
  await rm(tmp, { recursive: true, force: true });
});

describe('the demo home', () => {
  it('opens as a private copy in the data folder, with the project its agents live in', () => {
    expect(demo.demo).toBe(true);
    expect(demo.roots.map((root) => root.path)).toEqual([join(dataDir, 'demo-home')]);
    const designSystem = demo.projects.find((project) => project.path === join(dataDir, 'demo-workspace', 'design-system'));
    expect(designSystem?.pathSource).toBe('sessions-index');
  });

  it('brings a dream whose proposals wait in the review inbox, fresh, each with verified evidence', async () => {
    const inbox = await engine.inbox.list();
    expect(inbox).toHaveLength(1);
    expect(inbox[0]).toMatchObject({ kind: 'dream', label: '/home/demo/code/webshop' });
    expect(inbox[0].files).toEqual([
      { path: 'MEMORY.md', kind: 'modify', stale: false },
      { path: 'project_checkout_freeze.md', kind: 'modify', stale: false },
    ]);
    const record = await engine.jobs.getJob(inbox[0].jobId);
    expect(record.summary).toMatch(/^Demo proposals \(written for the demo; no model ran\)/);
    for (const proposal of record.proposals) {
      expect(proposal.evidence?.length).toBeGreaterThan(0);
      expect(proposal.evidence?.every((evidence) => evidence.verified)).toBe(true);
    }
  });

  it('has agents in every snapshot state, and one whose folder leads out of its project', async () => {
    const agents = (await ccmem(['agents', '--json'], env)) as { agentType: string; snapshot: { action: string }; outsideRoot: string[] }[];
    const byType = new Map(agents.map((agent) => [agent.agentType, agent]));
    expect(byType.get('api-designer')?.snapshot.action).toBe('none');
    expect(byType.get('test-writer')?.snapshot.action).toBe('initialize');
    expect(byType.get('release-manager')?.snapshot.action).toBe('prompt-update');
    expect(byType.get('ux-writer')?.outsideRoot).toEqual(['local']);
  });

  it('starts its history fresh: not as a rebuild of history deleted since the empty home was looked at', async () => {
    await engine.memoryHistory.recordNow();
    expect((await engine.memoryHistory.status()).rebuilt).toBe(false);
  });

  it('has a history with a session edit, an extraction and a dream', async () => {
    const history = (await ccmem(['history', '--json'], env)) as { changeSets: { cause: string; reconstructed: boolean }[] };
    const causes = new Set(history.changeSets.map((changeSet) => changeSet.cause));
    for (const cause of ['session', 'extraction', 'dream']) expect(causes).toContain(cause);
  });

  it('`ccmem doctor --json --agents` finds every code but the one a static copy cannot hold', async () => {
    const report = (await ccmem(['doctor', '--json', '--agents'], env)) as {
      projects: { findings: { code: FindingCode }[] }[];
      agents: { findings: { code: FindingCode }[] }[];
    };
    const found = new Set([...report.projects, ...report.agents].flatMap((folder) => folder.findings.map((f) => f.code)));
    const expected = FINDING_CODES.filter((code) => !IMPOSSIBLE_IN_A_STATIC_DEMO.includes(code));
    expect([...found].sort()).toEqual([...expected].sort());
  });
});
