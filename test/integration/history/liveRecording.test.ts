import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FileProposal, JobRecord } from '../../../shared/jobs/jobTypes';
import { HistoryService } from '../../../electron/core/history/HistoryService';
import { HistoryStore } from '../../../electron/core/changes/HistoryStore';
import type { HomeService } from '../../../electron/core/home/HomeService';
import { applyProposals } from '../../../electron/core/jobs/applyProposals';
import type { LiveHome } from '../../../electron/core/watch/liveHome';
import { createDreamScenario, simulateDream, type DreamScenario } from './dreamSimulation';
import { startWatchedHome } from '../../fixtures/watchedHome';
import { ChangeSetWriter } from '../../../electron/core/changes/changeSetWriter';
import { autoMemoryRoot } from '../../../electron/core/changes/writeRoot';
import { seededUuid } from '../../fixtures/scenarioHome';
import { memoryFile, TranscriptBuilder } from './provenanceFixtures';

let scenario: DreamScenario;
let home: HomeService;
let live: LiveHome;
let history: HistoryService;
let store: HistoryStore;

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

function until<T>(probe: () => Promise<T | null>, timeoutMs = 8000): Promise<T> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const tick = async () => {
      const value = await probe();
      if (value !== null) return resolve(value);
      if (Date.now() - started > timeoutMs) return reject(new Error('timed out'));
      setTimeout(() => void tick(), 100);
    };
    void tick();
  });
}

beforeEach(async () => {
  scenario = await createDreamScenario();
  let dataDir: string;
  ({ home, live, dataDir } = await startWatchedHome(scenario.home, { shell: 'web', readOnly: false }));
  store = new HistoryStore(join(dataDir, 'history'));
  history = new HistoryService({
    home,
    store,
    historyDir: join(dataDir, 'history'),
    live,
    writer: new ChangeSetWriter({ history: store, onOwnWrite: (path) => live.expectOwnWrite(path) }),
    settleMs: 300,
  });
  history.start();
  // The start-up look and the reconstruction after it are done: what the tests change is recorded live.
  await until(async () => {
    const status = await history.status();
    return status.versionCount > 0 && status.reconstruction.state === 'done' ? true : null;
  });
});

afterEach(async () => {
  await history.dispose();
  await live.dispose();
  home.dispose();
  await scenario.home.cleanup();
});

const folder = () => ({ kind: 'project' as const, configRoot: scenario.home.root, slug: scenario.project.slug });

describe('recording while the app runs', () => {
  it('keeps a version for every watcher event, even when the file changes again before recording settles', async () => {
    const name = scenario.names[0];
    const path = join(scenario.project.memoryDir, name);
    await writeFile(path, 'first rewrite\n');
    // Long enough for the watcher to deliver the event, shorter than the settle delay.
    await new Promise((resolve) => setTimeout(resolve, 200));
    await writeFile(path, 'second rewrite\n');
    const versions = await until(async () => {
      const list = await history.listFileVersions(folder(), name);
      return list.some((v) => v.after === sha('second rewrite\n')) ? list : null;
    });
    expect(versions.map((v) => v.after)).toContain(sha('first rewrite\n'));
  });

  it('records a dream that happens while watching as one dream change set, and its own revert not as an outside change', async () => {
    await simulateDream(scenario, { improved: false });
    const dream = await until(async () => {
      const page = await history.listChangeSets({});
      const found = page.changeSets.find((c) => c.cause === 'dream');
      return found && found.totals.deleted === 5 && found.totals.modified === 21 ? found : null;
    });
    expect((await history.listChangeSets({})).changeSets).toHaveLength(1);
    const result = await history.revert(dream.id);
    expect(result.applied).toBe(true);
    // Give the watcher time to (not) report our own writes.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await history.recorder.flush();
    const causes = (await history.listChangeSets({})).changeSets.map((c) => c.cause);
    expect(causes.sort()).toEqual(['app-edit', 'dream']);
  });

  it("records a new project's first memory as added, by the session that wrote it, not as where history starts", async () => {
    const project = scenario.home.project(scenario.home.workPath('new-shop'));
    const sessionId = seededUuid('new-shop:session');
    const path = join(project.memoryDir, 'feedback_receipts.md');
    const text = '---\nname: receipts\ndescription: always email receipts\ntype: feedback\n---\nEmail every receipt.\n';
    const transcript = new TranscriptBuilder({ file: join(project.dir, `${sessionId}.jsonl`), sessionId, cwd: project.cwd });
    const now = Date.now();
    const turn = transcript.typed(new Date(now - 3000), 'Always email receipts');
    transcript.write(new Date(now - 2000), path, text);
    await transcript.flush();
    await memoryFile(path, text, new Date(now - 1900));
    const added = await until(async () => {
      const page = await history.listChangeSets({ sessionId });
      return page.changeSets.length > 0 ? page.changeSets : null;
    });
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({
      cause: 'session',
      firstSight: false,
      reconstructed: false,
      turnUuid: turn,
      memoryDir: project.memoryDir,
    });
    expect(added[0].files).toEqual([expect.objectContaining({ path: 'feedback_receipts.md', kind: 'added', certainty: 'exact' })]);
  });

  it("never records this app's own extraction or dream as someone else's change, even when history looks in the middle of it", async () => {
    for (const kind of ['extraction', 'dream'] as const) {
      const before = new Set((await history.listChangeSets({})).changeSets.map((c) => c.id));
      const name = kind === 'dream' ? scenario.names[1] : scenario.names[2];
      const old = await readFile(join(scenario.project.memoryDir, name), 'utf8');
      const proposals: FileProposal[] = [
        { path: name, kind: 'modify', baseHash: sha(old), before: old, after: `${old}Applied by a ${kind} job.\n`, parts: [], diff: '' },
        {
          path: `${kind}_new.md`,
          kind: 'add',
          baseHash: null,
          before: null,
          after: `A new topic from the ${kind}.\n`,
          parts: [],
          diff: '',
        },
      ];
      const job = {
        id: `job-${kind}`,
        kind,
        target: {
          target: { kind: 'project', configRoot: scenario.home.root, slug: scenario.project.slug },
          memoryDir: scenario.project.memoryDir,
        },
        summary: null,
        proposals,
      } as unknown as JobRecord;
      // History looks after the files are written and before the job journals them: the race to survive.
      const racing = Object.assign(Object.create(store) as HistoryStore, {
        append: async (entries: Parameters<HistoryStore['append']>[0]) => {
          await history.recorder.recordAll('live');
          return store.append(entries);
        },
      });
      const writer = new ChangeSetWriter({ history: racing, onOwnWrite: (path) => live.expectOwnWrite(path) });
      const outcome = await applyProposals(
        job,
        proposals.map((p) => ({ path: p.path, decision: 'accept' as const })),
        { writer, root: autoMemoryRoot(scenario.project.memoryDir), now: () => new Date() },
      );
      expect(outcome.applied).toHaveLength(2);
      await new Promise((resolve) => setTimeout(resolve, 800));
      await history.recorder.recordAll('live');
      await history.recorder.flush();
      const added = (await history.listChangeSets({})).changeSets.filter((c) => !before.has(c.id));
      expect(added.map((c) => [c.cause, c.files.length])).toEqual([[kind, 2]]);
    }
  });
});
