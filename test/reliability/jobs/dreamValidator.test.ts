import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileProposal, JobRecord } from '../../../shared/jobs/jobTypes';
import type { Engine } from '../../../electron/core/engine';
import { contentHash } from '../../../electron/core/fs/contentHash';
import { toJobJson } from '../../../electron/core/jobs/jobJson';
import { JobRecordStore, newJobId } from '../../../electron/core/jobs/JobRecordStore';
import { SessionSecretStore } from '../../../electron/core/settings/secretStore';
import { createScenarioHome, type ProjectBuilder, type ScenarioHome } from '../../fixtures/scenarioHome';
import { snapshotTree } from '../../fixtures/treeSnapshot';
import { startFakeAnthropicServer, textTurn, toolUseTurn, type FakeAnthropicServer } from '../../helpers/fakeAnthropicServer';
import { recordFigure } from '../support/figureLog';
import { MAX_PATH_BYTES } from '../../../electron/core/fs/fileNameRules';
import { createTestEngine } from '../../fixtures/testEngine';

const INDEX = '- [Notes](notes.md) — notes\n';
const TEAM_INDEX = '- [Conventions](conventions.md) — branch prefixes\n';
const LONG_NAME = `${'n'.repeat(256)}.md`;
/** Names of 200 bytes each, deep enough to pass the system's whole-path limit. */
const LONG_PATH = `${Array.from({ length: Math.ceil(MAX_PATH_BYTES / 201) }, (_, i) => `${i}`.padStart(200, 'd')).join('/')}/x.md`;

/** The changes a dream must never make, whichever way it proposes them. */
const HARMFUL: readonly { readonly path: string; readonly before: string | null; readonly after: string | null }[] = [
  { path: 'team/MEMORY.md', before: TEAM_INDEX, after: null },
  { path: 'MEMORY.md', before: INDEX, after: '\n  \n' },
  { path: 'evil\nname.md', before: null, after: 'A name that splits every listing.\n' },
  { path: LONG_NAME, before: null, after: 'A name longer than 255 bytes.\n' },
];

function proposal(path: string, before: string | null, after: string | null): FileProposal {
  return {
    path,
    kind: before === null ? 'add' : after === null ? 'delete' : 'modify',
    baseHash: before === null ? null : contentHash(before),
    before,
    after,
    parts: [],
    diff: '',
  };
}

