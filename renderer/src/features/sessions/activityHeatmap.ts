import type { DayActivity } from './timelineFilter';

export const HEATMAP_RANGES = ['week', 'month', 'year'] as const;
export type HeatmapRange = (typeof HEATMAP_RANGES)[number];

/** One square of the heatmap: a day (month, year) or an hour of a day (week). */
export interface HeatCell {
  readonly key: string;
  /** The local day it belongs to (`YYYY-MM-DD`): choosing the cell filters the timeline to it. */
  readonly day: string;
  /** The hour, in the week view; null otherwise. */
  readonly hour: number | null;
  readonly column: number;
  readonly row: number;
  readonly sessions: number;
  readonly tokens: number;
  /** 0 for none, then 1–4 by quarters of the busiest cell. */
  readonly level: number;
}

export interface Heatmap {
  readonly cells: readonly HeatCell[];
  readonly columns: number;
  readonly rows: number;
  /** Labels along the top, at the column where each starts. */
  readonly columnLabels: readonly { readonly column: number; readonly text: string }[];
  /** A label per row (empty where none is drawn). */
  readonly rowLabels: readonly string[];
  readonly sessions: number;
}

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

export function localDay(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** Noon of a local day, so adding days never trips over a daylight-saving change. */
function noonOf(day: string): Date {
  return new Date(`${day}T12:00:00`);
}

function addDays(date: Date, days: number): Date {
  const out = new Date(date);
  out.setDate(out.getDate() + days);
  return out;
}

/** Monday = 0 … Sunday = 6. */
function weekdayOf(date: Date): number {
  return (date.getDay() + 6) % 7;
}

export function levelOf(value: number, max: number): number {
  if (value <= 0 || max <= 0) return 0;
  return Math.min(4, Math.max(1, Math.ceil((value / max) * 4)));
}

/**
 * Days as a calendar: a column per week (Monday on top), the last column holding `today`; 53 weeks for a year, 6 for
 * a month. Days after today are left out.
 */
export function dayHeatmap(days: readonly DayActivity[], range: 'month' | 'year', today: string): Heatmap {
  const byDay = new Map(days.map((d) => [d.day, d]));
  const weeks = range === 'year' ? 53 : 6;
  const end = noonOf(today);
  const start = addDays(end, -weekdayOf(end) - (weeks - 1) * 7);
  const raw: Omit<HeatCell, 'level'>[] = [];
  const columnLabels: { column: number; text: string }[] = [];
  for (let date = start, index = 0; date <= end; date = addDays(date, 1), index++) {
    const day = localDay(date);
    const column = Math.floor(index / 7);
    const activity = byDay.get(day);
    raw.push({ key: day, day, hour: null, column, row: index % 7, sessions: activity?.sessions ?? 0, tokens: activity?.tokens ?? 0 });
    // Labels where a month starts (and, for a month, where the view does).
    if (date.getDate() === 1 || (range === 'month' && index === 0)) {
      const text = range === 'year' ? MONTHS[date.getMonth()] : `${MONTHS[date.getMonth()]} ${date.getDate()}`;
      if (columnLabels.at(-1)?.column !== column) columnLabels.push({ column, text });
    }
  }
  const max = Math.max(0, ...raw.map((cell) => cell.sessions));
  return {
    cells: raw.map((cell) => ({ ...cell, level: levelOf(cell.sessions, max) })),
    columns: weeks,
    rows: 7,
    columnLabels,
    rowLabels: WEEKDAYS.map((name, i) => (i % 2 === 0 ? name : '')),
    sessions: raw.reduce((sum, cell) => sum + cell.sessions, 0),
  };
}

/** When a session started (its first timestamp) and its tokens: what the week view counts. */
export interface SessionStart {
  readonly start: Date;
  readonly tokens: number;
}

/** The last seven days (today last) as rows, their hours as columns: when sessions started. */
export function hourHeatmap(sessions: readonly SessionStart[], today: string): Heatmap {
  const end = noonOf(today);
  const days = Array.from({ length: 7 }, (_, i) => localDay(addDays(end, i - 6)));
  const rowOfDay = new Map(days.map((day, row) => [day, row]));
  const counts = new Map<string, { sessions: number; tokens: number }>();
  for (const session of sessions) {
    const row = rowOfDay.get(localDay(session.start));
    if (row === undefined) continue;
    const key = `${row}:${session.start.getHours()}`;
    const entry = counts.get(key) ?? { sessions: 0, tokens: 0 };
    entry.sessions++;
    entry.tokens += session.tokens;
    counts.set(key, entry);
  }
  const raw: Omit<HeatCell, 'level'>[] = [];
  days.forEach((day, row) => {
    for (let hour = 0; hour < 24; hour++) {
      const entry = counts.get(`${row}:${hour}`);
      raw.push({ key: `${day}T${pad(hour)}`, day, hour, column: hour, row, sessions: entry?.sessions ?? 0, tokens: entry?.tokens ?? 0 });
    }
  });
  const max = Math.max(0, ...raw.map((cell) => cell.sessions));
  return {
    cells: raw.map((cell) => ({ ...cell, level: levelOf(cell.sessions, max) })),
    columns: 24,
    rows: 7,
    columnLabels: [0, 6, 12, 18].map((hour) => ({ column: hour, text: `${pad(hour)}:00` })),
    rowLabels: days.map((day) => `${WEEKDAYS[weekdayOf(noonOf(day))]} ${Number(day.slice(8))}`),
    sessions: raw.reduce((sum, cell) => sum + cell.sessions, 0),
  };
}
