import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { collectGarbageNow, fetchFullCollection } from '../../../../electron/core/async/fullGarbageCollection';

/** A WeakRef to an object nothing else holds; a WeakRef keeps its target until the job that made it has ended. */
function unreachable(): WeakRef<object> {
  return new WeakRef({ payload: new Array(1000).fill('garbage') });
}

describe('collectGarbageNow', () => {
  it('collects what nothing holds, in a process started without --expose-gc', async () => {
    expect(typeof (globalThis as { gc?: unknown }).gc).toBe('undefined');
    const ref = unreachable();
    await new Promise((resolve) => setImmediate(resolve));
    collectGarbageNow();
    expect(ref.deref()).toBeUndefined();
  });

  it('leaves no gc function to contexts made afterwards', () => {
    collectGarbageNow();
    expect(runInNewContext('typeof gc')).toBe('undefined');
  });

  it('does nothing, without failing, where a context made under --expose-gc has no gc', () => {
    const collect = fetchFullCollection(() => undefined);
    expect(() => collect()).not.toThrow();
    expect(runInNewContext('typeof gc')).toBe('undefined');
  });
});
