import fc from 'fast-check';
import { lstat, readFile, readlink, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requestNames } from '../../../shared/contract/channels';
import { dispatchRequest } from '../../../shared/contract/dispatch';
import { requestSchemas, type RequestName } from '../../../shared/contract/requests';
import type { FileProposal, JobRecord, ProposalKind } from '../../../shared/jobs/jobTypes';
import { CodedError } from '../../../shared/result';
import { createEngine } from '../../../electron/core/engine';
import { contentHash } from '../../../electron/core/fs/contentHash';
import { SafeWriter } from '../../../electron/core/fs/safeWriter';
import { HistoryStore } from '../../../electron/core/changes/HistoryStore';
import { applyProposals } from '../../../electron/core/jobs/applyProposals';
import { readConsolidationLockStatus } from '../../../electron/core/lock/consolidationLockStatus';
import { isLiveDreamLock } from '../../../electron/core/lock/liveDreamLock';
import { createScenarioHome, DEAD_PID, topicFile, type ScenarioHome } from '../../fixtures/scenarioHome';
import { payloadArbitrary } from '../support/contractArbitraries';
import { recordFigure } from '../support/figureLog';
import { atScale, timeoutAtScale } from '../support/reliabilityScale';
import { ChangeSetWriter } from '../../../electron/core/changes/changeSetWriter';
import { autoMemoryRoot } from '../../../electron/core/changes/writeRoot';

const LOCK = '.consolidate-lock';
const HOUR = 60 * 60 * 1000;
/** A process that runs for as long as this test does, and is not this process: the test runner. */
const LIVE_PID = process.ppid;

// Requests that reach the model must fail for want of a key, never call out from a test.
delete process.env.ANTHROPIC_API_KEY;
process.env.ANTHROPIC_BASE_URL = 'http://127.0.0.1:9';

interface ForeignLock {
  readonly name: string;
  readonly body?: string;
  readonly ageMs: number;
  readonly symlinkTo?: string;
}

/** Locks another process left: live, stale, dead, garbage, and not a plain file at all. */
const foreignLocks: readonly ForeignLock[] = [
  { name: 'live holder', body: String(LIVE_PID), ageMs: 5 * 60_000 },
  { name: 'live holder, stale', body: String(LIVE_PID), ageMs: 2 * HOUR },
  { name: 'dead holder', body: String(DEAD_PID), ageMs: 5 * 60_000 },
  { name: 'empty body', body: '', ageMs: 30 * 60_000 },
  { name: 'garbage', body: 'not a pid', ageMs: 60_000 },
  { name: 'negative', body: '-42', ageMs: 60_000 },
  { name: 'digits and letters', body: '123abc', ageMs: 60_000 },
  { name: 'huge number', body: '99999999999999999999999', ageMs: 60_000 },
  { name: 'padded', body: `  ${LIVE_PID} \n`, ageMs: 60_000 },
  { name: 'NUL bytes', body: '\u0000\u0000', ageMs: 60_000 },
  { name: 'large body', body: '7'.repeat(100_000), ageMs: 60_000 },
  { name: 'symlink', symlinkTo: 'elsewhere-lock', ageMs: 60_000 },
];

interface LockFacts {
  readonly kind: string;
  readonly bytes: string;
  readonly mtimeMs: number;
}

async function lockFacts(memoryDir: string): Promise<LockFacts> {
  const path = join(memoryDir, LOCK);
  const stats = await lstat(path);
  const bytes = stats.isSymbolicLink() ? `-> ${await readlink(path)}` : (await readFile(path)).toString('base64');
  return { kind: stats.isSymbolicLink() ? 'symlink' : 'file', bytes, mtimeMs: stats.mtimeMs };
}

async function placeLock(memoryDir: string, lock: ForeignLock): Promise<void> {
  const path = join(memoryDir, LOCK);
  const time = new Date(Date.now() - lock.ageMs);
  if (lock.symlinkTo) {
    await writeFile(join(memoryDir, '..', lock.symlinkTo), String(LIVE_PID));
    await symlink(join(memoryDir, '..', lock.symlinkTo), path);
  } else {
    await writeFile(path, lock.body ?? '');
    await utimes(path, time, time);
  }
}

