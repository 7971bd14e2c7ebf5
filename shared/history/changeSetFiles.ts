import type { Certainty, ChangeSetTotals, FileChangeKind, FileChangeSummary } from './historyModel';

/** The journal fields a change set summary is built from (one line per file version). */
export interface JournalChange {
  readonly path: string;
  readonly before: string | null;
  readonly after: string | null;
  /** Set on reconstructed lines: what the change was, when unknown bytes leave `before`/`after` null. */
  readonly kind?: FileChangeKind;
  /** Absent means `exact`. `inferred`: the version after is not known (`after` is null, the file is not deleted). */
  readonly certainty?: Certainty;
  /** `inferred`: the version before is not known (`before` is null, the file may have existed). */
  readonly beforeCertainty?: Certainty;
  readonly gap?: string;
}

export interface NetFileChange {
  readonly path: string;
  readonly kind: FileChangeKind;
  readonly before: string | null;
  readonly after: string | null;
  readonly certainty: Certainty;
  /** False when the version before the change set is not known: nothing can be put back to it. */
  readonly beforeKnown: boolean;
  readonly gap: string | null;
}

export function changeKind(before: string | null, after: string | null): FileChangeKind {
  if (before === null) return 'added';
  if (after === null) return 'deleted';
  return 'modified';
}

/**
 * What a change set did to each file, from the first version before it to the last one after it (a file
 * written twice in one turn is one modification). Files that end where they started are left out.
 * Paths keep the order of their first change.
 */
export function netFileChanges(entries: readonly JournalChange[]): NetFileChange[] {
  interface Net {
    first: JournalChange;
    last: JournalChange;
    gap: string | null;
  }
  const byPath = new Map<string, Net>();
  for (const entry of entries) {
    const known = byPath.get(entry.path);
    if (known) {
      known.last = entry;
      known.gap ??= entry.gap ?? null;
    } else byPath.set(entry.path, { first: entry, last: entry, gap: entry.gap ?? null });
  }
  const out: NetFileChange[] = [];
  for (const [path, { first, last, gap }] of byPath) {
    const certainty = last.certainty ?? 'exact';
    const beforeKnown = (first.beforeCertainty ?? 'exact') === 'exact';
    const { before } = first;
    const { after } = last;
    if (certainty === 'exact' && beforeKnown && before === after) continue;
    // Unknown bytes leave the hashes silent on what happened: the reconstructed lines say it.
    const kind =
      certainty === 'exact' && beforeKnown
        ? changeKind(before, after)
        : first === last && first.kind
          ? first.kind
          : mergedKind(first, last);
    out.push({ path, kind, before, after, certainty, beforeKnown, gap });
  }
  return out;
}

/** Several reconstructed lines of one file in one change set: deleted if the last deleted it, created if the first created it. */
function mergedKind(first: JournalChange, last: JournalChange): FileChangeKind {
  if ((last.kind ?? changeKind(last.before, last.after)) === 'deleted') return 'deleted';
  return (first.kind ?? changeKind(first.before, first.after)) === 'added' ? 'added' : 'modified';
}

export function changeSetTotals(files: readonly FileChangeSummary[]): ChangeSetTotals {
  const totals = { added: 0, modified: 0, deleted: 0, linesAdded: 0, linesRemoved: 0 };
  for (const file of files) {
    totals[file.kind]++;
    totals.linesAdded += file.linesAdded;
    totals.linesRemoved += file.linesRemoved;
  }
  return totals;
}

/** "3 modified, 1 deleted · +12 −40" */
export function describeTotals(totals: ChangeSetTotals): string {
  const parts: string[] = [];
  if (totals.added > 0) parts.push(`${totals.added} added`);
  if (totals.modified > 0) parts.push(`${totals.modified} modified`);
  if (totals.deleted > 0) parts.push(`${totals.deleted} deleted`);
  return `${parts.join(', ') || 'no file changes'} · +${totals.linesAdded} −${totals.linesRemoved}`;
}
