import { describe, expect, it } from 'vitest';
import { compareCodeUnits, SortedStringMap } from '../../../../electron/core/transcripts/sortedStringMap';

function sortedOf<V>(map: ReadonlyMap<string, V>): SortedStringMap<V> {
  const entries = SortedStringMap.sortedEntries(map);
  return new SortedStringMap(
    entries.length,
    (i) => entries[i][0],
    (i) => entries[i][1],
  );
}

describe('SortedStringMap', () => {
  it('answers like the Map it was made from, for keys in and out of it, iterating in code-unit order', () => {
    // Case, digits, an astral character and a prefix of another key: orders where a locale sort would differ.
    const map = new Map([
      ['toolu_01b', 4],
      ['toolu_01B', 9],
      ['toolu_01', 1],
      ['Toolu_02', 7],
      ['\u{1F600}x', 3],
      ['\uFFFFy', 2],
      ['', 0],
    ]);
    const sorted = sortedOf(map);
    expect(sorted.size).toBe(map.size);
    for (const key of [...map.keys(), 'toolu_0', 'toolu_01c', 'zzz', '\u{1F600}', ' ']) {
      expect([key, sorted.get(key), sorted.has(key)]).toEqual([key, map.get(key), map.has(key)]);
    }
    const inOrder = [...map].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    expect([...sorted]).toEqual(inOrder);
    expect([...sorted.keys()]).toEqual(inOrder.map(([key]) => key));
    expect([...sorted.values()]).toEqual(inOrder.map(([, value]) => value));
    const seen: [string, number][] = [];
    sorted.forEach((value, key) => seen.push([key, value]));
    expect(seen).toEqual(inOrder);
  });

  it('finds every key of a big random map', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const map = new Map<string, number>();
    while (map.size < 5000) map.set(`toolu_${next().toString(36)}${String.fromCharCode(0x20 + (next() % 0x3000))}`, next());
    const sorted = sortedOf(map);
    for (const [key, value] of map) expect(sorted.get(key)).toBe(value);
    expect(sorted.get('toolu_')).toBeUndefined();
  });

  it('is empty when made from an empty map', () => {
    const sorted = sortedOf(new Map<string, number>());
    expect([sorted.size, sorted.get(''), [...sorted]]).toEqual([0, undefined, []]);
  });

  it('orders by code units, not by locale', () => {
    expect(['b', 'B', 'a', '\u{1F600}', '\uFFFF'].sort(compareCodeUnits)).toEqual(['B', 'a', 'b', '\u{1F600}', '\uFFFF']);
  });
});
