import { create } from 'zustand';
import type { ProjectRef } from '../../../shared/model/home';

export const PAGES = ['memory', 'sessions', 'search', 'dreams', 'history', 'agents', 'settings'] as const;
/** The tabs, plus pages reached by following a link (a session's transcript). */
export type Page = (typeof PAGES)[number] | 'transcript';

export const PAGE_TITLES: Readonly<Record<Page, string>> = {
  memory: 'Memory',
  sessions: 'Sessions',
  search: 'Search',
  dreams: 'Dreams',
  history: 'History',
  agents: 'Agents',
  settings: 'Settings',
  transcript: 'Transcript',
};

/** A session's transcript within the selected project; `line` scrolls to a line, `agentId` opens a sub-agent run. */
export interface TranscriptRoute {
  readonly sessionId: string;
  readonly line: number | null;
  readonly agentId: string | null;
}

interface NavigationState {
  readonly page: Page;
  readonly project: ProjectRef | null;
  readonly transcript: TranscriptRoute | null;
}

/** The location lives in the URL hash so reloads and the back button keep it. */
function parseHash(hash: string): NavigationState {
  const params = new URLSearchParams(hash.replace(/^#\/?/, ''));
  const sessionId = params.get('session');
  const page = params.get('page') === 'transcript' && sessionId ? 'transcript' : (PAGES.find((p) => p === params.get('page')) ?? 'memory');
  const configRoot = params.get('root');
  const slug = params.get('project');
  const line = Number(params.get('line'));
  const transcript = sessionId ? { sessionId, line: Number.isInteger(line) && line > 0 ? line : null, agentId: params.get('agent') } : null;
  return { page, project: configRoot && slug ? { configRoot, slug } : null, transcript };
}

function toHash(state: NavigationState): string {
  const params = new URLSearchParams({ page: state.page });
  if (state.project) {
    params.set('root', state.project.configRoot);
    params.set('project', state.project.slug);
  }
  if (state.page === 'transcript' && state.transcript) {
    params.set('session', state.transcript.sessionId);
    if (state.transcript.line !== null) params.set('line', String(state.transcript.line));
    if (state.transcript.agentId !== null) params.set('agent', state.transcript.agentId);
  }
  return `#/${params.toString()}`;
}

export const useNavigationStore = create<NavigationState>()(() => parseHash(window.location.hash));

export function navigate(change: Partial<NavigationState>): void {
  const current = useNavigationStore.getState();
  let next = { ...current, ...change };
  // A transcript belongs to its project: choosing another project goes to that project's sessions instead.
  if (next.page === 'transcript' && change.project && !change.transcript && !sameProject(change.project, current.project)) {
    next = { ...next, page: 'sessions' };
  }
  useNavigationStore.setState(next);
  const hash = toHash(next);
  if (window.location.hash !== hash) window.history.pushState(null, '', hash);
}

window.addEventListener('popstate', () => useNavigationStore.setState(parseHash(window.location.hash)));

/** Opens a session's transcript (from the timeline, a search hit, a memory's origin). */
export function openTranscript(target: {
  readonly configRoot: string;
  readonly slug: string;
  readonly sessionId: string;
  readonly line?: number | null;
  readonly agentId?: string | null;
}): void {
  navigate({
    page: 'transcript',
    project: { configRoot: target.configRoot, slug: target.slug },
    transcript: { sessionId: target.sessionId, line: target.line ?? null, agentId: target.agentId ?? null },
  });
}

/** The address of a transcript line (a message), to share or reopen: the page's URL with that location in the hash. */
export function transcriptLink(target: {
  readonly configRoot: string;
  readonly slug: string;
  readonly sessionId: string;
  readonly line: number;
  readonly agentId: string | null;
}): string {
  const hash = toHash({
    page: 'transcript',
    project: { configRoot: target.configRoot, slug: target.slug },
    transcript: { sessionId: target.sessionId, line: target.line, agentId: target.agentId },
  });
  return `${window.location.origin}${window.location.pathname}${hash}`;
}

export function sameProject(a: ProjectRef | null, b: ProjectRef | null): boolean {
  return a !== null && b !== null && a.configRoot === b.configRoot && a.slug === b.slug;
}
