import { setFlagsFromString } from 'node:v8';

/**
 * How far past what survived its last full collection V8 lets the heap grow while background work runs. Left to
 * itself V8 grows it by up to 4× when collections are quick, which is what a background pass (the keeper's saved
 * line indexes, the history's reconstruction, the archive's run) looks like: much garbage over a small live set, so
 * the heap fills with garbage between collections. At 50 % the large home's first start peaks 60–70 MB lower for
 * the same CPU time; at 25–30 % the collections cost a third to a half more CPU (docs/performance.md, round seven).
 */
export const BACKGROUND_HEAP_GROWTH_PERCENT = 50;

/**
 * Holds V8's heap growth to `BACKGROUND_HEAP_GROWTH_PERCENT` while any background pass runs, and gives it back to V8
 * when the last one ends. The flag is read at each collection, so it applies from the next one on; it is the process's,
 * shared by every engine and thread in it, which is why the passes hold it together instead of each setting it. V8
 * takes a flag at run time only when its flags were not frozen at start: Node starts it with
 * `--no-freeze-flags-after-init`, and so does Electron for its main process (always since electron/electron#42414,
 * before any `--js-flags`), where a frozen flag would end the process instead of throwing. The catalog's build runs
 * outside it: its scan threads' young garbage is not what this bounds, and its throughput is a figure of its own.
 */
export class BackgroundHeapGrowth {
  private holders = 0;

  constructor(private readonly setV8Flags: (flags: string) => void = setFlagsFromString) {}

  /** Whether a background pass holds the heap's growth now. */
  get held(): boolean {
    return this.holders > 0;
  }

  /** Runs one background pass with the heap's growth held. */
  async during<T>(pass: () => Promise<T>): Promise<T> {
    if (this.holders++ === 0) this.setV8Flags(`--heap-growing-percent=${BACKGROUND_HEAP_GROWTH_PERCENT}`);
    try {
      return await pass();
    } finally {
      // 0 is V8's own default: the growth it works out from how fast it collects.
      if (--this.holders === 0) this.setV8Flags('--heap-growing-percent=0');
    }
  }
}

/** The process's one, since V8's flags are the process's. */
export const backgroundHeapGrowth = new BackgroundHeapGrowth();
