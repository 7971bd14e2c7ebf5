import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | null = null;

/**
 * Runs a full garbage collection of this thread's heap now. V8 offers one to scripts only under `--expose-gc`, a flag
 * it reads when it makes a context: it is set for the one context that fetches the function, then cleared, so no other
 * context (and no page) gets a `gc` of its own. Run-time flags need V8's flags unfrozen, as `backgroundHeapGrowth.ts`
 * explains (Node and Electron's main process both start it so).
 */
export function collectGarbageNow(): void {
  if (collect === null) {
    setFlagsFromString('--expose-gc');
    try {
      collect = runInNewContext('gc') as () => void;
    } finally {
      setFlagsFromString('--no-expose-gc');
    }
  }
  collect();
}
