import { describe, expect, it } from 'vitest';
import { SortedNumberMap } from '../../../../electron/core/transcripts/sortedNumberMap';

describe('SortedNumberMap', () => {
  it('answers like the Map it was made from, iterating in key order', () => {
    const map = new Map([
      [40, 3],
      [7, 0],
      [12, 1],
      [99, 3],
      [13, 2],
    ]);
    const { keys, values } = SortedNumberMap.arraysOf(map);
    const sorted = new SortedNumberMap(keys, values);
    expect(sorted.size).toBe(map.size);
    for (const key of [-1, 0, 7, 8, 12, 13, 40, 41, 99, 100]) {
      expect([sorted.get(key), sorted.has(key)]).toEqual([map.get(key), map.has(key)]);
    }
    const inKeyOrder = [...map].sort((a, b) => a[0] - b[0]);
    expect([...sorted]).toEqual(inKeyOrder);
    expect([...sorted.keys()]).toEqual(inKeyOrder.map(([key]) => key));
    expect([...sorted.values()]).toEqual(inKeyOrder.map(([, value]) => value));
    const seen: [number, number][] = [];
    sorted.forEach((value, key) => seen.push([key, value]));
    expect(seen).toEqual(inKeyOrder);
  });

  it('is empty when made from an empty map', () => {
    const { keys, values } = SortedNumberMap.arraysOf(new Map());
    const sorted = new SortedNumberMap(keys, values);
    expect([sorted.size, sorted.get(0), [...sorted]]).toEqual([0, undefined, []]);
  });
});
