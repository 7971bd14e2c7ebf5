import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The test seam that holds a first start's streamed discovery after its first part until a file exists, so an end-to-end
 * test can look at the first page while the rest of the home is, for the app, still being found (unset: off).
 */
export const DISCOVERY_GATE_ENV = 'CCMEM_TEST_DISCOVERY_GATE';
const POLL_MS = 50;
/** A forgotten gate must not hold a test's server for good. */
const MAX_HOLD_MS = 30_000;

/** What discovery awaits after its first part when the environment names a gate file; only tests set it. */
export function testDiscoveryGateFrom(env: NodeJS.ProcessEnv): (() => Promise<void>) | undefined {
  const gate = env[DISCOVERY_GATE_ENV];
  if (!gate) return undefined;
  return async () => {
    const until = Date.now() + MAX_HOLD_MS;
    while (!existsSync(gate) && Date.now() < until) await sleep(POLL_MS);
  };
}
