/**
 * Edits of a text by position, so several cures of one file (every relative date, every secret, every dangling
 * link) all refer to the text as it was found and land together; everything outside them stays byte for byte.
 */

/** Replace `[start, end)` (UTF-16 offsets in the original text) with `text`. */
export interface TextEdit {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** Where one line sits in a text: its content, and its end including the line break. */
export interface LineRange {
  readonly start: number;
  /** Just past the content, before `\r\n` or `\n`. */
  readonly contentEnd: number;
  /** Just past the line break (the text's length on the last line). */
  readonly end: number;
}

/** Line `line` (1-based, lines split at `\n`), or null past the end. */
export function lineRange(text: string, line: number): LineRange | null {
  if (!Number.isInteger(line) || line < 1) return null;
  let start = 0;
  for (let current = 1; current < line; current++) {
    const next = text.indexOf('\n', start);
    if (next === -1) return null;
    start = next + 1;
  }
  if (start > text.length || (start === text.length && line > 1)) return null;
  const newline = text.indexOf('\n', start);
  const end = newline === -1 ? text.length : newline + 1;
  const contentEnd = newline === -1 ? text.length : newline > start && text[newline - 1] === '\r' ? newline - 1 : newline;
  return { start, contentEnd, end };
}

/** The 1-based line that holds offset `at`. */
export function lineAt(text: string, at: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < at; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** Whether two edits touch the same characters (two insertions at one place count as touching). */
function overlaps(a: TextEdit, b: TextEdit): boolean {
  return a.start < b.end && b.start < a.end ? true : a.start === b.start && (a.start === a.end || b.start === b.end);
}

/**
 * Applies edits that do not overlap; an edit that overlaps one accepted before it is left out and returned, so
 * its cure can say so. Offsets refer to the original text whatever the order.
 */
export function applyEdits(text: string, edits: readonly TextEdit[]): { text: string; rejected: TextEdit[] } {
  const accepted: TextEdit[] = [];
  const rejected: TextEdit[] = [];
  for (const edit of edits) {
    if (edit.start < 0 || edit.end > text.length || edit.start > edit.end || accepted.some((other) => overlaps(other, edit))) {
      rejected.push(edit);
      continue;
    }
    accepted.push(edit);
  }
  let out = text;
  for (const edit of [...accepted].sort((a, b) => b.start - a.start)) out = out.slice(0, edit.start) + edit.text + out.slice(edit.end);
  return { text: out, rejected };
}

/** Cuts a one-line text to at most `max` characters at a word boundary, ending in `…`; never splits a surrogate pair. */
export function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = max - 1;
  if (cut > 0 && /[\uDC00-\uDFFF]/.test(text[cut])) cut--;
  const space = text.lastIndexOf(' ', cut);
  // A word longer than a third of the room is cut inside rather than leaving a stub.
  const at = space > max / 3 ? space : cut;
  return `${text.slice(0, at).trimEnd()}…`;
}