async function memoryProject(home: ScenarioHome, name: string): Promise<{ slug: string; memoryDir: string; path: string }> {
  const path = home.workPath(name);
  const project = home.project(path);
  await project.session({ turns: 1 });
  await project.memoryIndex('- [Note](note.md) — a note\n');
  await project.memory('note.md', topicFile({ variant: 'flat', name: 'note', description: 'a note', type: 'project', body: 'Note.\n' }));
  return { slug: project.slug, memoryDir: project.memoryDir, path };
}

function record(memoryDir: string, configRoot: string, slug: string, kind: 'dream' | 'extraction', proposals: FileProposal[]): JobRecord {
  return {
    id: `job-${kind}`,
    kind,
    status: 'ready',
    target: { target: { kind: 'project', configRoot, slug }, memoryDir, transcriptDir: null, label: slug },
    source: null,
    createdAt: new Date().toISOString(),
    finishedAt: new Date().toISOString(),
    model: 'test',
    promptHash: '0'.repeat(64),
    usage: { inputTokens: 0, outputTokens: 0, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 },
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
  } as unknown as JobRecord;
}

function proposal(path: string, before: string | null, after: string | null): FileProposal {
  const kind: ProposalKind = before === null ? 'add' : after === null ? 'delete' : 'modify';
  return { path, kind, baseHash: before === null ? null : contentHash(before), before, after, parts: [], diff: '' };
}

describe('a .consolidate-lock another process holds', () => {
  it(
    'is left byte- and mtime-identical by every request the app answers and every memory edit',
    async () => {
      const home = await createScenarioHome({ prefix: 'ccmem-lock-workflows-' });
      const engine = await createEngine({
        roots: [{ path: home.root, source: 'CLAUDE_CONFIG_DIR' }],
        dataDir: join(home.tmp, 'data'),
        demoHomeSource: null,
        shell: 'electron',
        readOnly: false,
        watch: false,
      });
      try {
        const projects = [];
        // CI scale: one lock of each family (live, dead, garbage, not a file); full scale: all of them.
        const locks =
          atScale(0, 1) === 1
            ? foreignLocks
            : foreignLocks.filter((l) => ['live holder', 'dead holder', 'garbage', 'symlink'].includes(l.name));
        for (const [index, lock] of locks.entries()) {
          const project = await memoryProject(home, `locked-${index}`);
          await placeLock(project.memoryDir, lock);
          projects.push({ ...project, lock, before: await lockFacts(project.memoryDir) });
        }
        await engine.home.refresh();
        let attempts = 0;
        for (const project of projects) {
          const ref = { kind: 'project' as const, configRoot: home.root, slug: project.slug };
          const edits: (() => Promise<unknown>)[] = [
            () => engine.memory.getReview(ref),
            async () =>
              engine.memory.save(ref, {
                relativePath: 'note.md',
                baseHash: (await engine.memory.readFile(ref, 'note.md')).hash,
                body: 'Edited.\n',
              }),
            () =>
              engine.memory.create(ref, { scope: 'private', fileName: 'created.md', name: 'c', description: 'd', type: 'user', body: 'b' }),
            async () =>
              engine.memory.rename(ref, {
                from: 'created.md',
                to: 'renamed.md',
                baseHash: (await engine.memory.readFile(ref, 'created.md')).hash,
              }),
            async () =>
              engine.memory.prune(ref, { relativePath: 'renamed.md', baseHash: (await engine.memory.readFile(ref, 'renamed.md')).hash }),
            async () => engine.memory.save(ref, { relativePath: LOCK, baseHash: contentHash(''), body: '1' }),
            async () => engine.memory.prune(ref, { relativePath: LOCK, baseHash: contentHash('') }),
          ];
          for (const edit of edits) {
            attempts++;
            await edit().catch((error: unknown) => {
              if (!(error instanceof CodedError)) throw error;
            });
          }
          // And every request of the contract, with payloads built from this project's real names.
          const realStrings = [home.root, project.slug, 'note.md', LOCK, 'MEMORY.md', project.memoryDir, project.path];
          for (const name of requestNames) {
            for (const args of fc.sample(payloadArbitrary(requestSchemas[name as RequestName].args, { realStrings }), atScale(1, 40))) {
              attempts++;
              await dispatchRequest(engine.handlers, name, args, { readOnly: false });
            }
          }
        }
        const changed: string[] = [];
        for (const project of projects) {
          const after = await lockFacts(project.memoryDir);
          if (JSON.stringify(after) !== JSON.stringify(project.before)) changed.push(project.lock.name);
        }
        recordFigure('badInputs', { tried: attempts }, 'lock');
        recordFigure('faults', { injected: projects.length, survived: projects.length - changed.length }, 'foreign lock');
        expect(changed).toEqual([]);
      } finally {
        await engine.dispose();
        await home.cleanup();
      }
    },
    timeoutAtScale(60_000, 1_800_000),
  );

  it('blocks edits only while its holder is alive and the lock is younger than an hour', async () => {
    const home = await createScenarioHome({ prefix: 'ccmem-lock-pids-' });
    try {
      const outcomes: Record<string, { live: boolean; holderPid: number | null; editRefused: boolean }> = {};
      for (const [index, lock] of foreignLocks.entries()) {
        const project = await memoryProject(home, `pid-${index}`);
        await placeLock(project.memoryDir, lock);
        const status = await readConsolidationLockStatus(project.memoryDir);
        const writer = new SafeWriter();
        const note = await writer.readCurrent(project.memoryDir, 'note.md');
        const editRefused = await writer.write(project.memoryDir, 'note.md', 'Edited.\n', note.hash ?? 'absent').then(
          () => false,
          (error: unknown) => error instanceof CodedError && error.code === 'LOCK_HELD',
        );
        outcomes[lock.name] = { live: isLiveDreamLock(status, Date.now()), holderPid: status.holderPid, editRefused };
      }
      recordFigure('badInputs', { tried: foreignLocks.length }, 'lock');
      expect(outcomes['live holder']).toEqual({ live: true, holderPid: LIVE_PID, editRefused: true });
      expect(outcomes['padded']).toEqual({ live: true, holderPid: LIVE_PID, editRefused: true });
      expect(outcomes['live holder, stale']).toEqual({ live: false, holderPid: LIVE_PID, editRefused: false });
      expect(outcomes['dead holder']).toEqual({ live: false, holderPid: DEAD_PID, editRefused: false });
      for (const name of ['empty body', 'garbage', 'negative', 'digits and letters', 'huge number', 'NUL bytes', 'large body', 'symlink']) {
        expect(outcomes[name], name).toEqual({ live: false, holderPid: null, editRefused: false });
      }
    } finally {
      await home.cleanup();
    }
  });
});

