/**
 * Two near-duplicate memories made one: the kept file gains the paragraphs only the dropped one has, in their
 * order, after its own text; its frontmatter stays as written. Pure text work.
 */
import { bodyStartOf } from '../frontmatterBlock';

/** Paragraphs of a body: runs of lines between blank lines, each with its lines as written. */
function paragraphs(body: string): string[][] {
  const out: string[][] = [];
  let current: string[] = [];
  for (const raw of body.split('\n')) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') {
      if (current.length > 0) out.push(current);
      current = [];
    } else current.push(line);
  }
  if (current.length > 0) out.push(current);
  return out;
}

const normalised = (line: string) => line.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * The kept memory's text with what only the dropped one says appended: of each paragraph of the dropped body, the
 * lines the kept body does not hold, still grouped by paragraph; headings (the dropped file's title) are not carried.
 */
export function mergedText(keepText: string, dropText: string): string {
  const keepBody = keepText.slice(bodyStartOf(keepText));
  const known = new Set(keepBody.split('\n').map(normalised).filter(Boolean));
  const carried = paragraphs(dropText.slice(bodyStartOf(dropText)))
    .map((paragraph) => paragraph.filter((line) => !/^\s*#{1,6}\s/.test(line) && !known.has(normalised(line))))
    .filter((paragraph) => paragraph.length > 0);
  if (carried.length === 0) return keepText;
  const newline = keepText.includes('\r\n') ? '\r\n' : '\n';
  const trimmed = keepText.replace(/(?:\r?\n)*$/, '');
  const added = carried.map((paragraph) => paragraph.join(newline)).join(newline + newline);
  return `${trimmed}${newline}${newline}${added}${newline}`;
}
