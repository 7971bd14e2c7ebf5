import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  BACKGROUND_HEAP_GROWTH_PERCENT,
  BackgroundHeapGrowth,
  MIN_MS_BETWEEN_START_COLLECTIONS,
} from '../../../../electron/core/async/backgroundHeapGrowth';

const HELD = `--heap-growing-percent=${BACKGROUND_HEAP_GROWTH_PERCENT}`;
const GIVEN_BACK = '--heap-growing-percent=0';

/** A growth holder whose flags and collections are written down in order, on a clock the test moves. */
function recording(): { growth: BackgroundHeapGrowth; calls: string[]; advance: (ms: number) => void } {
  const calls: string[] = [];
  let now = 1_000;
  const growth = new BackgroundHeapGrowth({
    setV8Flags: (value) => calls.push(value),
    collectGarbage: () => calls.push('collect'),
    now: () => now,
  });
  return { growth, calls, advance: (ms) => (now += ms) };
}

describe('BackgroundHeapGrowth', () => {
  it('holds the heap’s growth while a pass runs, collects once it holds, and gives the growth back to V8 after', async () => {
    const { growth, calls } = recording();
    let heldInside = false;
    await growth.during(async () => {
      heldInside = growth.held;
    });
    expect(heldInside).toBe(true);
    expect(growth.held).toBe(false);
    // The collection comes after the flag: the limit it sets is the held one.
    expect(calls).toEqual([HELD, 'collect', GIVEN_BACK]);
  });

  it('sets the flag and collects once for passes that overlap, and resets the flag when the last one ends', async () => {
    const { growth, calls } = recording();
    let endFirst!: () => void;
    const first = growth.during(() => new Promise<void>((resolve) => (endFirst = resolve)));
    const second = growth.during(async () => 'done');
    await expect(second).resolves.toBe('done');
    expect(growth.held).toBe(true);
    expect(calls).toEqual([HELD, 'collect']);
    endFirst();
    await first;
    expect(growth.held).toBe(false);
    expect(calls).toEqual([HELD, 'collect', GIVEN_BACK]);
  });

  it('collects at a pass’s start at most once in MIN_MS_BETWEEN_START_COLLECTIONS', async () => {
    const { growth, calls, advance } = recording();
    await growth.during(async () => undefined);
    advance(MIN_MS_BETWEEN_START_COLLECTIONS - 1);
    await growth.during(async () => undefined);
    expect(calls).toEqual([HELD, 'collect', GIVEN_BACK, HELD, GIVEN_BACK]);
    advance(1);
    await growth.during(async () => undefined);
    expect(calls.slice(5)).toEqual([HELD, 'collect', GIVEN_BACK]);
  });

  it('gives the growth back when a pass fails', async () => {
    const { growth, calls } = recording();
    await expect(growth.during(() => Promise.reject(new Error('unreadable')))).rejects.toThrow('unreadable');
    expect(growth.held).toBe(false);
    expect(calls.at(-1)).toBe(GIVEN_BACK);
  });

  it('names a flag this V8 knows (an unknown one would be ignored without a word)', () => {
    const options = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
    expect(options).toMatch(/^\s*--heap-growing-percent\b/m);
  });
});
