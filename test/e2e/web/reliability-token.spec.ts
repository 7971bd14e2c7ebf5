import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import { join } from 'node:path';
import { createStandardScenario, type StandardScenario } from '../../fixtures/standardScenario';
import { recordFigure } from '../../reliability/support/figureLog';
import { expect, serveEnv, startServe, test } from './serveFixture';

type Served = Awaited<ReturnType<typeof startServe>>;

/** Another local service on this host (a dev server, say): it answers a page and writes down every request's headers. */
async function startRecorder(): Promise<{ server: Server; port: number; seen: IncomingHttpHeaders[] }> {
  const seen: IncomingHttpHeaders[] = [];
  const server = createServer((req, res) => {
    seen.push(req.headers);
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end('<!doctype html><title>another local service</title><p>hello</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { server, port: typeof address === 'object' && address ? address.port : 0, seen };
}

/** Tries a WebSocket handshake as a plain Node client with exactly these headers; true when the server switched protocols. */
function upgrades(port: number, headers: Record<string, string>): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1',
      port,
      path: '/ws',
      setHost: false,
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-version': '13',
        'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
        host: `127.0.0.1:${port}`,
        ...headers,
      },
    });
    req.on('upgrade', (_res, socket) => {
      socket.destroy();
      resolve(true);
    });
    req.on('response', (res) => {
      res.resume();
      resolve(false);
    });
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? resolve(false) : reject(error)));
    req.end();
  });
}

test.describe('the web shell token stays in its own tab and origin', () => {
  let scenario: StandardScenario;
  let first: Served;
  let second: Served;

  test.beforeAll(async () => {
    scenario = await createStandardScenario();
    first = await startServe(serveEnv(scenario.home));
    // Its own data folder: two servers never share a catalog cache.
    second = await startServe({ ...serveEnv(scenario.home), CCMEM_DATA_DIR: join(scenario.home.tmp, 'data-second') });
  });

  test.afterAll(async () => {
    await first?.stop();
    await second?.stop();
    await scenario?.home.cleanup();
  });

  test('visiting one server with its token gives another server, or any other local service, nothing', async ({ page, context }) => {
    const recorder = await startRecorder();
    try {
      const firstToken = new URL(first.url).searchParams.get('token')!;
      const secondToken = new URL(second.url).searchParams.get('token')!;
      const firstOrigin = new URL(first.url).origin;
      const secondOrigin = new URL(second.url).origin;

      await page.goto(first.url);
      await expect(page.locator('#root[data-app-state="ready"]')).toBeAttached();
      expect(page.url()).not.toContain(firstToken);
      await page.reload();
      await expect(page.locator('#root[data-app-state="ready"]')).toBeAttached();
      const sidebar = page.getByRole('navigation', { name: 'Projects' });
      await expect(sidebar.getByText(scenario.webshop.path, { exact: true })).toBeVisible();

      // Another service on this host, in the same browser: it is sent nothing of the token.
      await page.goto(`http://127.0.0.1:${recorder.port}/`);
      await expect(page.getByText('hello')).toBeVisible();
      const recorded = JSON.stringify(recorder.seen);
      expect(recorder.seen.length).toBeGreaterThan(0);
      expect(recorded).not.toContain(firstToken);

      // The second server's page, in the same tab and in a new one: it asks for its own URL and shows no data.
      await page.goto(`${secondOrigin}/`);
      await expect(page.locator('#root[data-app-state="no-access"]')).toBeAttached();
      await expect(page.getByRole('heading', { name: 'Open the URL that ccmem serve printed' })).toBeVisible();
      await expect(page.getByText(scenario.webshop.path)).toHaveCount(0);
      const other = await context.newPage();
      await other.goto(`${firstOrigin}/`);
      await expect(other.locator('#root[data-app-state="no-access"]')).toBeAttached();
      await expect(other.getByText(scenario.webshop.path)).toHaveCount(0);

      // Nothing in the cookie jar, and nothing the other service received, opens either server's API when replayed.
      expect(await page.evaluate(() => document.cookie)).toBe('');
      const jar = await context.cookies();
      expect(jar).toEqual([]);
      const replays = [
        ...jar.map((cookie) => `${cookie.name}=${cookie.value}`),
        ...recorder.seen.map((headers) => headers.cookie).filter((cookie) => cookie !== undefined),
        `ccmem_token_${new URL(first.url).port}=${firstToken}`,
        `ccmem_token_${new URL(second.url).port}=${secondToken}`,
      ];
      let admitted = 0;
      for (const cookie of replays) {
        for (const [origin, port] of [
          [firstOrigin, Number(new URL(first.url).port)],
          [secondOrigin, Number(new URL(second.url).port)],
        ] as const) {
          if (await upgrades(port, { cookie, origin })) admitted++;
        }
      }
      recordFigure('badInputs', { tried: replays.length * 2 + 3 }, 'web shell');
      expect(admitted).toBe(0);
    } finally {
      await new Promise<void>((resolve) => recorder.server.close(() => resolve()));
    }
  });

  test('a path that looks like another site never redirects there', async ({ page }) => {
    const token = new URL(first.url).searchParams.get('token')!;
    const origin = new URL(first.url).origin;
    const redirects: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 300 && response.status() < 400) redirects.push(`${response.url()} → ${response.headers().location}`);
    });
    await page.goto(`${origin}/x/..//evil.example/?token=${token}`).catch(() => null);
    expect(new URL(page.url()).origin).toBe(origin);
    expect(redirects).toEqual([]);
  });

  test('the web shell cannot change where the API key goes', async ({ page }) => {
    await page.goto(first.url);
    await page.getByRole('tab', { name: 'Settings' }).click();
    await expect(page.getByLabel('Base URL')).toBeDisabled();
    await expect(page.getByText('only the desktop app changes it')).toBeVisible();
    await expect(page.getByLabel('Requests go to')).toContainText(/the Anthropic API|from ANTHROPIC_BASE_URL/);
  });
});
