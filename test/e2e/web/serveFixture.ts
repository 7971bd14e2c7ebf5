import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { test as base } from '@playwright/test';
import { createStandardScenario, type StandardScenario } from '../../fixtures/standardScenario';
import { startFakeAnthropicServer, type FakeAnthropicServer } from '../../helpers/fakeAnthropicServer';

const repoRoot = resolve(import.meta.dirname, '../../..');

export interface ServedApp {
  /** The URL `ccmem serve` printed, token included. */
  readonly url: string;
  readonly output: () => string;
  /** The `ccmem serve` process the test started (on Linux it runs the engine in a process it starts). */
  readonly pid: number;
}

/**
 * Starts the built `ccmem serve` for one home, on a free port unless `port` names one (a server restarted where the
 * page expects it), and stops it afterwards. Resolves once the server follows changes, so a test that changes files
 * sees them live; with `readyWhen: 'listening'`, as soon as it serves (a test that holds its discovery).
 */
export async function startServe(
  env: NodeJS.ProcessEnv,
  extraArgs: readonly string[] = [],
  port = 0,
  readyWhen: 'following' | 'listening' = 'following',
): Promise<ServedApp & { stop: () => Promise<void> }> {
  const args = [resolve(repoRoot, 'out/cli/index.js'), 'serve', '--port', String(port), ...extraArgs];
  const child: ChildProcess = spawn(process.execPath, args, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`ccmem serve did not start:\n${output}`)), 15_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /Open: (\S+)/.exec(output);
      if (match && (readyWhen === 'listening' || output.includes('Following changes to the home.'))) {
        clearTimeout(timer);
        resolveUrl(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`ccmem serve exited with ${code}:\n${output}`)));
  });
  return {
    url,
    output: () => output,
    pid: child.pid as number,
    stop: () =>
      new Promise<void>((resolveStop) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolveStop();
        child.once('exit', () => resolveStop());
        child.kill('SIGTERM');
      }),
  };
}

export const test = base;
export { expect } from '@playwright/test';

/** The environment that points `ccmem serve` at one home, with the app data folder beside it. */
export function serveEnv(home: { readonly tmp: string; readonly root: string }): NodeJS.ProcessEnv {
  return { HOME: home.tmp, CLAUDE_CONFIG_DIR: home.root, CCMEM_DATA_DIR: join(home.tmp, 'data') };
}

/**
 * Starts a fake Anthropic API and `ccmem serve` for one home, its API backend pointed at the fake with `apiKey` and no
 * retries, so the turns a test queues are answered in order. The caller stops the server, then closes the fake.
 */
export async function serveWithFakeAnthropic(
  home: { readonly tmp: string; readonly root: string },
  apiKey: string,
): Promise<{ readonly fake: FakeAnthropicServer; readonly served: Awaited<ReturnType<typeof startServe>> }> {
  const fake = await startFakeAnthropicServer();
  try {
    const served = await startServe({
      ...serveEnv(home),
      ANTHROPIC_API_KEY: apiKey,
      ANTHROPIC_BASE_URL: fake.url,
      CCMEM_LLM_MAX_RETRIES: '0',
    });
    return { fake, served };
  } catch (error) {
    await fake.close();
    throw error;
  }
}

export interface ServedScenario {
  readonly scenario: StandardScenario;
  readonly served: ServedApp;
}

/**
 * Builds the standard scenario and serves it for the tests of the enclosing `test.describe`; both are removed
 * after them. Call it in the describe body; read its fields inside tests and hooks.
 */
export function serveStandardScenario(): ServedScenario {
  let scenario: StandardScenario | null = null;
  let served: Awaited<ReturnType<typeof startServe>> | null = null;
  base.beforeAll(async () => {
    scenario = await createStandardScenario();
    served = await startServe(serveEnv(scenario.home));
  });
  base.afterAll(async () => {
    await served?.stop();
    await scenario?.home.cleanup();
  });
  const required = <T>(value: T | null, what: string): T => {
    if (value === null) throw new Error(`${what} is only there inside tests and hooks`);
    return value;
  };
  return {
    get scenario() {
      return required(scenario, 'the scenario');
    },
    get served() {
      return required(served, 'the served app');
    },
  };
}
