import { describe, expect, it } from 'vitest';
import { collectGarbage } from '../../../../electron/core/async/collectGarbage';

describe('collectGarbage', () => {
  it('collects an object nothing refers to any more, at once', async () => {
    let held: { payload: number[] } | null = { payload: Array.from({ length: 1000 }, (_, i) => i) };
    const weak = new WeakRef(held);
    // Promoted to the old generation first, where only a full collection frees it.
    for (let i = 0; i < 3; i++) await collectGarbage();
    expect(weak.deref()).toBe(held);
    held = null;
    await collectGarbage();
    expect(weak.deref()).toBeUndefined();
  });
});
