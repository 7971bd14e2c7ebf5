export const ENTRY_KINDS = ['page', 'action', 'project', 'memory', 'session'] as const;
export type EntryKind = (typeof ENTRY_KINDS)[number];

/** One thing the command palette can go to or do. */
export interface PaletteEntry {
  readonly id: string;
  readonly kind: EntryKind;
  readonly label: string;
  /** Shown after the label, searched too (a project's path, a session's project). */
  readonly detail?: string;
  /** Words that find the entry without being shown (a session id, a file name). */
  readonly keywords?: string;
  readonly shortcut?: string;
  readonly run: () => void;
}

/** Lower is better: where the query's first word sits in the entry. */
function scoreOf(entry: PaletteEntry, words: readonly string[]): number | null {
  const label = entry.label.toLowerCase();
  const haystack = `${label}\n${entry.detail ?? ''}\n${entry.keywords ?? ''}`.toLowerCase();
  if (!words.every((word) => haystack.includes(word))) return null;
  const first = words[0];
  if (label.startsWith(first)) return 0;
  if (new RegExp(`(^|[\\s/\\\\._·-])${first.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`).test(label)) return 1;
  if (label.includes(first)) return 2;
  return 3;
}

/**
 * The entries that contain every word of the query (case-insensitive, in label, detail or keywords), best first:
 * a label that starts with the query, then one with a word that does, then any other match; ties keep the kinds'
 * order (pages, actions, projects, memories, sessions) and then the order given. An empty query lists them as given.
 */
export function rankEntries(entries: readonly PaletteEntry[], query: string, limit: number): PaletteEntry[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return entries.slice(0, limit);
  return entries
    .map((entry, index) => ({ entry, index, score: scoreOf(entry, words) }))
    .filter((item): item is { entry: PaletteEntry; index: number; score: number } => item.score !== null)
    .sort((a, b) => a.score - b.score || ENTRY_KINDS.indexOf(a.entry.kind) - ENTRY_KINDS.indexOf(b.entry.kind) || a.index - b.index)
    .slice(0, limit)
    .map((item) => item.entry);
}
