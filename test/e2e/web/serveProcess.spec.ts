import { readdir, readFile } from 'node:fs/promises';
import { createStandardScenario, type StandardScenario } from '../../fixtures/standardScenario';
import { ACCESS_CHECK_PATH } from '../../../shared/contract/webShellAccess';
import { expect, serveEnv, startServe, test } from './serveFixture';

/** The processes whose parent is `pid`, from /proc. */
async function childrenOf(pid: number): Promise<number[]> {
  const children: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const status = await readFile(`/proc/${name}/status`, 'utf8').catch(() => '');
    if (new RegExp(`^PPid:\\s+${pid}$`, 'm').test(status)) children.push(Number(name));
  }
  return children;
}

/** Whether the process still runs: an ended one may wait a moment as a zombie for whoever adopted it to reap it. */
async function isRunning(pid: number): Promise<boolean> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => null);
  return status !== null && !/^State:\s+Z/m.test(status);
}

test.describe('ccmem serve on Linux: the engine in a process started with the allocator setting', () => {
  test.skip(process.platform !== 'linux', 'the setting is glibc’s; other systems serve from the one process');
  let scenario: StandardScenario;

  test.beforeAll(async () => {
    scenario = await createStandardScenario();
  });

  test.afterAll(async () => {
    await scenario.home.cleanup();
  });

  test('serves from a process with the fixed mmap threshold, and both end when it is stopped', async () => {
    const served = await startServe(serveEnv(scenario.home));
    let engine = 0;
    try {
      const children = await childrenOf(served.pid);
      expect(children).toHaveLength(1);
      engine = children[0];
      const environment = (await readFile(`/proc/${engine}/environ`, 'latin1')).split('\0');
      expect(environment).toContain('MALLOC_MMAP_THRESHOLD_=131072');
      expect(environment).toContain(`CCMEM_RELAUNCHED_BY=${served.pid}`);
      const token = new URL(served.url).searchParams.get('token') ?? '';
      const answer = await fetch(new URL(ACCESS_CHECK_PATH, served.url), { headers: { Authorization: `Bearer ${token}` } });
      expect(answer.status).toBe(204);
    } finally {
      await served.stop();
    }
    await expect.poll(() => isRunning(engine), { timeout: 5_000 }).toBe(false);
  });

  test('a server whose launcher was killed outright stops by itself and frees its port', async () => {
    const served = await startServe(serveEnv(scenario.home));
    const [engine] = await childrenOf(served.pid);
    process.kill(served.pid, 'SIGKILL');
    await expect.poll(() => isRunning(engine), { timeout: 5_000 }).toBe(false);
    await expect(fetch(served.url)).rejects.toThrow();
  });
});
