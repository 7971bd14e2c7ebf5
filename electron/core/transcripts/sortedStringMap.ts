/** Orders strings by UTF-16 code units, as `<` does: the order a `SortedStringMap`'s keys are saved in. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * A read-only map with string keys over a saved index's columns, keys in code-unit order: a key is found by binary
 * search, reading only the few keys the search visits, so nothing is built when the index loads. A reopened 200 MB
 * transcript's tool maps hold tens of thousands of ids; turning them into `Map`s (each key sliced from the string
 * table, each entry inserted) before the first page cost more than the page, and the page looks up about a hundred.
 * It iterates in key order, where a `Map` iterates in insertion order.
 */
export class SortedStringMap<V> implements ReadonlyMap<string, V> {
  /**
   * @param keyAt the i-th key; keys must ascend in code-unit order, without repeats
   * @param valueAt the value of the i-th key
   */
  constructor(
    readonly size: number,
    private readonly keyAt: (i: number) => string,
    private readonly valueAt: (i: number) => V,
  ) {}

  /** The entries of a map in the order the constructor wants its keys. */
  static sortedEntries<V>(map: ReadonlyMap<string, V>): [string, V][] {
    return [...map].sort((a, b) => compareCodeUnits(a[0], b[0]));
  }

  private indexOf(key: string): number {
    let low = 0;
    let high = this.size - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const order = compareCodeUnits(this.keyAt(mid), key);
      if (order === 0) return mid;
      if (order < 0) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  }

  get(key: string): V | undefined {
    const at = this.indexOf(key);
    return at < 0 ? undefined : this.valueAt(at);
  }

  has(key: string): boolean {
    return this.indexOf(key) >= 0;
  }

  forEach(callback: (value: V, key: string, map: ReadonlyMap<string, V>) => void, thisArg?: unknown): void {
    for (let i = 0; i < this.size; i++) callback.call(thisArg, this.valueAt(i), this.keyAt(i), this);
  }

  *entries(): MapIterator<[string, V]> {
    for (let i = 0; i < this.size; i++) yield [this.keyAt(i), this.valueAt(i)];
  }

  *keys(): MapIterator<string> {
    for (let i = 0; i < this.size; i++) yield this.keyAt(i);
  }

  *values(): MapIterator<V> {
    for (let i = 0; i < this.size; i++) yield this.valueAt(i);
  }

  [Symbol.iterator](): MapIterator<[string, V]> {
    return this.entries();
  }
}