describe('the dream validator refuses harmful changes one by one, never the whole job', () => {
  let home: ScenarioHome;
  let project: ProjectBuilder;
  let engine: Engine;
  let fake: FakeAnthropicServer;
  let dataDir: string;

  beforeAll(async () => {
    home = await createScenarioHome({ prefix: 'ccmem-dream-validator-' });
    project = home.project(home.workPath('shop'));
    await project.session({ turns: 1 });
    await project.memoryIndex(INDEX);
    await project.memory('notes.md', 'Notes.\n');
    await project.memory('team/MEMORY.md', TEAM_INDEX);
    await project.memory('team/conventions.md', 'Use feat/ branches.\n');
    dataDir = join(home.tmp, 'data');
    fake = await startFakeAnthropicServer();
    engine = await createTestEngine(home, {
      dataDir,
      llm: { secrets: new SessionSecretStore(), environment: { apiKey: 'sk-ant-test-key', baseUrl: fake.url, maxRetries: 0 } },
    });
  });

  afterAll(async () => {
    await engine.dispose();
    await fake.close();
    await home.cleanup();
  });

  it('while the model stages them: each is refused with its reason (accepted: false), the rest is proposed', async () => {
    fake.enqueue(
      toolUseTurn([
        { name: 'delete_file', input: { path: 'team/MEMORY.md' } },
        { name: 'write_file', input: { path: 'MEMORY.md', content: '' } },
        { name: 'edit_file', input: { path: 'team/MEMORY.md', old_string: TEAM_INDEX, new_string: '\n' } },
        { name: 'write_file', input: { path: 'evil\nname.md', content: 'x' } },
        { name: 'write_file', input: { path: LONG_NAME, content: 'x' } },
        { name: 'write_file', input: { path: 'notes.md', content: 'Notes, consolidated.\n' } },
      ]),
      textTurn('Consolidated.'),
    );
    const job = await engine.jobs.startDream({ kind: 'project', configRoot: home.root, slug: project.slug });
    const json = toJobJson(await engine.jobs.waitForJob(job.id));
    const refused = json.proposals.filter((p) => !p.accepted);
    recordFigure('badInputs', { tried: HARMFUL.length }, 'files');

    expect(json.proposals.filter((p) => p.accepted).map((p) => p.path)).toEqual(['notes.md']);
    expect(refused.map((p) => [p.path, p.rejectedReason])).toEqual([
      ['team/MEMORY.md', 'team/MEMORY.md cannot be deleted'],
      ['MEMORY.md', 'MEMORY.md cannot be emptied: Claude Code loads it into every session'],
      ['team/MEMORY.md', 'team/MEMORY.md cannot be emptied: Claude Code loads it into every session'],
      ['evil\nname.md', 'the name holds a control character (a newline, a tab, NUL…)'],
      [LONG_NAME, 'a name is longer than 255 bytes'],
    ]);
  });

  it('when a job that holds them is applied: each fails alone, with its reason, and the rest lands', async () => {
    const now = new Date();
    const proposals = [
      ...HARMFUL.map((change) => proposal(change.path, change.before, change.after)),
      proposal(LONG_PATH, null, 'Deeper than the system allows.\n'),
      proposal('notes.md', 'Notes.\n', 'Notes, applied.\n'),
    ];
    // A record from before the validator knew these rules (or a hand edit at review time) may hold any of them.
    const record = {
      id: newJobId('dream', now),
      kind: 'dream',
      trigger: 'user',
      status: 'ready',
      target: {
        target: { kind: 'project', configRoot: home.root, slug: project.slug },
        memoryDir: project.memoryDir,
        transcriptDir: null,
        label: 'shop',
      },
      source: null,
      createdAt: now.toISOString(),
      finishedAt: now.toISOString(),
      model: 'test',
      promptHash: '0'.repeat(64),
      usage: { input: 0, output: 0 },
      costUsd: null,
      turns: 1,
      summary: null,
      error: null,
      stopReason: null,
      proposalCount: proposals.length,
      refusedCount: 0,
      outcome: null,
      proposals,
      refused: [],
    } satisfies JobRecord;
    await new JobRecordStore(dataDir).save(record);
    const teamBefore = await snapshotTree(join(project.memoryDir, 'team'));
    const outcome = await engine.jobs.apply(
      record.id,
      proposals.map((p) => ({ path: p.path, decision: 'accept' as const })),
    );
    expect(outcome.applied).toEqual([{ path: 'notes.md', kind: 'modify' }]);
    expect(outcome.conflicts).toEqual([
      { path: 'team/MEMORY.md', reason: 'team/MEMORY.md cannot be deleted' },
      { path: 'MEMORY.md', reason: 'MEMORY.md cannot be emptied: Claude Code loads it into every session' },
      { path: 'evil\nname.md', reason: 'the name holds a control character (a newline, a tab, NUL…)' },
      { path: LONG_NAME, reason: 'a name is longer than 255 bytes' },
      { path: LONG_PATH, reason: `the whole path is longer than ${MAX_PATH_BYTES} bytes, the system's limit` },
    ]);
    expect(await readFile(join(project.memoryDir, 'MEMORY.md'), 'utf8')).toBe(INDEX);
    expect(await readFile(join(project.memoryDir, 'notes.md'), 'utf8')).toBe('Notes, applied.\n');
    expect(await snapshotTree(join(project.memoryDir, 'team'))).toEqual(teamBefore);
  });
});
