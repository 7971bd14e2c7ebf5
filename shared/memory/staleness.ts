/**
 * Text signs that a memory has gone stale: relative dates that meant something only on the day they were
 * written, and file paths it cites (checked against the project on disk by the engine).
 */

export interface TextHit {
  /** 1-based line in the file's text. */
  readonly line: number;
  readonly text: string;
}

const WEEKDAY = '(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|wed|thu|thurs|fri|sat|sun)';
const PERIOD = `(?:week|weekend|month|year|quarter|sprint|release|${WEEKDAY})`;
const RELATIVE_DATE = new RegExp(
  [
    '\\b(?:yesterday|today|tomorrow|tonight|this morning|this afternoon|this evening)\\b',
    `\\b(?:last|next|this|coming|past)\\s+${PERIOD}\\b`,
    '\\b(?:in|within)\\s+(?:a|an|one|two|three|four|five|six|seven|a few|few|\\d+)\\s+(?:days?|weeks?|months?|years?)\\b',
    '\\b(?:a|an|one|two|three|four|five|six|seven|a few|few|\\d+)\\s+(?:days?|weeks?|months?|years?)\\s+ago\\b',
    '\\b(?:the day before yesterday|the day after tomorrow|earlier this (?:week|month|year)|later this (?:week|month|year))\\b',
  ].join('|'),
  'i',
);

const MONTH =
  '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const ABSOLUTE_DATE = new RegExp(
  [
    '\\b\\d{4}-\\d{1,2}-\\d{1,2}\\b',
    '\\b\\d{1,2}[/.]\\d{1,2}[/.]\\d{2,4}\\b',
    `\\b${MONTH}\\.?\\s+\\d{1,2}(?:st|nd|rd|th)?,?\\s+\\d{4}\\b`,
    `\\b\\d{1,2}(?:st|nd|rd|th)?\\s+${MONTH}\\.?,?\\s+\\d{4}\\b`,
  ].join('|'),
  'i',
);

/** Lines of the body outside fenced code blocks, with their 1-based numbers in the whole file. */
function proseLines(text: string, firstLine: number): TextHit[] {
  const out: TextHit[] = [];
  let fenced = false;
  text.split('\n').forEach((raw, index) => {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return;
    }
    if (!fenced) out.push({ line: firstLine + index, text: line });
  });
  return out;
}

/** Lines that date something relative to "now" ("yesterday", "next Thursday", "last week") and hold no absolute date. */
export function findRelativeDates(body: string, firstLine: number): TextHit[] {
  return proseLines(body, firstLine).filter((hit) => RELATIVE_DATE.test(hit.text) && !ABSOLUTE_DATE.test(hit.text));
}

/** Every relative expression on a line, where each starts and what it says, in order (for rewriting them). */
export function relativeDatesOn(text: string): { readonly index: number; readonly text: string }[] {
  return [...text.matchAll(new RegExp(RELATIVE_DATE.source, 'gi'))].map((match) => ({ index: match.index, text: match[0] }));
}

/** Whether a line already holds an absolute date (then its relative ones have something to go by). */
export function hasAbsoluteDate(text: string): boolean {
  return ABSOLUTE_DATE.test(text);
}

/** The relative expression on a line, for messages. */
export function relativeDateOn(text: string): string | null {
  return RELATIVE_DATE.exec(text)?.[0] ?? null;
}

export interface CitedPath {
  readonly line: number;
  /** The path as written, without a `:line` suffix. */
  readonly path: string;
  readonly lineRef: number | null;
}

const FILE_EXTENSION = /\.[A-Za-z0-9]{1,10}$/;
/** A path with at least one folder and a file extension, optionally `:line`: `src/cart/total.ts:42`. */
const BARE_PATH = /(?:^|[\s(["'])((?:\.{1,2}\/|\/)?(?:[\w@.+-]+\/)+[\w@.+-]+\.[A-Za-z0-9]{1,10})(?::(\d+)(?::\d+)?)?(?=$|[\s)\]"',;:.!?])/g;
const BACKTICKED = /`([^`\s]+)`/g;

function splitLineRef(token: string): { path: string; lineRef: number | null } {
  const match = /^(.*?):(\d+)(?::\d+)?$/.exec(token);
  return match ? { path: match[1], lineRef: Number(match[2]) } : { path: token, lineRef: null };
}

function looksLikeFilePath(path: string): boolean {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path) || path.includes('@') || path.startsWith('~')) return false;
  if (/[*?{}<>|$]/.test(path)) return false;
  return FILE_EXTENSION.test(path) && !/^\d+(\.\d+)+$/.test(path);
}

/** File paths (and `file:line` citations) a memory's body mentions, outside fenced code. */
export function findCitedPaths(body: string, firstLine: number): CitedPath[] {
  const out: CitedPath[] = [];
  const seen = new Set<string>();
  for (const hit of proseLines(body, firstLine)) {
    const add = (token: string, lineRef: number | null) => {
      const path = token.replace(/^\.\//, '');
      const key = `${hit.line}\0${path}`;
      if (!looksLikeFilePath(path) || seen.has(key)) return;
      seen.add(key);
      out.push({ line: hit.line, path, lineRef });
    };
    for (const match of hit.text.matchAll(BACKTICKED)) {
      const { path, lineRef } = splitLineRef(match[1]);
      add(path, lineRef);
    }
    const withoutCode = hit.text.replace(BACKTICKED, ' ');
    for (const match of withoutCode.matchAll(BARE_PATH)) add(match[1], match[2] ? Number(match[2]) : null);
  }
  return out;
}
