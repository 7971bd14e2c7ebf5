import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileProposal, JobKind, JobRecord } from '../../../shared/jobs/jobTypes';
import type { MemoryFolderRef } from '../../../shared/memory/memoryFolderRef';
import { CodedError } from '../../../shared/result';
import type { Engine } from '../../../electron/core/engine';
import { contentHash } from '../../../electron/core/fs/contentHash';
import { writeTarGz } from '../../../electron/core/history/backup/tarArchive';
import { JobRecordStore, newJobId } from '../../../electron/core/jobs/JobRecordStore';
import { createScenarioHome, topicFile, type ProjectBuilder, type ScenarioHome } from '../../fixtures/scenarioHome';
import { recordFigure } from '../support/figureLog';
import { createTestEngine } from '../../fixtures/testEngine';

/** An AWS access key id alone (no secret key beside it), and a GitHub token: fake, and shaped like the real ones. */
const AWS_KEY_ID = 'AKIAQ3EGRSLPZ7TNVKXM';
const GITHUB_TOKEN = 'ghp_R8bX2kLq9ZtW4mN7vYc1Hs5Jd3Fg6Pa0Ue2T';
const PLANTED = [AWS_KEY_ID, GITHUB_TOKEN];
const CONVENTIONS = topicFile({
  variant: 'flat',
  name: 'Conventions',
  description: 'branch prefixes',
  type: 'feedback',
  body: 'Use feat/.\n',
});
/** One byte over Claude Code's per-file limit for team memory. */
const OVERSIZED = `${CONVENTIONS}${'x'.repeat(250_001 - Buffer.byteLength(CONVENTIONS))}`;

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

