/**
 * Cures for a MEMORY.md index: a pointer for an orphan, a dangling link removed or pointed at a file that exists, an
 * over-long line shortened, and the lines past what Claude Code loads moved into a topic file or trimmed. Text in,
 * text (or edits) out; every other byte of the index stays as it was.
 */
import { MAX_INDEX_LINE_CHARS } from '../findings';
import { appendPointer, targetFromIndex } from '../indexEdits';
import { linksOnLine, parseIndex, pointerLine } from '../memoryIndex';
import { newMemoryText } from '../memoryTemplate';
import { ENTRYPOINT_NAME, truncateEntrypoint } from '../modelView';
import { cutAtWord, lineRange, type TextEdit } from './textEdits';

/** The index a topic file's pointer belongs in: `team/MEMORY.md` for a project's team file, else `MEMORY.md`. */
export function indexFor(folderKind: 'project' | 'agent', file: string): { readonly path: string; readonly folder: string } {
  return folderKind === 'project' && file.startsWith('team/')
    ? { path: `team/${ENTRYPOINT_NAME}`, folder: 'team' }
    : { path: ENTRYPOINT_NAME, folder: '' };
}

/** The folder an index lives in ('' or 'team') from its path. */
export function indexFolderOf(indexPath: string): string {
  return indexPath.includes('/') ? indexPath.slice(0, indexPath.lastIndexOf('/')) : '';
}

/** A readable title from a file name: `feedback_no_force_push.md` → `feedback no force push`. */
export function titleFromPath(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1).replace(/\.md$/i, '');
  return base.replace(/[_-]+/g, ' ').trim() || base;
}

/** Whether any line of the index links to `file`. */
export function pointsAt(indexText: string, indexFolder: string, file: string): boolean {
  return parseIndex(indexText, indexFolder).links.some((link) => link.resolved === file);
}

/** The index with a `- [Title](file.md) — hook` line added at its end; the hook is cut so the line stays short. */
export function withPointer(indexText: string, indexFolder: string, file: string, title: string, hook: string): string {
  const bare = pointerLine(title, targetFromIndex(indexFolder, file), '');
  const room = MAX_INDEX_LINE_CHARS - bare.length - ' — '.length;
  const cleanHook = hook.replace(/[\r\n]+/g, ' ').trim();
  return appendPointer(indexText, indexFolder, file, title, room >= 10 ? cutAtWord(cleanHook, room) : '');
}

/**
 * Removes a dangling link on one line: the whole line when every memory link on it goes to `target`, else the link
 * alone, its title kept as plain text. Null when that line does not link to `target`.
 */
export function removeLinkEdit(indexText: string, indexFolder: string, line: number, target: string): TextEdit | null {
  const range = lineRange(indexText, line);
  if (!range) return null;
  const content = indexText.slice(range.start, range.contentEnd);
  const links = linksOnLine(content, indexFolder).filter((link) => link.resolved !== null);
  const hits = links.filter((link) => link.resolved === target);
  if (hits.length === 0) return null;
  if (hits.length === links.length) return { start: range.start, end: range.end, text: '' };
  // Several links on the line: unwrap each link to the missing file, last first so offsets hold.
  let out = content;
  for (const link of [...hits].reverse()) out = out.slice(0, link.start) + link.title + out.slice(link.end);
  return { start: range.start, end: range.contentEnd, text: out };
}

/** Points the links of one line that go to `target` at `to` instead; titles and hooks stay as written. */
export function retargetLinkEdit(indexText: string, indexFolder: string, line: number, target: string, to: string): TextEdit | null {
  const range = lineRange(indexText, line);
  if (!range) return null;
  const content = indexText.slice(range.start, range.contentEnd);
  const hits = linksOnLine(content, indexFolder).filter((link) => link.resolved === target);
  if (hits.length === 0) return null;
  const newTarget = targetFromIndex(indexFolder, to);
  let out = content;
  for (const link of [...hits].reverse()) {
    const source = out.slice(link.start, link.end);
    const at = source.indexOf(link.target, source.indexOf('](') + 2);
    const bracketed = source[at - 1] === '<';
    const written = bracketed || !/[\s()<>]/.test(newTarget) ? newTarget : `<${newTarget}>`;
    const replaced = source.slice(0, at) + written + source.slice(at + link.target.length);
    out = out.slice(0, link.start) + replaced + out.slice(link.end);
  }
  return { start: range.start, end: range.contentEnd, text: out };
}

/**
 * Cuts an index line to `max` characters at a word, keeping its links whole: the hook after the last link is what
 * gets shorter; a title too long for even that is cut inside its brackets. Null when the line is short enough, or
 * cannot be cut without breaking a link.
 */