describe("our own apply's use of the lock", () => {
  async function setUp(prior: ForeignLock | null) {
    const home = await createScenarioHome({ prefix: 'ccmem-lock-apply-' });
    const project = await memoryProject(home, 'dreamed');
    if (prior) await placeLock(project.memoryDir, prior);
    const before = prior ? await lockFacts(project.memoryDir) : null;
    const history = new HistoryStore(join(home.tmp, 'data', 'history'));
    const note = await readFile(join(project.memoryDir, 'note.md'), 'utf8');
    return { home, project, before, history, note };
  }

  it('takes the lock as Claude Code does, and leaves it exactly as the protocol says on success, rollback and failure', async () => {
    const outcomes: Record<string, boolean> = {};
    const dead: ForeignLock = { name: 'dead holder', body: String(DEAD_PID), ageMs: 3 * HOUR };

    for (const [name, prior, kind, failing] of [
      ['dream, no lock before', null, 'dream', false],
      ['extraction, no lock before', null, 'extraction', false],
      ['dream over a dead holder', dead, 'dream', false],
      ['extraction over a dead holder', dead, 'extraction', false],
      ['dream that fails half way, over a dead holder', dead, 'dream', true],
      ['dream that fails half way, no lock before', null, 'dream', true],
    ] as const) {
      const { home, project, before, history, note } = await setUp(prior);
      try {
        const files = new SafeWriter();
        const brokenFiles = Object.assign(Object.create(files) as SafeWriter, {
          write: () => Promise.reject(new Error('EIO: the disk went away half way')),
        });
        const startedAt = Date.now();
        const job = record(project.memoryDir, home.root, project.slug, kind, [
          proposal('note.md', note, `${note}Consolidated.\n`),
          proposal('new-topic.md', null, 'A new topic.\n'),
        ]);
        const decisions = job.proposals.map((p) => ({ path: p.path, decision: 'accept' as const }));
        const settled = await applyProposals(job, decisions, {
          writer: new ChangeSetWriter({ history, files: failing ? brokenFiles : files }),
          root: autoMemoryRoot(project.memoryDir),
          now: () => new Date(),
        }).catch(() => null);
        const applied = settled !== null && settled.applied.length === 2 && settled.conflicts.length === 0;
        // A failing write fails its file, not the batch: the apply settles, applies nothing and reports both files.
        const failedEachFile = settled !== null && settled.applied.length === 0 && settled.conflicts.length === 2;
        const path = join(project.memoryDir, LOCK);
        const after = await lstat(path).catch(() => null);
        const body = after ? await readFile(path, 'utf8') : null;
        let protocol: boolean;
        if (failing || kind === 'extraction') {
          // Rolled back: no lock before → no lock after; else the PID cleared and the old mtime put back.
          protocol = before === null ? after === null : body === '' && Math.abs((after?.mtimeMs ?? 0) - before.mtimeMs) < 1;
        } else {
          // A dream that applied: the lock stays, its mtime the time we took it, and no PID (this app lives on).
          protocol = applied && body === '' && after !== null && after.mtimeMs >= startedAt - 1000 && after.mtimeMs <= Date.now() + 1000;
        }
        outcomes[name] = protocol && (failing ? failedEachFile : applied);
      } finally {
        await home.cleanup();
      }
    }

    // A live holder: the apply is refused and the lock not touched.
    const live = await setUp({ name: 'live holder', body: String(LIVE_PID), ageMs: 60_000 });
    try {
      const job = record(live.project.memoryDir, live.home.root, live.project.slug, 'dream', [
        proposal('note.md', live.note, 'Changed.\n'),
      ]);
      const refused = await applyProposals(job, [{ path: 'note.md', decision: 'accept' }], {
        writer: new ChangeSetWriter({ history: live.history }),
        root: autoMemoryRoot(live.project.memoryDir),
        now: () => new Date(),
      }).then(
        () => false,
        (error: unknown) => error instanceof CodedError && error.code === 'LOCK_HELD',
      );
      outcomes['refused while a live holder dreams'] =
        refused && JSON.stringify(await lockFacts(live.project.memoryDir)) === JSON.stringify(live.before);
    } finally {
      await live.home.cleanup();
    }

    // Another process takes the lock while we apply: our release must leave its lock alone.
    const raced = await setUp(null);
    try {
      const files = new SafeWriter();
      const racingFiles = Object.assign(Object.create(files) as SafeWriter, {
        write: async (...args: Parameters<SafeWriter['write']>) => {
          await writeFile(join(raced.project.memoryDir, LOCK), String(LIVE_PID));
          return files.write(...args);
        },
      });
      const job = record(raced.project.memoryDir, raced.home.root, raced.project.slug, 'dream', [
        proposal('note.md', raced.note, 'Changed.\n'),
      ]);
      await applyProposals(job, [{ path: 'note.md', decision: 'accept' }], {
        writer: new ChangeSetWriter({ history: raced.history, files: racingFiles }),
        root: autoMemoryRoot(raced.project.memoryDir),
        now: () => new Date(),
      }).catch(() => undefined);
      outcomes['leaves a lock another process took meanwhile'] =
        (await readFile(join(raced.project.memoryDir, LOCK), 'utf8')) === String(LIVE_PID);
    } finally {
      await raced.home.cleanup();
    }

    const total = Object.keys(outcomes).length;
    recordFigure('faults', { injected: total, survived: Object.values(outcomes).filter(Boolean).length }, 'lock protocol');
    expect(outcomes).toEqual(Object.fromEntries(Object.keys(outcomes).map((name) => [name, true])));
  });
});