/** A finished job waiting for review, as the job store keeps it. */
async function savedJob(
  dataDir: string,
  kind: JobKind,
  ref: { configRoot: string; slug: string },
  memoryDir: string,
  proposals: FileProposal[],
) {
  const now = new Date();
  const record = {
    id: newJobId(kind, now),
    kind,
    trigger: 'user',
    status: 'ready',
    target: { target: { kind: 'project', ...ref }, memoryDir, transcriptDir: null, label: ref.slug },
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
  return record;
}

describe('team memory never receives a secret, whatever the path', () => {
  let home: ScenarioHome;
  let project: ProjectBuilder;
  let engine: Engine;
  let ref: MemoryFolderRef;
  let dataDir: string;

  beforeAll(async () => {
    home = await createScenarioHome({ prefix: 'ccmem-team-guard-' });
    project = home.project(home.workPath('shop'));
    await project.session({ turns: 1 });
    await project.memoryIndex('- [Notes](notes.md) — notes\n');
    await project.memory('notes.md', 'Notes.\n');
    await project.memory('team/MEMORY.md', '- [Conventions](conventions.md) — branch prefixes\n');
    await project.memory('team/conventions.md', CONVENTIONS);
    // Claude Code once wrote a key into team memory, and it was cleaned up since: history holds the old version.
    await project.memory('team/deploy.md', `Deploy as ${AWS_KEY_ID}.\n`);
    dataDir = join(home.tmp, 'data');
    engine = await createTestEngine(home, { dataDir });
    ref = { kind: 'project', configRoot: home.root, slug: project.slug };
    await engine.memoryHistory.recordNow();
    await writeFile(join(project.memoryDir, 'team', 'deploy.md'), 'Deploy through the pipeline.\n');
    await engine.memoryHistory.recordNow();
  });

  afterAll(async () => {
    await engine.dispose();
    await home.cleanup();
  });

  /** The planted secrets found in any team file now. */
  async function secretsInTeam(): Promise<number> {
    let found = 0;
    for (const name of await readdir(join(project.memoryDir, 'team'))) {
      const text = await readFile(join(project.memoryDir, 'team', name), 'utf8');
      found += PLANTED.filter((secret) => text.includes(secret)).length;
    }
    return found;
  }

  it('is refused in the editor, a dream or extraction, an import, a restore and a revert; an oversized team file too', async () => {
    const target = { configRoot: home.root, slug: project.slug };
    const versions = await engine.memoryHistory.listFileVersions(ref, 'team/deploy.md');
    const withKey = versions.find((version) => version.after !== null && version.firstSight)?.after as string;
    const cleaned = versions.find((version) => !version.firstSight) as (typeof versions)[number];
    const dream = await savedJob(dataDir, 'dream', target, project.memoryDir, [
      proposal('team/conventions.md', CONVENTIONS, `${CONVENTIONS}Push with ${GITHUB_TOKEN}.\n`),
      proposal('team/keys.md', null, `The deploy key id is ${AWS_KEY_ID}.\n`),
      proposal('notes.md', 'Notes.\n', 'Notes, consolidated.\n'),
    ]);
    const extraction = await savedJob(dataDir, 'extraction', target, project.memoryDir, [
      proposal('team/ci.md', null, `CI token: ${GITHUB_TOKEN}\n`),
    ]);
    const archive = writeTarGz([{ name: 'memory/team/imported.md', bytes: Buffer.from(`Key id ${AWS_KEY_ID}\n`), mtimeMs: Date.now() }]);
    const accept = (record: JobRecord) => record.proposals.map((p) => ({ path: p.path, decision: 'accept' as const }));
    const attempts: [string, () => Promise<unknown>][] = [
      [
        'editor: an access key id alone',
        () =>
          engine.memory.save(ref, {
            relativePath: 'team/conventions.md',
            baseHash: contentHash(CONVENTIONS),
            body: `Deploy as ${AWS_KEY_ID}.\n`,
          }),
      ],
      [
        'editor: a new team file',
        () =>
          engine.memory.create(ref, {
            scope: 'team',
            fileName: 'ci.md',
            name: 'CI',
            description: 'ci',
            type: 'reference',
            body: GITHUB_TOKEN,
          }),
      ],
      [
        'dream apply',
        async () => (await engine.jobs.apply(dream.id, accept(dream))).applied.filter((file) => file.path.startsWith('team/')),
      ],
      ['extraction apply', async () => (await engine.jobs.apply(extraction.id, accept(extraction))).applied],
      ['import', async () => (await engine.memoryHistory.applyImport(ref, archive, { 'team/imported.md': null })).written],
      ['restore', () => engine.memoryHistory.restore(ref, 'team/deploy.md', withKey)],
      ['revert', () => engine.memoryHistory.revert(cleaned.changeSetId)],
    ];
    const allowed: string[] = [];
    for (const [name, attempt] of attempts) {
      const result = await attempt().catch((error: unknown) => (error instanceof CodedError ? null : error));
      // A job apply or an import settles per file: what it wrote to team memory is what must be empty.
      if (result !== null && !(Array.isArray(result) && result.length === 0)) allowed.push(name);
    }
    const oversized = await engine.memory
      .save(ref, { relativePath: 'team/conventions.md', baseHash: contentHash(CONVENTIONS), body: OVERSIZED })
      .then(
        () => 'saved',
        (error: unknown) => (error instanceof CodedError ? error.code : String(error)),
      );
    const landed = await secretsInTeam();
    recordFigure('teamSecrets', { landed, attempts: attempts.length });
    recordFigure('badInputs', { tried: attempts.length + 1 }, 'secrets');

    expect(allowed).toEqual([]);
    expect(landed).toBe(0);
    expect(oversized).toBe('INVALID_INPUT');
    expect(await readFile(join(project.memoryDir, 'team', 'conventions.md'), 'utf8')).toBe(CONVENTIONS);
    // The dream's other file is not held back by the refused ones.
    expect(await readFile(join(project.memoryDir, 'notes.md'), 'utf8')).toBe('Notes, consolidated.\n');
    const preview = await engine.memoryHistory.previewImport(ref, archive);
    expect(preview.files.map((file) => [file.path, file.status])).toEqual([['team/imported.md', 'refused']]);
  });

  it('a snapshot, which is committed and shared too, is never created from memory that holds a secret', async () => {
    const repo = home.workPath('shop');
    const dir = await home.agentMemory('project', 'deployer', { 'MEMORY.md': `Deploy as ${AWS_KEY_ID}.\n` }, repo);
    const refused = await engine.agentSnapshots.apply({ ref: { dir }, command: 'create' }).then(
      () => null,
      (error: unknown) => (error instanceof CodedError ? error.code : String(error)),
    );
    expect(refused).toBe('FORBIDDEN');
    await expect(readdir(join(repo, '.claude', 'agent-memory-snapshots'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
