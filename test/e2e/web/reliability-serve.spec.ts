import { readdir, readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { createStandardScenario, type StandardScenario } from '../../fixtures/standardScenario';
import { ACCESS_CHECK_PATH } from '../../../shared/contract/webShellAccess';
import { recordFigure } from '../../reliability/support/figureLog';
import { expect, serveEnv, startServe, test } from './serveFixture';

/** This machine's first address beyond loopback, if it has one. */
function outsideAddress(): string | null {
  for (const addresses of Object.values(networkInterfaces())) {
    for (const address of addresses ?? []) if (address.family === 'IPv4' && !address.internal) return address.address;
  }
  return null;
}

function get(address: string, port: number, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: address, port, path, headers, setHost: false, timeout: 3_000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
    req.on('error', reject);
    req.end();
  });
}

/** Every file under a folder, as text, so a secret written anywhere there is found. */
async function everyFileText(dir: string): Promise<string> {
  const names = await readdir(dir, { recursive: true }).catch(() => [] as string[]);
  const parts: string[] = [];
  for (const name of names) parts.push(await readFile(join(dir, name), 'utf8').catch(() => ''));
  return parts.join('\n');
}

test.describe('ccmem serve: where it listens and what it writes down', () => {
  let scenario: StandardScenario;

  test.beforeAll(async () => {
    scenario = await createStandardScenario();
  });

  test.afterAll(async () => {
    await scenario?.home.cleanup();
  });

  const env = () => serveEnv(scenario.home);

  test('listens on loopback only unless --host says otherwise, and then still checks the Host', async () => {
    const outside = outsideAddress();
    test.skip(outside === null, 'this machine has no address beyond loopback to try');
    const loopback = await startServe(env());
    let refusedOutside = false;
    try {
      const { hostname, port } = new URL(loopback.url);
      expect(hostname).toBe('127.0.0.1');
      refusedOutside = await get(outside!, Number(port), '/', { host: `${outside}:${port}` }).then(
        () => false,
        (error: NodeJS.ErrnoException) => error.code === 'ECONNREFUSED',
      );
      expect(refusedOutside, `port ${port} answered on ${outside}`).toBe(true);
    } finally {
      await loopback.stop();
    }
    const wide = await startServe(env(), ['--host', '0.0.0.0']);
    try {
      const url = new URL(wide.url);
      const token = url.searchParams.get('token')!;
      expect(wide.output()).toContain('warning: serving beyond this machine');
      const bearer = { authorization: `Bearer ${token}` };
      expect(await get(outside!, Number(url.port), `/?token=${token}`, { host: `${outside}:${url.port}` })).toBe(200);
      expect(await get(outside!, Number(url.port), ACCESS_CHECK_PATH, { host: `${outside}:${url.port}`, ...bearer })).toBe(204);
      expect(await get(outside!, Number(url.port), ACCESS_CHECK_PATH, { host: `evil.example:${url.port}`, ...bearer })).toBe(403);
      expect(await get(outside!, Number(url.port), `/?token=${token}`, { host: `evil.example:${url.port}` })).toBe(403);
      expect(await get(outside!, Number(url.port), ACCESS_CHECK_PATH, { host: `${outside}:${url.port}` })).toBe(401);
      recordFigure('badInputs', { tried: 3 }, 'web shell');
    } finally {
      await wide.stop();
    }
  });

  test('prints the token once, to the user, and never to a log, a file or the address bar', async ({ page }) => {
    const served = await startServe(env());
    let token = '';
    try {
      token = new URL(served.url).searchParams.get('token')!;
      expect(token.length).toBeGreaterThan(20);
      // A whole session: the page, its requests, refused requests with wrong and right tokens in odd places.
      await page.goto(served.url);
      await expect(page.locator('#root[data-app-state="ready"]')).toBeAttached();
      expect(page.url()).not.toContain(token);
      for (const tab of ['Memory', 'Sessions', 'History', 'Settings']) await page.getByRole('tab', { name: tab }).click();
      const { port } = new URL(served.url);
      for (const [path, headers] of [
        [`/?token=${token}x`, {}],
        [`/missing?token=${token}`, { host: `evil.example:${port}` }],
        ['/ws', { authorization: `Bearer ${token}`, origin: 'http://evil.example' }],
        [ACCESS_CHECK_PATH, { authorization: `Bearer ${token}x` }],
        [`/../../etc/passwd?token=${token}`, {}],
      ] as const) {
        await get('127.0.0.1', Number(port), path, { host: `127.0.0.1:${port}`, ...headers });
      }
    } finally {
      await served.stop();
    }
    const output = served.output();
    const printed = output.split(token).length - 1;
    const written = (await everyFileText(scenario.home.tmp)).split(token).length - 1;
    recordFigure('badInputs', { tried: 4 }, 'web shell');
    expect(printed, 'the token is printed exactly once, in the URL to open').toBe(1);
    expect(output).toMatch(new RegExp(`Open: \\S+token=${token}`));
    expect(written, 'files under the home, the config root and the data folder that hold the token').toBe(0);
  });
});
