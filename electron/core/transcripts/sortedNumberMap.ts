/**
 * A read-only map of numbers to numbers over two typed arrays, keys ascending: built in no time from a saved index
 * (where a `Map` of a big transcript's every row was thousands of insertions before the first page), looked up by
 * binary search. It iterates in key order, where a `Map` iterates in insertion order.
 */
export class SortedNumberMap implements ReadonlyMap<number, number> {
  /** `keys` must ascend, without repeats, and be as long as `values`. */
  constructor(
    private readonly sortedKeys: Int32Array,
    private readonly valueArray: Int32Array,
  ) {
    if (sortedKeys.length !== valueArray.length) throw new Error('keys and values differ in number');
  }

  /** The entries of a map, keys ascending, as the two arrays the constructor takes. */
  static arraysOf(map: ReadonlyMap<number, number>): { keys: Int32Array; values: Int32Array } {
    const entries = [...map].sort((a, b) => a[0] - b[0]);
    return { keys: Int32Array.from(entries, (entry) => entry[0]), values: Int32Array.from(entries, (entry) => entry[1]) };
  }

  private indexOf(key: number): number {
    let low = 0;
    let high = this.sortedKeys.length - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const value = this.sortedKeys[mid];
      if (value === key) return mid;
      if (value < key) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  }

  get size(): number {
    return this.sortedKeys.length;
  }

  get(key: number): number | undefined {
    const at = this.indexOf(key);
    return at < 0 ? undefined : this.valueArray[at];
  }

  has(key: number): boolean {
    return this.indexOf(key) >= 0;
  }

  forEach(callback: (value: number, key: number, map: ReadonlyMap<number, number>) => void, thisArg?: unknown): void {
    for (let i = 0; i < this.sortedKeys.length; i++) callback.call(thisArg, this.valueArray[i], this.sortedKeys[i], this);
  }

  *entries(): MapIterator<[number, number]> {
    for (let i = 0; i < this.sortedKeys.length; i++) yield [this.sortedKeys[i], this.valueArray[i]];
  }

  keys(): MapIterator<number> {
    return this.sortedKeys[Symbol.iterator]();
  }

  values(): MapIterator<number> {
    return this.valueArray[Symbol.iterator]();
  }

  [Symbol.iterator](): MapIterator<[number, number]> {
    return this.entries();
  }
}
