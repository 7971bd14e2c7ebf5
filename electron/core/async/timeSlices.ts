/**
 * How long the engine's blocking work (the catalog's, a transcript's sub-agent reads) may hold its thread before it
 * lets other work (requests, events) run.
 */
const YIELD_AFTER_MS = 10;
/** Shared by every piece of blocking work in flight, since they all run on the one thread. */
let sliceStartedAt = performance.now();

/** Lets queued callbacks run once the current slice has used its time; a promise's `then` alone would not. */
export async function yieldWhenSliceIsUsed(): Promise<void> {
  if (performance.now() - sliceStartedAt < YIELD_AFTER_MS) return;
  await new Promise((resolve) => setImmediate(resolve));
  sliceStartedAt = performance.now();
}
