/**
 * How hard the reliability suite pushes. `ci` keeps its share of `npm test` small; `full` is the soak run
 * (`npm run test:soak`, `npm run reliability`) with the counts the issue asks for. `CCMEM_RELIABILITY_SCALE`
 * wins; otherwise vitest's `--mode soak` selects full scale.
 */
export type ReliabilityScale = 'ci' | 'full';

function detectScale(env: NodeJS.ProcessEnv): ReliabilityScale {
  const explicit = env.CCMEM_RELIABILITY_SCALE?.trim();
  if (explicit === 'full' || explicit === 'ci') return explicit;
  return env.MODE === 'soak' ? 'full' : 'ci';
}

export const reliabilityScale: ReliabilityScale = detectScale(process.env);

/** The count to use at the current scale. */
export function atScale(ci: number, full: number): number {
  return reliabilityScale === 'full' ? full : ci;
}

/** A test timeout that grows with the scale: long soak runs must not be cut off by the CI timeout. */
export function timeoutAtScale(ciMs: number, fullMs: number): number {
  return atScale(ciMs, fullMs);
}
