import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BACKGROUND_HEAP_GROWTH_PERCENT, BackgroundHeapGrowth } from '../../../../electron/core/async/backgroundHeapGrowth';

function recording(): { growth: BackgroundHeapGrowth; flags: string[] } {
  const flags: string[] = [];
  return { growth: new BackgroundHeapGrowth((value) => flags.push(value)), flags };
}

describe('BackgroundHeapGrowth', () => {
  it('holds the heap’s growth while a pass runs and gives it back to V8 after', async () => {
    const { growth, flags } = recording();
    let heldInside = false;
    await growth.during(async () => {
      heldInside = growth.held;
    });
    expect(heldInside).toBe(true);
    expect(growth.held).toBe(false);
    expect(flags).toEqual([`--heap-growing-percent=${BACKGROUND_HEAP_GROWTH_PERCENT}`, '--heap-growing-percent=0']);
  });

  it('sets the flag once for passes that overlap, and resets it when the last one ends', async () => {
    const { growth, flags } = recording();
    let endFirst!: () => void;
    const first = growth.during(() => new Promise<void>((resolve) => (endFirst = resolve)));
    const second = growth.during(async () => 'done');
    await expect(second).resolves.toBe('done');
    expect(growth.held).toBe(true);
    expect(flags).toHaveLength(1);
    endFirst();
    await first;
    expect(growth.held).toBe(false);
    expect(flags).toEqual([`--heap-growing-percent=${BACKGROUND_HEAP_GROWTH_PERCENT}`, '--heap-growing-percent=0']);
  });

  it('gives the growth back when a pass fails', async () => {
    const { growth, flags } = recording();
    await expect(growth.during(() => Promise.reject(new Error('unreadable')))).rejects.toThrow('unreadable');
    expect(growth.held).toBe(false);
    expect(flags.at(-1)).toBe('--heap-growing-percent=0');
  });

  it('names a flag this V8 knows (an unknown one would be ignored without a word)', () => {
    const options = execFileSync(process.execPath, ['--v8-options'], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
    expect(options).toMatch(/^\s*--heap-growing-percent\b/m);
  });
});
