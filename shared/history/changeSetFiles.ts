import type { ChangeSetTotals, FileChangeKind, FileChangeSummary } from './historyModel';

/** The journal fields a change set summary is built from (one line per file version). */
export interface JournalChange {
  readonly path: string;
  readonly before: string | null;
  readonly after: string | null;
}

export interface NetFileChange {
  readonly path: string;
  readonly kind: FileChangeKind;
  readonly before: string | null;
  readonly after: string | null;
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
  const byPath = new Map<string, { before: string | null; after: string | null }>();
  for (const entry of entries) {
    const known = byPath.get(entry.path);
    if (known) known.after = entry.after;
    else byPath.set(entry.path, { before: entry.before, after: entry.after });
  }
  const out: NetFileChange[] = [];
  for (const [path, { before, after }] of byPath) {
    if (before === after) continue;
    out.push({ path, kind: changeKind(before, after), before, after });
  }
  return out;
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
