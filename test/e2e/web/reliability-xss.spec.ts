import type { Page } from '@playwright/test';
import { createScenarioHome, topicFile, type ScenarioHome } from '../../fixtures/scenarioHome';
import { recordFigure } from '../../reliability/support/figureLog';
import { OUTSIDE_ORIGIN, xssPayloads, type XssPayload } from '../../reliability/support/xssPayloads';
import { expect, serveEnv, startServe, test } from './serveFixture';

/**
 * Hundreds of script and request injection payloads placed where Claude Code writes text — memory names,
 * descriptions, bodies and index lines, session titles, prompts, branches and project paths, agent memory — and
 * rendered in the real UI in Chromium. A payload that runs calls `__xss(n)` or opens a dialog; one that fetches
 * asks another origin. Neither may happen, and nothing may even be blocked by the CSP: blocked means it reached the
 * page as markup.
 */
interface Planted {
  readonly home: ScenarioHome;
  readonly payloads: number;
  readonly memory: { readonly slug: string; readonly files: readonly string[] };
  readonly sessions: { readonly slug: string; readonly ids: readonly string[]; readonly prompts: readonly string[] };
  readonly projectSlugs: readonly string[];
}

const TOPIC_FILES = 15;
const SESSIONS = 6;
const TURNS = 6;

async function plant(): Promise<Planted> {
  const home = await createScenarioHome({ prefix: 'ccmem-xss-' });
  let next = 1;
  const take = (count: number): XssPayload[] => {
    const taken = xssPayloads(count, next);
    next += count;
    return taken;
  };
  const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, ' ');
  // Quoted, so YAML takes the payload as a plain string (an unquoted `{{…}}` or `[…]` would be YAML syntax).
  const yamlString = (text: string): string => JSON.stringify(oneLine(text));

  const workPath = home.workPath('shop');
  const project = home.project(workPath);
  const files: string[] = [];
  const indexLines: string[] = [];
  for (let i = 0; i < TOPIC_FILES; i++) {
    const [name, description, ...body] = take(8);
    const file = `topic_${String(i).padStart(2, '0')}.md`;
    files.push(file);
    await project.memory(
      file,
      topicFile({
        variant: i % 2 === 0 ? 'flat' : 'nested-node-type',
        name: yamlString(name.text),
        description: yamlString(description.text),
        type: 'project',
        body: `${body.map((p) => p.text).join('\n\n')}\n`,
      }),
    );
    const [title, hook] = take(2);
    indexLines.push(`- [${oneLine(title.text)}](${file}) — ${oneLine(hook.text)}`);
  }
  await project.memoryIndex(`${indexLines.join('\n')}\n`);

  const sessionIds: string[] = [];
  const firstPrompts: string[] = [];
  for (let i = 0; i < SESSIONS; i++) {
    const [title, branch, ...prompts] = take(2 + TURNS);
    const facts = await project.session({
      titleKind: i % 2 === 0 ? 'custom-title' : 'ai-title',
      title: oneLine(title.text),
      gitBranch: oneLine(branch.text),
      turns: TURNS,
      prompts: prompts.map((p) => p.text),
      start: new Date(Date.UTC(2026, 4, 1 + i, 9)).toISOString(),
    });
    sessionIds.push(facts.sessionId);
    firstPrompts.push(prompts[0].text);
  }

  // Project paths come from transcripts' cwd: the sidebar shows them.
  const projectSlugs: string[] = [project.slug];
  for (const cwdPayload of take(3)) {
    const hostile = home.project(`/home/dev/${oneLine(cwdPayload.text)}`, { createDir: false });
    await hostile.session({ turns: 1, title: 'A project with a strange path' });
    projectSlugs.push(hostile.slug);
  }

  const agentPayloads = take(10);
  await home.agentMemory('user', 'reviewer', {
    'MEMORY.md': `${agentPayloads
      .slice(0, 5)
      .map((p) => `- ${oneLine(p.text)}`)
      .join('\n')}\n`,
    'notes.md': `${agentPayloads
      .slice(5)
      .map((p) => p.text)
      .join('\n\n')}\n`,
  });
  return {
    home,
    payloads: next - 1,
    memory: { slug: project.slug, files },
    sessions: { slug: project.slug, ids: sessionIds, prompts: firstPrompts },
    projectSlugs,
  };
}

interface Watch {
  readonly fired: () => Promise<number[]>;
  readonly violations: () => Promise<string[]>;
  readonly outbound: string[];
  readonly dialogs: string[];
}

