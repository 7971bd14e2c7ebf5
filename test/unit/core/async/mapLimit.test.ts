import { describe, expect, it } from 'vitest';
import { mapLimit } from '../../../../electron/core/async/mapLimit';

describe('mapLimit', () => {
  it('keeps order and never runs more than `limit` at once', async () => {
    let running = 0;
    let peak = 0;
    const result = await mapLimit([5, 1, 4, 2, 3, 0], 2, async (n) => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, n));
      running--;
      return n * 10;
    });
    expect(result).toEqual([50, 10, 40, 20, 30, 0]);
    expect(peak).toBe(2);
  });

  it('handles an empty list', async () => {
    expect(await mapLimit([], 4, async (x: number) => x)).toEqual([]);
  });
});
