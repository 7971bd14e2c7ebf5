/**
 * The app's location as a URL hash — page, project and what is selected on the page (a memory file, an agent, a
 * session) — so a link, a reload or the back button lands on the same thing. Pure: no window, so it is unit-tested.
 */
import type { ProjectRef } from '../../../shared/model/home';

export const PAGES = ['memory', 'sessions', 'search', 'dreams', 'history', 'agents', 'settings'] as const;
/** The tabs, plus pages reached by following a link (a session's transcript, the warnings of a project). */
export type Page = (typeof PAGES)[number] | 'transcript' | 'warnings';

/**
 * A session's transcript within the selected project; `line` scrolls to a line, `agentId` opens a sub-agent run, and
 * `find` finds a text in it (a search hit opens with its words marked, at its line).
 */
export interface TranscriptRoute {
  readonly sessionId: string;
  readonly line: number | null;
  readonly agentId: string | null;
  readonly find: string | null;
}

export interface AppLocation {
  readonly page: Page;
  readonly project: ProjectRef | null;
  readonly transcript: TranscriptRoute | null;
  /** The memory file open on the Memory page, or in the chosen agent's review on the Agents page. */
  readonly file: string | null;
  /** The agent memory folder chosen on the Agents page. */
  readonly agent: string | null;
}

/** Pages whose selection includes a memory file. */
const FILE_PAGES: readonly Page[] = ['memory', 'agents'];

function positiveInteger(value: string | null): number | null {
  if (value === null || !/^\d+$/.test(value)) return null;
  const number = Number(value);
  return Number.isSafeInteger(number) && number > 0 ? number : null;
}

/** Reads a location from a hash (`#/page=memory&root=…&project=…&file=…`); anything unknown or missing falls back. */
export function parseHash(hash: string): AppLocation {
  const params = new URLSearchParams(hash.replace(/^#\/?/, ''));
  const sessionId = params.get('session');
  const asked = params.get('page');
  const page: Page =
    asked === 'transcript' && sessionId ? 'transcript' : asked === 'warnings' ? 'warnings' : (PAGES.find((p) => p === asked) ?? 'memory');
  const configRoot = params.get('root');
  const slug = params.get('project');
  const transcript =
    page === 'transcript' && sessionId
      ? { sessionId, line: positiveInteger(params.get('line')), agentId: params.get('agent'), find: params.get('find') || null }
      : null;
  return {
    page,
    project: configRoot && slug ? { configRoot, slug } : null,
    transcript,
    file: FILE_PAGES.includes(page) ? params.get('file') || null : null,
    agent: page === 'agents' ? params.get('agent') || null : null,
  };
}

/** The hash of a location; a selection is only written for the page it belongs to. */
export function toHash(location: Omit<AppLocation, 'file' | 'agent'> & Partial<Pick<AppLocation, 'file' | 'agent'>>): string {
  const params = new URLSearchParams({ page: location.page });
  if (location.project) {
    params.set('root', location.project.configRoot);
    params.set('project', location.project.slug);
  }
  if (location.page === 'transcript' && location.transcript) {
    params.set('session', location.transcript.sessionId);
    if (location.transcript.line !== null) params.set('line', String(location.transcript.line));
    if (location.transcript.agentId !== null) params.set('agent', location.transcript.agentId);
    if (location.transcript.find) params.set('find', location.transcript.find);
  }
  if (location.page === 'agents' && location.agent) params.set('agent', location.agent);
  if (FILE_PAGES.includes(location.page) && location.file) params.set('file', location.file);
  return `#/${params.toString()}`;
}

/**
 * The location after a change: a selection belongs to the page and folder it was made in, so moving to another page,
 * project or agent drops it unless the change names a new one; a transcript asked for in another project opens that
 * project's sessions instead.
 */
export function nextLocation(current: AppLocation, change: Partial<AppLocation>): AppLocation {
  let next: AppLocation = { ...current, ...change };
  if (next.page === 'transcript' && change.project && !change.transcript && !sameProjectRef(change.project, current.project)) {
    next = { ...next, page: 'sessions' };
  }
  const pageChanged = next.page !== current.page;
  const projectChanged = (next.project !== null || current.project !== null) && !sameProjectRef(next.project, current.project);
  const agentChanged = next.agent !== current.agent;
  if (change.agent === undefined && pageChanged) next = { ...next, agent: null };
  if (change.file === undefined && (pageChanged || (projectChanged && next.page !== 'agents') || agentChanged))
    next = { ...next, file: null };
  return next;
}

export function sameProjectRef(a: ProjectRef | null, b: ProjectRef | null): boolean {
  return a !== null && b !== null && a.configRoot === b.configRoot && a.slug === b.slug;
}
