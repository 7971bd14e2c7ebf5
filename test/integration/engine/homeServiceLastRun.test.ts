import { readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HomeService } from '../../../electron/core/home/HomeService';
import type { HomeSnapshot } from '../../../shared/model/home';
import { createScenarioHome, type ProjectBuilder, type ScenarioHome } from '../../fixtures/scenarioHome';
import { listSessions } from '../../../electron/core/transcripts/sessionListing';

let home: ScenarioHome;
let project: ProjectBuilder;
let dataDir: string;
const services: HomeService[] = [];

/** A run of the app that ends: its answer, once it has closed (and so saved its record). */
async function closedRun(options: { remember?: boolean; roots?: string[] } = {}): Promise<HomeSnapshot> {
  const service = run(options);
  const snapshot = await service.getHome();
  await service.dispose();
  return snapshot;
}

/** One run of the app: a new service over the same home and app data folder. */
function run(options: { remember?: boolean; roots?: string[] } = {}): HomeService {
  const service = new HomeService({
    roots: (options.roots ?? [home.root]).map((path) => ({ path, source: 'CLAUDE_CONFIG_DIR' as const })),
    dataDir,
    demoHomeSource: null,
    shell: 'web',
    readOnly: true,
    rememberAcrossRuns: options.remember ?? true,
  });
  services.push(service);
  return service;
}

function sessionCount(snapshot: HomeSnapshot): number {
  return snapshot.projects.find((p) => p.slug === project.slug)?.sessionCount ?? -1;
}

beforeEach(async () => {
  home = await createScenarioHome({ prefix: 'ccmem-lastrun-' });
  dataDir = join(home.tmp, 'data');
  project = home.project(home.workPath('shop'));
  await project.session({ title: 'First session' });
});

afterEach(async () => {
  for (const service of services.splice(0)) await service.dispose();
  await home.cleanup();
});

describe('HomeService remembering discovery across runs', () => {
  it('answers a restart from the last run, then publishes the checked home', async () => {
    expect(sessionCount(await closedRun())).toBe(1);
    await project.session({ title: 'Made while the app was closed' });

    const restarted = run();
    const published: HomeSnapshot[] = [];
    restarted.onDidChangeHome((snapshot) => published.push(snapshot));
    expect(sessionCount(await restarted.getHome())).toBe(1);

    await restarted.confirmLastRun();
    expect(published.map(sessionCount)).toEqual([2]);
    expect(sessionCount(await restarted.getHome())).toBe(2);
    const titles = (await listSessions(restarted, { configRoot: home.root, slug: project.slug })).map((s) => s.title);
    expect(titles.sort()).toEqual(['First session', 'Made while the app was closed']);
  });

  it('confirming a home that was discovered afresh publishes nothing', async () => {
    const service = run();
    const published: HomeSnapshot[] = [];
    service.onDidChangeHome((snapshot) => published.push(snapshot));
    await service.confirmLastRun();
    expect(published).toEqual([]);
  });

  it('reuses a session’s head-and-tail read while its size and mtime are unchanged, and reads a changed file again', async () => {
    const second = await project.session({ title: 'Original title' });
    await closedRun();
    const original = await readFile(second.file, 'utf8');
    const { mtime } = await stat(second.file);

    // Same size and mtime: the remembered read stands (this is what makes a restart cheap).
    await writeFile(second.file, original.replaceAll('Original title', 'Swapped title!'));
    await utimes(second.file, mtime, mtime);
    const same = run();
    await same.refresh();
    await same.dispose();
    const titleIn = async (service: HomeService) =>
      (await listSessions(service, { configRoot: home.root, slug: project.slug })).find((s) => s.sessionId === second.sessionId)?.title;
    expect(await titleIn(same)).toBe('Original title');

    // Another size: read again.
    await writeFile(second.file, original.replaceAll('Original title', 'A longer, changed title'));
    const checked = run();
    await checked.confirmLastRun();
    expect(await titleIn(checked)).toBe('A longer, changed title');
  });

  it('ignores a damaged record and discovers the home', async () => {
    await closedRun();
    const record = join(dataDir, 'discovery', 'home.json');
    const text = await readFile(record, 'utf8');
    await writeFile(record, text.replace('"sessionCount":1', '"sessionCount":9'));
    await project.session();
    expect(sessionCount(await run().getHome())).toBe(2);
  });

  it('does not answer another set of config roots from the record', async () => {
    await closedRun();
    const other = await createScenarioHome({ prefix: 'ccmem-lastrun-other-' });
    try {
      const snapshot = await run({ roots: [other.root] }).getHome();
      expect(snapshot.roots.map((r) => r.path)).toEqual([other.root]);
      expect(snapshot.projects).toEqual([]);
    } finally {
      await other.cleanup();
    }
  });

  it('writes nothing to the app data folder without rememberAcrossRuns', async () => {
    await closedRun({ remember: false });
    await expect(stat(dataDir)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
