/** How many characters of the end a path keeps when it has no separator near the end. */
const TAIL_CHARS = 16;
/** The last segment is kept whole up to this length; a longer one keeps only its end. */
const MAX_TAIL_CHARS = 40;

/**
 * Splits a path into the part that may be cut (the head) and the part that always shows (the tail): the last
 * segment with its separator, e.g. `/home/me/project/` + `memory/MEMORY.md` keeps `/MEMORY.md` whole. CSS cuts the
 * head with an ellipsis, so the eye still finds the file name.
 */
export function splitForMiddleTruncation(text: string): { readonly head: string; readonly tail: string } {
  const separator = Math.max(text.lastIndexOf('/'), text.lastIndexOf('\\'));
  const tailLength = separator >= 0 && text.length - separator <= MAX_TAIL_CHARS ? text.length - separator : TAIL_CHARS;
  if (text.length <= tailLength) return { head: '', tail: text };
  return { head: text.slice(0, text.length - tailLength), tail: text.slice(text.length - tailLength) };
}

/** The text cut to at most `max` characters by dropping its middle (for places CSS cannot cut, such as options). */
export function middleTruncate(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 1) return '…'.slice(0, max);
  const keep = max - 1;
  const tail = Math.ceil(keep / 2);
  return `${text.slice(0, keep - tail)}…${text.slice(text.length - tail)}`;
}
