import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * V8's full collection as a function, fetched from a new context made while `--expose-gc` is set (V8 installs its `gc`
 * in the contexts it makes under that flag), the flag cleared again after, so no other context (and no page) gets a
 * `gc` of its own. Where the context has none (a V8 built without the extension), a function that does nothing: the
 * collections are then V8's alone, as before the engine made any. Run-time flags need V8's flags unfrozen, as
 * `backgroundHeapGrowth.ts` explains (Node and Electron's main process both start it so).
 */
export function fetchFullCollection(runInContext: (code: string) => unknown = runInNewContext): () => void {
  setFlagsFromString('--expose-gc');
  try {
    const gc = runInContext('typeof gc === "function" ? gc : undefined');
    return typeof gc === 'function' ? (gc as () => void) : () => undefined;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}

let collect: (() => void) | null = null;

/** Runs a full garbage collection of this thread's heap now (see `fetchFullCollection`). */
export function collectGarbageNow(): void {
  collect ??= fetchFullCollection();
  collect();
}
