import type { SessionCatalogEntry, TokenTotals } from '../../../../shared/model/catalog';

/** What the timeline shows; every field narrows the list, `null`/`false`/'' means "any". */
export interface TimelineFilter {
  /** `configRoot\0slug` of one project, or null for every project. */
  readonly project: string | null;
  /** Local calendar days, `YYYY-MM-DD`, inclusive. */
  readonly from: string | null;
  readonly to: string | null;
  readonly branch: string | null;
  readonly model: string | null;
  readonly withMemoryWrites: boolean;
  readonly withCompactions: boolean;
  readonly text: string;
}

export const EMPTY_FILTER: TimelineFilter = {
  project: null,
  from: null,
  to: null,
  branch: null,
  model: null,
  withMemoryWrites: false,
  withCompactions: false,
  text: '',
};

export function projectKeyOf(session: { readonly configRoot: string; readonly slug: string }): string {
  return `${session.configRoot}\0${session.slug}`;
}

/** Each project's display name by its `projectKeyOf`, for pages that name projects they only know by slug. */
export function projectNamesOf(
  projects: readonly { readonly configRoot: string; readonly slug: string; readonly displayName: string }[],
): ReadonlyMap<string, string> {
  return new Map(projects.map((project) => [projectKeyOf(project), project.displayName]));
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** The local calendar day a session belongs to: the day it started. */
export function sessionDay(session: SessionCatalogEntry): string {
  const date = new Date(session.firstTimestamp ?? session.lastTimestamp ?? session.mtime);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export function totalTokens(tokens: TokenTotals): number {
  return tokens.input + tokens.output + tokens.cacheCreation + tokens.cacheRead;
}

/** The session's tokens with its sub-agents', cache included. */
export function sessionTokens(session: SessionCatalogEntry): number {
  return session.subagents.reduce((sum, agent) => sum + totalTokens(agent.tokens), totalTokens(session.tokens));
}

function matchesText(session: SessionCatalogEntry, needle: string): boolean {
  if (needle === '') return true;
  const haystack = [session.title ?? '', session.sessionId, session.slug, ...session.cwds, ...session.gitBranches].join('\n').toLowerCase();
  return haystack.includes(needle);
}

/** How many memory files a session changed: the catalog's count of its Write/Edit calls unless a better source is given. */
export type MemoryWriteCount = (session: SessionCatalogEntry) => number;

const catalogWrites: MemoryWriteCount = (session) => session.memoryWrites.length;

/** Every filter except the date range: the chart shows this set, so picking a day does not empty it. */
export function filterIgnoringDates(
  sessions: readonly SessionCatalogEntry[],
  filter: TimelineFilter,
  memoryWrites: MemoryWriteCount = catalogWrites,
): SessionCatalogEntry[] {
  const needle = filter.text.trim().toLowerCase();
  return sessions.filter(
    (session) =>
      (filter.project === null || projectKeyOf(session) === filter.project) &&
      (filter.branch === null || session.gitBranches.includes(filter.branch)) &&
      (filter.model === null || session.models.includes(filter.model)) &&
      (!filter.withMemoryWrites || memoryWrites(session) > 0) &&
      (!filter.withCompactions || session.compactions.length > 0) &&
      matchesText(session, needle),
  );
}

export function filterSessions(
  sessions: readonly SessionCatalogEntry[],
  filter: TimelineFilter,
  memoryWrites: MemoryWriteCount = catalogWrites,
): SessionCatalogEntry[] {
  return filterIgnoringDates(sessions, filter, memoryWrites).filter((session) => {
    if (filter.from === null && filter.to === null) return true;
    const day = sessionDay(session);
    return (filter.from === null || day >= filter.from) && (filter.to === null || day <= filter.to);
  });
}

export interface DayActivity {
  readonly day: string;
  readonly sessions: number;
  readonly tokens: number;
}

/** Sessions and tokens per day, every day from the first to the last (empty days included), oldest first. */
export function activityByDay(sessions: readonly SessionCatalogEntry[], maxDays: number): DayActivity[] {
  const byDay = new Map<string, { sessions: number; tokens: number }>();
  for (const session of sessions) {
    const day = sessionDay(session);
    const entry = byDay.get(day) ?? { sessions: 0, tokens: 0 };
    entry.sessions++;
    entry.tokens += sessionTokens(session);
    byDay.set(day, entry);
  }
  if (byDay.size === 0) return [];
  const days = [...byDay.keys()].sort();
  const last = new Date(`${days[days.length - 1]}T12:00:00`);
  const first = new Date(`${days[0]}T12:00:00`);
  const out: DayActivity[] = [];
  for (let date = new Date(last); date >= first && out.length < maxDays; date.setDate(date.getDate() - 1)) {
    const day = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
    const entry = byDay.get(day);
    out.push({ day, sessions: entry?.sessions ?? 0, tokens: entry?.tokens ?? 0 });
  }
  return out.reverse();
}

/** Distinct values of one list field across sessions, most used first. */
export function distinctValues(
  sessions: readonly SessionCatalogEntry[],
  pick: (session: SessionCatalogEntry) => readonly string[],
): string[] {
  const counts = new Map<string, number>();
  for (const session of sessions) for (const value of pick(session)) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([value]) => value);
}
