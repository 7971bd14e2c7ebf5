import { describe, expect, it } from 'vitest';
import { yieldWhenSliceIsUsed } from '../../../../electron/core/async/timeSlices';

function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

describe('yieldWhenSliceIsUsed', () => {
  it('lets waiting callbacks run once 10 ms of blocking work are used', async () => {
    await yieldWhenSliceIsUsed();
    busy(15);
    let ran = false;
    setImmediate(() => (ran = true));
    await yieldWhenSliceIsUsed();
    expect(ran).toBe(true);
  });
});
