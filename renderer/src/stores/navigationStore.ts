import { create } from 'zustand';
import type { ProjectRef } from '../../../shared/model/home';

export const PAGES = ['memory', 'sessions', 'dreams', 'agents', 'settings'] as const;
export type Page = (typeof PAGES)[number];

export const PAGE_TITLES: Readonly<Record<Page, string>> = {
  memory: 'Memory',
  sessions: 'Sessions',
  dreams: 'Dreams',
  agents: 'Agents',
  settings: 'Settings',
};

interface NavigationState {
  readonly page: Page;
  readonly project: ProjectRef | null;
}

/** The location lives in the URL hash so reloads and the back button keep it. */
function parseHash(hash: string): NavigationState {
  const params = new URLSearchParams(hash.replace(/^#\/?/, ''));
  const page = PAGES.find((p) => p === params.get('page')) ?? 'memory';
  const configRoot = params.get('root');
  const slug = params.get('project');
  return { page, project: configRoot && slug ? { configRoot, slug } : null };
}

function toHash(state: NavigationState): string {
  const params = new URLSearchParams({ page: state.page });
  if (state.project) {
    params.set('root', state.project.configRoot);
    params.set('project', state.project.slug);
  }
  return `#/${params.toString()}`;
}

export const useNavigationStore = create<NavigationState>()(() => parseHash(window.location.hash));

export function navigate(change: Partial<NavigationState>): void {
  const next = { ...useNavigationStore.getState(), ...change };
  useNavigationStore.setState(next);
  const hash = toHash(next);
  if (window.location.hash !== hash) window.history.pushState(null, '', hash);
}

window.addEventListener('popstate', () => useNavigationStore.setState(parseHash(window.location.hash)));

export function sameProject(a: ProjectRef | null, b: ProjectRef | null): boolean {
  return a !== null && b !== null && a.configRoot === b.configRoot && a.slug === b.slug;
}
