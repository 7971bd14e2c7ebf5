import { setFlagsFromString } from 'node:v8';
import { collectGarbageNow } from './fullGarbageCollection';

/**
 * How far past what survived its last full collection V8 lets the heap grow while background work runs. Left to
 * itself V8 grows it by up to 4× when collections are quick, which is what a background pass (the keeper's saved
 * line indexes, the history's reconstruction, the archive's run) looks like: much garbage over a small live set, so
 * the heap fills with garbage between collections. At 50 % the large home's first start peaks 60–70 MB lower for
 * the same CPU time; at 25–30 % the collections cost a third to a half more CPU (docs/performance.md, round seven).
 */
export const BACKGROUND_HEAP_GROWTH_PERCENT = 50;

/**
 * The least time between two collections made when a pass starts (see `during`): passes start again as the home changes
 * (the archive's run after sessions change, the keeper's after a catalog build), and each such collection pauses the
 * engine's thread (39–78 ms on the large bench home, where the live heap is about 64 MB).
 */
export const MIN_MS_BETWEEN_START_COLLECTIONS = 60_000;

export interface BackgroundHeapGrowthHooks {
  readonly setV8Flags?: (flags: string) => void;
  readonly collectGarbage?: () => void;
  readonly now?: () => number;
}

/**
 * Holds V8's heap growth to `BACKGROUND_HEAP_GROWTH_PERCENT` while any background pass runs, and gives it back to V8
 * when the last one ends. The flag is read at each collection, so it applies from the next one on; it is the process's,
 * shared by every engine and thread in it, which is why the passes hold it together instead of each setting it. V8
 * takes a flag at run time only when its flags were not frozen at start: Node starts it with
 * `--no-freeze-flags-after-init`, and so does Electron for its main process (always since electron/electron#42414,
 * before any `--js-flags`), where a frozen flag would end the process instead of throwing. An engine's catalog builds
 * hold it too (CatalogService): they overlap the other passes, and their last seconds on the engine's thread grow
 * the heap as a pass does. A one-shot command's build runs outside it: nothing else runs beside it.
 *
 * The heap's limit is worked out at each full collection and kept until the next, so a pass that starts after a
 * collection made without the hold (V8's own, between passes) would run under a limit of up to 4× what survived it
 * until V8 next collects: the large home's line index keeper went on for four seconds that way, from 70 to 220 MB of
 * heap, in 3 of 9 first starts of `ccmem serve` (a peak of 354–393 MB against 280–295). So when the first pass starts
 * holding, the heap is collected at once and its limit set under the hold (at most once a
 * `MIN_MS_BETWEEN_START_COLLECTIONS`).
 */
export class BackgroundHeapGrowth {
  private holders = 0;
  private lastStartCollection = -Infinity;
  private readonly setV8Flags: (flags: string) => void;
  private readonly collectGarbage: () => void;
  private readonly now: () => number;

  constructor(hooks: BackgroundHeapGrowthHooks = {}) {
    this.setV8Flags = hooks.setV8Flags ?? setFlagsFromString;
    this.collectGarbage = hooks.collectGarbage ?? collectGarbageNow;
    this.now = hooks.now ?? performance.now.bind(performance);
  }

  /** Whether a background pass holds the heap's growth now. */
  get held(): boolean {
    return this.holders > 0;
  }

  /** Runs one background pass with the heap's growth held. */
  async during<T>(pass: () => Promise<T>): Promise<T> {
    if (this.holders++ === 0) this.hold();
    try {
      return await pass();
    } finally {
      // 0 is V8's own default: the growth it works out from how fast it collects.
      if (--this.holders === 0) this.setV8Flags('--heap-growing-percent=0');
    }
  }

  private hold(): void {
    this.setV8Flags(`--heap-growing-percent=${BACKGROUND_HEAP_GROWTH_PERCENT}`);
    const now = this.now();
    if (now - this.lastStartCollection < MIN_MS_BETWEEN_START_COLLECTIONS) return;
    this.lastStartCollection = now;
    this.collectGarbage();
  }
}

/** The process's one, since V8's flags are the process's. */
export const backgroundHeapGrowth = new BackgroundHeapGrowth();
