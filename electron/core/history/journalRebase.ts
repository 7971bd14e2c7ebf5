import type { NewHistoryEntry } from '../changes/HistoryStore';

/**
 * Drops or rebases the recorder's entries where the journal moved on while they were prepared (the app
 * journals its own writes): a file's entries start from the journal's newest version of it.
 */
export function journalRebase(
  entries: readonly NewHistoryEntry[],
  latestOf: (folder: string, path: string) => string | null,
): NewHistoryEntry[] {
  const byFile = new Map<string, NewHistoryEntry[]>();
  for (const entry of entries) {
    const key = `${entry.folder}\0${entry.path}`;
    byFile.set(key, [...(byFile.get(key) ?? []), entry]);
  }
  /** What each entry becomes: itself, a copy with a new `before`, or nothing. */
  const replacement = new Map<NewHistoryEntry, NewHistoryEntry>();
  for (const list of byFile.values()) {
    const journal = latestOf(list[0].folder, list[0].path);
    const caughtUp = list[0].before === journal ? -1 : list.findIndex((entry) => entry.after === journal);
    const rest = list.slice(caughtUp + 1);
    if (rest.length === 0) continue;
    if (rest[0].before !== journal) {
      if (rest[0].after !== journal) replacement.set(rest[0], { ...rest[0], before: journal });
    } else replacement.set(rest[0], rest[0]);
    for (const entry of rest.slice(1)) replacement.set(entry, entry);
  }
  return entries.flatMap((entry) => {
    const kept = replacement.get(entry);
    return kept ? [kept] : [];
  });
}
