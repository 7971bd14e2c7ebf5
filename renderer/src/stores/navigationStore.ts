import { create } from 'zustand';
import type { ProjectRef } from '../../../shared/model/home';
import { nextLocation, PAGES, parseHash, sameProjectRef, toHash, type AppLocation, type Page, type TranscriptRoute } from './locationHash';

export { PAGES, type Page, type TranscriptRoute };

export const PAGE_TITLES: Readonly<Record<Page, string>> = {
  memory: 'Memory',
  sessions: 'Sessions',
  search: 'Search',
  dreams: 'Dreams',
  history: 'History',
  agents: 'Agents',
  settings: 'Settings',
  transcript: 'Transcript',
  warnings: 'Warnings',
};

/** The location lives in the URL hash so reloads, links and the back button keep it (see locationHash.ts). */
export const useNavigationStore = create<AppLocation>()(() => parseHash(window.location.hash));

export function navigate(change: Partial<AppLocation>): void {
  const next = nextLocation(useNavigationStore.getState(), change);
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
  readonly find?: string | null;
}): void {
  navigate({
    page: 'transcript',
    project: { configRoot: target.configRoot, slug: target.slug },
    transcript: { sessionId: target.sessionId, line: target.line ?? null, agentId: target.agentId ?? null, find: target.find ?? null },
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
    transcript: { sessionId: target.sessionId, line: target.line, agentId: target.agentId, find: null },
  });
  return `${window.location.origin}${window.location.pathname}${hash}`;
}

export function sameProject(a: ProjectRef | null, b: ProjectRef | null): boolean {
  return sameProjectRef(a, b);
}
