import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HomeSnapshot } from '../../../shared/model/home';
import { createScenarioHome, topicFile, type ScenarioHome } from '../../fixtures/scenarioHome';
import { createTestHomeService } from '../../fixtures/testEngine';

/**
 * The first discovery of a home nothing is known of, shown in parts (the app shells): newest project first, then the
 * rest, ending with exactly the home a discovery in one piece finds.
 */
describe('a streamed discovery', () => {
  let home: ScenarioHome;
  /** The newest project: its only session has no cwd, so its path comes from another project's cwds. */
  let monoSlug: string;
  let shopSlug: string;

  beforeAll(async () => {
    home = await createScenarioHome({ prefix: 'ccmem-streamed-' });
    const shop = home.project(home.workPath('shop'));
    shopSlug = shop.slug;
    await shop.session({ title: 'Checkout', start: '2025-01-01T10:00:00Z' });
    await shop.session({ title: 'Cart', start: '2025-01-02T10:00:00Z' });
    await shop.memory('prices.md', topicFile({ variant: 'flat', name: 'Prices', description: 'How prices are set', body: 'Net prices.' }));
    const blog = home.project(home.workPath('blog'));
    await blog.session({ title: 'Posts', start: '2025-02-01T10:00:00Z' });
    // A sub-folder's session: its cwd names the repository root's folder, which the path-less project matches.
    const pkg = home.project(home.workPath('mono', 'pkg'));
    await pkg.session({ title: 'Package', start: '2025-02-10T10:00:00Z' });
    const mono = home.project(home.workPath('mono'));
    monoSlug = mono.slug;
    await mono.session({ cwd: null, titleKind: 'none', start: '2025-03-01T10:00:00Z' });
  });

  afterAll(async () => {
    await home.cleanup();
  });

  it('answers first with the newest project alone, then ends with the home a discovery in one piece finds', async () => {
    const whole = createTestHomeService(home);
    const expected = await whole.getHome();

    const streamed = createTestHomeService(home, { streamFirstDiscovery: true });
    const pushed: HomeSnapshot[] = [];
    streamed.onDidStreamHome((snapshot) => pushed.push(snapshot));
    const first = await streamed.firstSnapshot();
    expect(first.discovering).toEqual({ projectsRead: 1, projectsFound: 4 });
    expect(first.projects.map((project) => project.slug)).toEqual([monoSlug]);
    // Read before the projects whose cwds place it: unplaced in the part, placed in the finished home.
    expect(first.projects[0].path).toBeNull();
    expect(expected.projects.find((project) => project.slug === monoSlug)?.pathSource).toBe('git-root-match');

    const final = await streamed.getHome();
    expect(final).toEqual(expected);
    expect(final.discovering).toBeNull();
    expect(pushed.at(-1)).toEqual(expected);
    const parts = pushed.slice(0, -1);
    expect(parts[0]).toEqual(first);
    for (const part of parts) expect(part.discovering?.projectsRead).toBe(part.projects.length);
    for (const project of expected.projects) {
      const ref = { configRoot: project.configRoot, slug: project.slug };
      expect(await streamed.discoveredSessions(ref)).toEqual(await whole.discoveredSessions(ref));
    }
    expect((await streamed.discoveredSessions({ configRoot: home.root, slug: shopSlug })).map((s) => s.title)).toEqual([
      'Cart',
      'Checkout',
    ]);
    await whole.dispose();
    await streamed.dispose();
  });

  it('is not streamed where nobody shows it in parts: the first answer is the whole home', async () => {
    const service = createTestHomeService(home);
    const pushed: HomeSnapshot[] = [];
    service.onDidStreamHome((snapshot) => pushed.push(snapshot));
    const first = await service.firstSnapshot();
    expect(first.discovering).toBeNull();
    expect(first.projects).toHaveLength(4);
    expect(pushed).toEqual([]);
    await service.dispose();
  });
});
