/**
 * Rewrites relative dates ("yesterday", "next Thursday", "3 weeks ago") as absolute ones, counted from the day the
 * memory was written (its file's date). An expression without a precise meaning ("next release", "a few days
 * ago") keeps its words and gains the date it was written on: "next release (as of 2026-05-10)".
 */
import { relativeDatesOn } from '../staleness';
import type { TextEdit } from './textEdits';

const DAY_MS = 86_400_000;
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const WEEKDAY_PREFIXES: readonly (readonly [string, number])[] = [
  ['sun', 0],
  ['mon', 1],
  ['tue', 2],
  ['wed', 3],
  ['thu', 4],
  ['fri', 5],
  ['sat', 6],
];
const COUNTS: Readonly<Record<string, number>> = { a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7 };

/** A calendar day, kept as UTC midnight so the arithmetic never meets a time zone. */
type Day = number;

/** `YYYY-MM-DD` → a day, or null when it is not a real date. */
export function parseDay(date: string): Day | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return null;
  const day = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return formatDay(day) === date ? day : null;
}

export function formatDay(day: Day): string {
  return new Date(day).toISOString().slice(0, 10);
}

/** The local calendar date of a moment (the file's mtime on this machine), as `YYYY-MM-DD`. */
export function localDateOf(ms: number): string {
  const date = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

const addDays = (day: Day, days: number): Day => day + days * DAY_MS;
const weekday = (day: Day): number => new Date(day).getUTCDay();
/** The Monday of the day's week. */
const weekStart = (day: Day): Day => addDays(day, -((weekday(day) + 6) % 7));

function monthName(day: Day, monthOffset: number): string {
  const date = new Date(day);
  const shifted = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + monthOffset, 1));
  return `${MONTHS[shifted.getUTCMonth()]} ${shifted.getUTCFullYear()}`;
}

function yearOf(day: Day, offset: number): string {
  return String(new Date(day).getUTCFullYear() + offset);
}

function quarterOf(day: Day, offset: number): string {
  const date = new Date(day);
  const index = date.getUTCFullYear() * 4 + Math.floor(date.getUTCMonth() / 3) + offset;
  return `Q${(index % 4) + 1} ${Math.floor(index / 4)}`;
}

function weekdayIndex(word: string): number | null {
  const lower = word.toLowerCase();
  return WEEKDAY_PREFIXES.find(([prefix]) => lower.startsWith(prefix))?.[1] ?? null;
}

/** The absolute form of one relative expression, or null when it has no precise one. */
function absoluteFor(expression: string, day: Day): string | null {
  const text = expression.toLowerCase().replace(/\s+/g, ' ');
  const exact: Readonly<Record<string, string>> = {
    today: formatDay(day),
    yesterday: formatDay(addDays(day, -1)),
    tomorrow: formatDay(addDays(day, 1)),
    tonight: `the night of ${formatDay(day)}`,
    'this morning': `the morning of ${formatDay(day)}`,
    'this afternoon': `the afternoon of ${formatDay(day)}`,
    'this evening': `the evening of ${formatDay(day)}`,
    'the day before yesterday': formatDay(addDays(day, -2)),
    'the day after tomorrow': formatDay(addDays(day, 2)),
  };
  if (exact[text]) return exact[text];
  const within = /^(earlier|later) this (week|month|year)$/.exec(text);
  if (within) {
    const span =
      within[2] === 'week' ? `the week of ${formatDay(weekStart(day))}` : within[2] === 'month' ? monthName(day, 0) : yearOf(day, 0);
    return `${within[1]} in ${span}`;
  }
  const period = /^(last|next|this|coming|past) (\w+)$/.exec(text);
  if (period) return periodFor(period[1], period[2], day);
  const ahead = /^(in|within) (\w+) (day|week|month|year)s?$/.exec(text);
  if (ahead) {
    const count = /^\d+$/.test(ahead[2]) ? Number(ahead[2]) : COUNTS[ahead[2]];
    if (count === undefined) return null;
    const word =
      ahead[1] === 'in' ? { day: 'on', week: 'in', month: 'in', year: 'in' } : { day: 'by', week: 'by', month: 'by', year: 'by' };
    return `${word[ahead[3] as 'day']} ${shifted(ahead[3], count, day)}`;
  }
  const ago = /^(\w+) (day|week|month|year)s? ago$/.exec(text);
  if (ago) {
    const count = /^\d+$/.test(ago[1]) ? Number(ago[1]) : COUNTS[ago[1]];
    if (count === undefined) return null;
    return shifted(ago[2], -count, day);
  }
  return null;
}

/** A day, week, month or year `count` of them away, named as precisely as it is known. */
function shifted(unit: string, count: number, day: Day): string {
  switch (unit) {
    case 'day':
      return formatDay(addDays(day, count));
    case 'week':
      return `the week of ${formatDay(weekStart(addDays(day, count * 7)))}`;
    case 'month':
      return monthName(day, count);
    default:
      return yearOf(day, count);
  }
}

function periodFor(which: string, unit: string, day: Day): string | null {
  const step = which === 'last' || which === 'past' ? -1 : which === 'this' ? 0 : 1;
  switch (unit) {
    case 'week':
      return `the week of ${formatDay(weekStart(addDays(day, step * 7)))}`;
    case 'weekend':
      return `the weekend of ${formatDay(addDays(weekStart(day), 5 + step * 7))}`;
    case 'month':
      return monthName(day, step);
    case 'year':
      return yearOf(day, step);
    case 'quarter':
      return quarterOf(day, step);
    default: {
      const target = weekdayIndex(unit);
      if (target === null) return null;
      const today = weekday(day);
      let offset: number;
      if (step === 0) offset = ((target + 6) % 7) - ((today + 6) % 7);
      else if (step > 0) offset = (target - today + 7) % 7 || 7;
      else offset = -((today - target + 7) % 7 || 7);
      return `${WEEKDAYS[target]} ${formatDay(addDays(day, offset))}`;
    }
  }
}

function capitalised(text: string, like: string): string {
  return /^[A-Z]/.test(like) ? `${text.charAt(0).toUpperCase()}${text.slice(1)}` : text;
}

/** The edits that make a line's relative dates absolute, as offsets into the line. `date` is `YYYY-MM-DD`. */
export function absoluteDateEdits(lineText: string, date: string): TextEdit[] {
  const day = parseDay(date);
  if (day === null) return [];
  return relativeDatesOn(lineText).map((hit) => {
    const absolute = absoluteFor(hit.text, day);
    const text = absolute === null ? `${hit.text} (as of ${date})` : capitalised(absolute, hit.text);
    return { start: hit.index, end: hit.index + hit.text.length, text };
  });
}