/** Instruments a page before any of its scripts run, and refuses (and records) every request to another origin. */
async function watch(page: Page, origin: string): Promise<Watch> {
  const outbound: string[] = [];
  const dialogs: string[] = [];
  await page.addInitScript(() => {
    const w = window as unknown as { __xssFired: number[]; __cspViolations: string[]; __xss: (n: number) => void };
    w.__xssFired = [];
    w.__cspViolations = [];
    w.__xss = (n: number) => w.__xssFired.push(n);
    document.addEventListener('securitypolicyviolation', (event) =>
      w.__cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`),
    );
  });
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(origin) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
    outbound.push(url);
    return route.abort();
  });
  page.on('websocket', (socket) => {
    if (!socket.url().startsWith(origin.replace(/^http/, 'ws'))) outbound.push(socket.url());
  });
  return {
    fired: () => page.evaluate(() => (window as unknown as { __xssFired: number[] }).__xssFired),
    violations: () => page.evaluate(() => (window as unknown as { __cspViolations: string[] }).__cspViolations),
    outbound,
    dialogs,
  };
}

test.describe('XSS payloads in memory and transcripts', () => {
  let planted: Planted;
  let served: Awaited<ReturnType<typeof startServe>>;

  test.beforeAll(async () => {
    planted = await plant();
    served = await startServe(serveEnv(planted.home));
  });

  test.afterAll(async () => {
    await served?.stop();
    await planted?.home.cleanup();
  });

  test('run no script and fetch nothing, on every page that shows them', async ({ page }) => {
    test.setTimeout(180_000);
    expect(planted.payloads).toBeGreaterThanOrEqual(200);
    await page.setViewportSize({ width: 1400, height: 2600 });
    const origin = new URL(served.url).origin;
    const seen = await watch(page, origin);
    const fired = new Set<number>();
    const violations: string[] = [];
    const collect = async (): Promise<void> => {
      for (const n of await seen.fired()) fired.add(n);
      violations.push(...(await seen.violations()));
    };
    const at = async (hash: string): Promise<void> => {
      // What ran on the page so far is read before it goes (a navigation may load a fresh document).
      if (page.url().startsWith(origin)) await collect();
      await page.goto(`${origin}/#/${hash}`);
      await expect(page.locator('#root[data-app-state="ready"]')).toBeAttached();
    };

    await page.goto(served.url);
    await expect(page.locator('#root[data-app-state="ready"]')).toBeAttached();
    const root = planted.home.root;
    const project = (slug: string) => `root=${encodeURIComponent(root)}&project=${encodeURIComponent(slug)}`;

    // Memory: the list (names, descriptions), the index, and every file opened.
    await at(`page=memory&${project(planted.memory.slug)}`);
    const topics = page.getByRole('table', { name: 'Topic files' });
    await expect(topics.getByRole('row')).toHaveCount(TOPIC_FILES + 1);
    for (const file of planted.memory.files) {
      await topics.getByRole('row').filter({ hasText: file }).click();
      await expect(page.getByText(file).first()).toBeVisible();
      await page.waitForLoadState('networkidle');
    }
    await collect();

    // Sessions: the list (titles, branches), then every transcript.
    await at(`page=sessions&${project(planted.sessions.slug)}`);
    await expect(page.getByRole('table', { name: 'Sessions' }).getByRole('row')).toHaveCount(SESSIONS + 1);
    await collect();
    for (const [index, sessionId] of planted.sessions.ids.entries()) {
      await at(`page=transcript&${project(planted.sessions.slug)}&session=${sessionId}`);
      // The prompts are there, shown as text.
      await expect(page.getByText(planted.sessions.prompts[index].split('\n')[0], { exact: false }).first()).toBeVisible();
      await page.waitForLoadState('networkidle');
      await collect();
    }

    // Every other page, for every project, including those whose path is a payload.
    for (const slug of planted.projectSlugs) {
      for (const tab of ['memory', 'sessions', 'search', 'dreams', 'history', 'agents', 'settings']) {
        await at(`page=${tab}&${project(slug)}`);
        await page.waitForLoadState('networkidle');
      }
      await collect();
    }
    // Agent memory, opened.
    await at(`page=agents&${project(planted.memory.slug)}`);
    const agent = page.getByText('reviewer').first();
    if (await agent.isVisible()) await agent.click();
    await page.waitForLoadState('networkidle');
    await collect();

    // The payloads really are on the page, as text.
    await at(`page=memory&${project(planted.memory.slug)}`);
    await expect(page.getByText('<img src=x onerror=__xss(', { exact: false }).first()).toBeVisible();

    const outbound = [...new Set(seen.outbound)];
    recordFigure('badInputs', { tried: planted.payloads }, 'xss');
    recordFigure('codeExecutions', { executions: fired.size + seen.dialogs.length, attempts: planted.payloads });
    recordFigure('outboundRequests', { requests: outbound.length, payloads: planted.payloads });
    expect(
      [...fired].sort((a, b) => a - b),
      'payloads that ran',
    ).toEqual([]);
    expect(seen.dialogs, 'dialogs opened').toEqual([]);
    expect(outbound, `requests to other origins (${OUTSIDE_ORIGIN} is the payloads' target)`).toEqual([]);
    expect([...new Set(violations)], 'content the CSP had to block: payloads that became markup').toEqual([]);
  });
});