export function shortenLineEdit(indexText: string, indexFolder: string, line: number, max = MAX_INDEX_LINE_CHARS): TextEdit | null {
  const range = lineRange(indexText, line);
  if (!range) return null;
  const content = indexText.slice(range.start, range.contentEnd);
  if (content.length <= max) return null;
  const links = linksOnLine(content, indexFolder);
  let shortened: string | null;
  if (links.length === 0) shortened = cutAtWord(content, max);
  else {
    const last = links[links.length - 1];
    if (last.end + 2 <= max) shortened = content.slice(0, last.end) + cutAtWord(content.slice(last.end), max - last.end);
    else {
      // Even the links do not fit: keep the first link alone, its title cut to make room.
      const first = links[0];
      const source = content.slice(first.start, first.end);
      const tail = source.slice(1 + first.title.length);
      const room = max - first.start - 1 - tail.length;
      shortened = room >= 8 ? `${content.slice(0, first.start)}[${cutAtWord(first.title, room)}${tail}` : null;
    }
  }
  return shortened === null ? null : { start: range.start, end: range.contentEnd, text: shortened };
}

/** The index's lines with their own line breaks, so joining them gives the text back. */
function linesWithEnds(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

function newlineOf(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

/**
 * How many of the index's first lines fit in what Claude Code loads, with `extra` (a pointer line) after them:
 * the longest start of the index that loads whole.
 */
function linesThatFit(lines: readonly string[], extra: string): number {
  const fits = (count: number) => {
    const kept = lines.slice(0, count).join('');
    const text = extra ? `${kept}${kept === '' || kept.endsWith('\n') ? '' : '\n'}${extra}` : kept;
    const loaded = truncateEntrypoint(text);
    return !loaded.wasLineTruncated && !loaded.wasByteTruncated;
  };
  // Loading is monotonic in the number of lines kept: search for the last count that still fits.
  let low = 0;
  let high = lines.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(middle)) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** Whether Claude Code cuts this index when it loads it. */
export function indexOverflows(indexText: string): boolean {
  const loaded = truncateEntrypoint(indexText);
  return loaded.wasLineTruncated || loaded.wasByteTruncated;
}

/** The index with every line past what Claude Code loads dropped, or null when nothing is past the cut. */
export function trimOverflow(indexText: string): string | null {
  if (!indexOverflows(indexText)) return null;
  const lines = linesWithEnds(indexText);
  return lines.slice(0, linesThatFit(lines, '')).join('');
}

export const OVERFLOW_FILE_NAME = 'memory_overflow.md';
const OVERFLOW_TITLE = 'MEMORY.md overflow';
const OVERFLOW_DESCRIPTION = 'Index lines moved out of MEMORY.md, past the 200 lines / 25,000 characters Claude Code loads';
const OVERFLOW_HOOK = 'more pointers that did not fit in this index';

/** A free name for the overflow file next to the index (`memory_overflow.md`, `memory_overflow_2.md`, …). */
export function overflowFileName(indexFolder: string, taken: (path: string) => boolean): string {
  const prefix = indexFolder ? `${indexFolder}/` : '';
  for (let n = 1; ; n++) {
    const path = `${prefix}${n === 1 ? OVERFLOW_FILE_NAME : OVERFLOW_FILE_NAME.replace('.md', `_${n}.md`)}`;
    if (!taken(path)) return path;
  }
}

/**
 * Moves the lines past what Claude Code loads into a new topic file `into` (in the index's folder, so its relative
 * links still resolve) and leaves one pointer to it at the end of what loads. Null when nothing is past the cut.
 */
export function moveOverflow(indexText: string, indexFolder: string, into: string): { index: string; overflow: string } | null {
  if (!indexOverflows(indexText)) return null;
  const newline = newlineOf(indexText);
  const pointer = pointerLine(OVERFLOW_TITLE, targetFromIndex(indexFolder, into), OVERFLOW_HOOK);
  const lines = linesWithEnds(indexText);
  const keep = linesThatFit(lines, pointer);
  const kept = lines.slice(0, keep).join('');
  const moved = lines
    .slice(keep)
    .join('')
    .replace(/^(?:[ \t]*\r?\n)+/, '')
    .trimEnd();
  const index = `${kept}${kept === '' || kept.endsWith('\n') ? '' : newline}${pointer}${newline}`;
  const overflow = newMemoryText({ name: OVERFLOW_TITLE, description: OVERFLOW_DESCRIPTION, type: 'reference', body: moved });
  return { index, overflow: newline === '\r\n' ? overflow.replace(/\r?\n/g, '\r\n') : overflow };
}
