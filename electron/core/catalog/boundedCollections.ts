/**
 * Small helpers that keep a transcript aggregate's state bounded however long a session runs:
 * an insertion-ordered distinct list with a cap, and a map that forgets its oldest keys.
 */

/** Adds `value` to `list` unless present or the list is full; returns whether it was added. */
export function addDistinct(list: string[], value: string, cap: number): boolean {
  if (list.length >= cap || list.includes(value)) return false;
  list.push(value);
  return true;
}

/** Sets a key, forgetting the oldest entries beyond `cap` (Map keeps insertion order). */
export function setBounded<V>(map: Map<string, V>, key: string, value: V, cap: number): void {
  map.delete(key);
  map.set(key, value);
  while (map.size > cap) map.delete(map.keys().next().value as string);
}
