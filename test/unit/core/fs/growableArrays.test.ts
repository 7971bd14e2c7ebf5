import { describe, expect, it } from 'vitest';
import { growableArray, reserve } from '../../../../electron/core/fs/growableArrays';

describe('growable typed arrays', () => {
  it('grow in place, a step at a time, keeping what they hold', () => {
    const numbers = growableArray(Float64Array, 1000);
    const buffer = numbers.buffer;
    expect(numbers.length).toBe(0);
    for (let i = 0; i < 300; i++) {
      reserve(numbers, i + 1, 64);
      numbers[i] = i * 1.5;
    }
    // Grown in steps of 64, never copied: the same buffer, every value where it was written.
    expect(numbers.length).toBe(320);
    expect(numbers.buffer).toBe(buffer);
    expect(Array.from(numbers.subarray(0, 300))).toEqual(Array.from({ length: 300 }, (_, i) => i * 1.5));
  });

  it('stop at their maximum', () => {
    const ids = growableArray(Int32Array, 100);
    reserve(ids, 90, 64);
    expect(ids.length).toBe(90);
    // A step past the maximum stops at it; beyond it, nothing more.
    reserve(ids, 95, 64);
    expect(ids.length).toBe(100);
    expect(() => reserve(ids, 101, 64)).toThrow(RangeError);
    expect(ids.length).toBe(100);
  });
});
