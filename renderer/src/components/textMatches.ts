/** Where `query` occurs in `text`, ignoring case: [start, end) offsets, not overlapping, in order. */
export function textMatches(text: string, query: string): [number, number][] {
  const needle = query.toLowerCase();
  if (needle === '') return [];
  const haystack = text.toLowerCase();
  const out: [number, number][] = [];
  // Lower-casing can change a string's length (İ → i̇): then offsets would not map back, so match nothing rather than wrongly.
  if (haystack.length !== text.length) return out;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length)) out.push([at, at + needle.length]);
  return out;
}

/** Whether `text` contains `query`, ignoring case (an empty or missing query matches nothing). */
export function containsText(text: string, query: string | null | undefined): boolean {
  return !!query && text.toLowerCase().includes(query.toLowerCase());
}
