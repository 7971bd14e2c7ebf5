import { diffLines, diffWordsWithSpace, type Change } from 'diff';

/** A piece of one line; `changed` marks the words that differ from the paired line on the other side. */
export interface DiffSegment {
  readonly text: string;
  readonly changed: boolean;
}

/** One line of an inline diff. Line numbers count from 1 on each side. */
export type DiffLine =
  | { readonly kind: 'same'; readonly oldLine: number; readonly newLine: number; readonly text: string }
  | { readonly kind: 'removed'; readonly oldLine: number; readonly segments: readonly DiffSegment[] }
  | { readonly kind: 'added'; readonly newLine: number; readonly segments: readonly DiffSegment[] }
  | { readonly kind: 'skipped'; readonly count: number };

/** One side of a side-by-side row; null where the other side has a line and this one has none. */
export interface SideCell {
  readonly line: number;
  readonly kind: 'same' | 'removed' | 'added';
  readonly segments: readonly DiffSegment[];
}

export type SideBySideRow =
  | { readonly kind: 'pair'; readonly left: SideCell | null; readonly right: SideCell | null }
  | { readonly kind: 'skipped'; readonly count: number };

export interface TextDiff {
  readonly lines: readonly DiffLine[];
  readonly linesAdded: number;
  readonly linesRemoved: number;
  /** True when the texts were too different to diff within the time budget: shown as a whole replacement. */
  readonly approximate: boolean;
}

export interface LineStats {
  readonly linesAdded: number;
  readonly linesRemoved: number;
}

const DIFF_TIMEOUT_MS = 2000;
/** Word highlights on lines longer than this cost more than they help; such pairs are marked as whole lines. */
const MAX_WORD_DIFF_CHARS = 4000;

/** Splits text into lines without their line ends (a final line end does not start an empty line). */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function lineChanges(before: string, after: string): { changes: Change[]; approximate: boolean } {
  const changes = diffLines(before, after, { timeout: DIFF_TIMEOUT_MS });
  if (changes) return { changes, approximate: false };
  // Too expensive to diff precisely: everything old removed, everything new added.
  const whole: Change[] = [];
  if (before !== '') whole.push({ value: before, added: false, removed: true, count: splitLines(before).length });
  if (after !== '') whole.push({ value: after, added: true, removed: false, count: splitLines(after).length });
  return { changes: whole, approximate: true };
}

/** Lines added and removed between two versions of a file (null = the file does not exist). */
export function lineStats(before: string | null, after: string | null): LineStats {
  const { changes } = lineChanges(before ?? '', after ?? '');
  let linesAdded = 0;
  let linesRemoved = 0;
  for (const change of changes) {
    if (change.added) linesAdded += splitLines(change.value).length;
    else if (change.removed) linesRemoved += splitLines(change.value).length;
  }
  return { linesAdded, linesRemoved };
}

function wholeLine(text: string): DiffSegment[] {
  return [{ text, changed: false }];
}

/** Word-level highlights for a removed line and the added line that replaced it. */
export function pairSegments(oldText: string, newText: string): { removed: DiffSegment[]; added: DiffSegment[] } {
  if (oldText.length + newText.length > MAX_WORD_DIFF_CHARS) return { removed: wholeLine(oldText), added: wholeLine(newText) };
  const removed: DiffSegment[] = [];
  const added: DiffSegment[] = [];
  for (const part of diffWordsWithSpace(oldText, newText)) {
    if (part.added) added.push({ text: part.value, changed: true });
    else if (part.removed) removed.push({ text: part.value, changed: true });
    else {
      removed.push({ text: part.value, changed: false });
      added.push({ text: part.value, changed: false });
    }
  }
  return { removed, added };
}

/**
 * The full line diff of two texts with word-level highlights: within a block of removed lines followed by added
 * lines, the n-th removed line is paired with the n-th added one and their differing words are marked.
 */
export function diffTexts(before: string | null, after: string | null): TextDiff {
  const { changes, approximate } = lineChanges(before ?? '', after ?? '');
  const lines: DiffLine[] = [];
  let oldLine = 1;
  let newLine = 1;
  let linesAdded = 0;
  let linesRemoved = 0;
  for (let i = 0; i < changes.length; i++) {
    const change = changes[i];
    if (!change.added && !change.removed) {
      for (const text of splitLines(change.value)) lines.push({ kind: 'same', oldLine: oldLine++, newLine: newLine++, text });
      continue;
    }
    const removedLines = change.removed ? splitLines(change.value) : [];
    const next = changes[i + 1];
    const addedLines = change.removed && next?.added ? splitLines(next.value) : change.added ? splitLines(change.value) : [];
    if (change.removed && next?.added) i++;
    linesRemoved += removedLines.length;
    linesAdded += addedLines.length;
    const pairs = Math.min(removedLines.length, addedLines.length);
    const removedRows: DiffLine[] = [];
    const addedRows: DiffLine[] = [];
    removedLines.forEach((text, index) => {
      const segments = index < pairs ? pairSegments(text, addedLines[index]).removed : wholeLine(text);
      removedRows.push({ kind: 'removed', oldLine: oldLine++, segments });
    });
    addedLines.forEach((text, index) => {
      const segments = index < pairs ? pairSegments(removedLines[index], text).added : wholeLine(text);
      addedRows.push({ kind: 'added', newLine: newLine++, segments });
    });
    lines.push(...removedRows, ...addedRows);
  }
  return { lines, linesAdded, linesRemoved, approximate };
}

/** Keeps `context` unchanged lines around each change and folds longer unchanged runs into one `skipped` line. */
export function foldUnchanged(lines: readonly DiffLine[], context = 3): DiffLine[] {
  const keep = new Array<boolean>(lines.length).fill(false);
  lines.forEach((line, index) => {
    if (line.kind === 'same') return;
    for (let j = Math.max(0, index - context); j <= Math.min(lines.length - 1, index + context); j++) keep[j] = true;
  });
  const out: DiffLine[] = [];
  let skipped = 0;
  lines.forEach((line, index) => {
    if (keep[index]) {
      if (skipped > 0) out.push({ kind: 'skipped', count: skipped });
      skipped = 0;
      out.push(line);
    } else skipped++;
  });
  if (skipped > 0) out.push({ kind: 'skipped', count: skipped });
  return out;
}

/** The same diff as two columns: removed lines on the left beside the added lines that replaced them on the right. */
export function toSideBySide(lines: readonly DiffLine[]): SideBySideRow[] {
  const rows: SideBySideRow[] = [];
  let removed: SideCell[] = [];
  let added: SideCell[] = [];
  const flush = () => {
    for (let i = 0; i < Math.max(removed.length, added.length); i++)
      rows.push({ kind: 'pair', left: removed[i] ?? null, right: added[i] ?? null });
    removed = [];
    added = [];
  };
  for (const line of lines) {
    switch (line.kind) {
      case 'removed':
        if (added.length > 0) flush();
        removed.push({ line: line.oldLine, kind: 'removed', segments: line.segments });
        break;
      case 'added':
        added.push({ line: line.newLine, kind: 'added', segments: line.segments });
        break;
      case 'same':
        flush();
        rows.push({
          kind: 'pair',
          left: { line: line.oldLine, kind: 'same', segments: wholeLine(line.text) },
          right: { line: line.newLine, kind: 'same', segments: wholeLine(line.text) },
        });
        break;
      case 'skipped':
        flush();
        rows.push({ kind: 'skipped', count: line.count });
        break;
    }
  }
  flush();
  return rows;
}
