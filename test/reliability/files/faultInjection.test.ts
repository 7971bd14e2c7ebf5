import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentHash } from '../../../electron/core/fs/contentHash';
import { HistoryStore } from '../../../electron/core/changes/HistoryStore';
import { HomeService } from '../../../electron/core/home/HomeService';
import { MemoryReviewService } from '../../../electron/core/memory/MemoryReviewService';
import type { MemoryFolderRef } from '../../../shared/memory/memoryFolderRef';
import { createScenarioHome, topicFile, type ProjectBuilder, type ScenarioHome } from '../../fixtures/scenarioHome';
import { FaultInjector, INJECTED_CODES, type InjectedCode } from '../support/faultInjector';
import { recordFigure } from '../support/figureLog';
import { reliabilityScale, timeoutAtScale } from '../support/reliabilityScale';
import { ChangeSetWriter } from '../../../electron/core/changes/changeSetWriter';

const OLD_BODY = 'The old body, which must survive every failed save.\n';
/** Every save writes a body never seen before, so history has to store a new version each time too. */
let saves = 0;
const nextBody = (): string => `The new body #${++saves}, which lands whole or not at all.\n`;
const OLD_TEXT = topicFile({ variant: 'flat', name: 'fault', description: 'a file written under faults', type: 'project', body: OLD_BODY });

async function tempFilesUnder(dir: string): Promise<string[]> {
  const names = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
  return names.filter((name) => name.endsWith('.tmp'));
}

describe('faults injected at each step of the write path', () => {
  let home: ScenarioHome;
  let project: ProjectBuilder;
  let history: HistoryStore;
  let homeService: HomeService;
  let ref: MemoryFolderRef;
  let injector: FaultInjector;
  const dataDir = (): string => join(home.tmp, 'data');
  /** A service as a freshly started app has it: its first write into a folder clears what earlier runs left. */
  const startApp = (): MemoryReviewService =>
    new MemoryReviewService({ home: homeService, writer: new ChangeSetWriter({ history }), live: null });

  beforeAll(async () => {
    home = await createScenarioHome({ prefix: 'ccmem-faults-' });
    project = home.project(home.workPath('faulty'));
    await project.session({ turns: 1 });
    await project.memoryIndex('- [Fault](fault.md) — a file written under faults\n');
    await project.memory('fault.md', OLD_TEXT);
    homeService = new HomeService({
      roots: [{ path: home.root, source: 'CLAUDE_CONFIG_DIR' }],
      dataDir: dataDir(),
      demoHomeSource: null,
      shell: 'cli',
      readOnly: false,
    });
    history = new HistoryStore(join(dataDir(), 'history'));
    ref = { kind: 'project', configRoot: home.root, slug: project.slug };
    // Every file system call under the scenario's temp folder (memory folder and app data alike) can fail.
    injector = new FaultInjector(home.tmp);
    await injector.install();
  });

  afterAll(async () => {
    injector.uninstall();
    await home.cleanup();
  });

  /** One save with a fault at `step`, then a restart; reports whether the file, its history and the folder survived. */
  async function saveWithFault(
    step: number,
    code: InjectedCode,
  ): Promise<{ survived: boolean; lost: boolean; leftovers: number; problem: string | null; operation: string | null }> {
    const file = join(project.memoryDir, 'fault.md');
    injector.arm(null);
    await writeFile(file, OLD_TEXT);
    const service = startApp();
    const { hash } = await service.readFile(ref, 'fault.md');
    injector.arm(step, code);
    let threw: unknown = null;
    const body = nextBody();
    try {
      await service.save(ref, { relativePath: 'fault.md', baseHash: hash, body });
    } catch (error) {
      threw = error;
    }
    const operation = injector.firedOperation;
    injector.arm(null);
    service.dispose();
    const onDisk = await readFile(file, 'utf8');
    const landedNew = onDisk.endsWith(body) && onDisk.startsWith(OLD_TEXT.slice(0, OLD_TEXT.indexOf(OLD_BODY)));
    const journal = await history.load();
    const recorded = journal.some((entry) => entry.before === contentHash(OLD_TEXT) && entry.after === contentHash(onDisk));
    const oldRecoverable = await history.readBlob(contentHash(OLD_TEXT)).then(
      (bytes) => bytes.toString() === OLD_TEXT,
      () => false,
    );
    // The next start: a new app's first save into the folder must clear whatever this run left.
    const restarted = startApp();
    const current = await restarted.readFile(ref, 'fault.md');
    await restarted.save(ref, { relativePath: 'fault.md', baseHash: current.hash, body: nextBody() });
    restarted.dispose();
    const leftovers = [...(await tempFilesUnder(project.memoryDir)), ...(await tempFilesUnder(dataDir()))];
    let problem: string | null = null;
    if (onDisk !== OLD_TEXT && !landedNew) problem = 'the file is neither the old nor the new version';
    else if (threw === null && !landedNew) problem = 'the save reported success but the old version is on disk';
    else if (threw === null && !recorded) problem = 'the save succeeded but history has no entry for it';
    else if (leftovers.length > 0) problem = `temp files left after the next start: ${leftovers.join(', ')}`;
    // The old version is gone from disk and cannot be had back from history: that is data lost.
    const lost = onDisk !== OLD_TEXT && !oldRecoverable;
    if (lost) problem = 'the old version is neither on disk nor in history';
    // Clear what is left anyway, so the next run starts from the same state.
    for (const dir of [project.memoryDir, dataDir()]) {
      for (const leftover of await tempFilesUnder(dir)) await rm(join(dir, leftover), { force: true });
    }
    return { survived: problem === null, lost, leftovers: leftovers.length, problem, operation };
  }

  it(
    'leaves the file exactly old or new, history consistent and no temp file after the next start, for every fault at every step',
    async () => {
      // A clean save first, to count the steps of the write path.
      injector.arm(null);
      await writeFile(join(project.memoryDir, 'fault.md'), OLD_TEXT);
      const service = startApp();
      const { hash } = await service.readFile(ref, 'fault.md');
      injector.arm(null);
      await service.save(ref, { relativePath: 'fault.md', baseHash: hash, body: nextBody() });
      service.dispose();
      const steps = [...injector.trace];
      expect(steps.length).toBeGreaterThan(5);

      const problems: string[] = [];
      let lostTotal = 0;
      let leftoverTotal = 0;
      let runs = 0;
      // Full scale: every kind of fault at every step, five times over. CI scale: every third step, the kinds taking turns.
      const full = reliabilityScale === 'full';
      const repeats = full ? 5 : 1;
      for (const [kind, code] of INJECTED_CODES.entries()) {
        let injected = 0;
        let survived = 0;
        for (let round = 0; round < repeats; round++) {
          for (let step = 1; step <= steps.length; step++) {
            if (!full && (step % 3 !== 0 || (step / 3) % INJECTED_CODES.length !== kind)) continue;
            const outcome = await saveWithFault(step, code);
            runs++;
            injected++;
            if (outcome.survived) survived++;
            if (outcome.lost) lostTotal++;
            leftoverTotal += outcome.leftovers;
            if (outcome.problem && round === 0) problems.push(`${code} at step ${step} (${outcome.operation}): ${outcome.problem}`);
          }
        }
        recordFigure('faults', { injected, survived }, code);
      }
      recordFigure('dataLost', { lost: lostTotal, checked: runs });
      recordFigure('tempFilesLeft', { left: leftoverTotal, starts: runs });
      expect(problems).toEqual([]);
    },
    timeoutAtScale(60_000, 900_000),
  );
});
