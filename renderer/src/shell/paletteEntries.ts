import type { MemoryFolderListing } from '../../../shared/model/memory';
import type { ProjectRef, ProjectSummary } from '../../../shared/model/home';
import type { SessionCatalogEntry } from '../../../shared/model/catalog';
import { openFolder, setMode } from '../features/memory/memoryReviewStore';
import { refreshHome } from '../stores/homeStore';
import { navigate, openTranscript, PAGE_TITLES, PAGES } from '../stores/navigationStore';
import { setCostDisplay, setTheme, toggleSidebar } from '../stores/uiPreferencesStore';
import type { PaletteEntry } from './commandRanking';
import { openOverlay } from './overlayStore';
import { MOD } from './shortcuts';

export interface PaletteSources {
  readonly projects: readonly ProjectSummary[];
  readonly selected: ProjectRef | null;
  readonly sessions: readonly SessionCatalogEntry[];
  /** The selected project's memory files, once listed. */
  readonly memory: MemoryFolderListing | null;
}

function showMemoryFile(project: ProjectRef, relativePath: string | null, create = false): void {
  // The folder is opened first so the page, when it mounts, keeps the mode instead of starting afresh; the file is
  // part of the location, so it goes in the same step as the page.
  openFolder({ kind: 'project', configRoot: project.configRoot, slug: project.slug });
  setMode(create ? 'create' : 'view');
  navigate({ page: 'memory', project, file: relativePath });
}

function actions(selected: ProjectRef | null): PaletteEntry[] {
  const list: PaletteEntry[] = [
    { id: 'action:sidebar', kind: 'action', label: 'Show or hide the project sidebar', shortcut: `${MOD}+B`, run: toggleSidebar },
    { id: 'action:shortcuts', kind: 'action', label: 'Show keyboard shortcuts', shortcut: '?', run: () => openOverlay('shortcuts') },
    {
      id: 'action:theme-system',
      kind: 'action',
      label: 'Theme: follow the system',
      keywords: 'dark light mode',
      run: () => setTheme('system'),
    },
    { id: 'action:theme-light', kind: 'action', label: 'Theme: light', keywords: 'mode', run: () => setTheme('light') },
    { id: 'action:theme-dark', kind: 'action', label: 'Theme: dark', keywords: 'mode', run: () => setTheme('dark') },
    {
      id: 'action:cost-api',
      kind: 'action',
      label: 'Show costs at API prices',
      keywords: 'dollars money tokens api key',
      run: () => setCostDisplay('api-prices'),
    },
    {
      id: 'action:cost-tokens',
      kind: 'action',
      label: 'Show tokens only (subscription)',
      keywords: 'dollars money cost plan',
      run: () => setCostDisplay('tokens-only'),
    },
    {
      id: 'action:refresh',
      kind: 'action',
      label: 'Look for new projects and sessions',
      keywords: 'refresh reload',
      run: () => void refreshHome(),
    },
  ];
  if (selected) {
    list.push({
      id: 'action:new-memory',
      kind: 'action',
      label: 'New memory',
      keywords: 'create add',
      run: () => showMemoryFile(selected, null, true),
    });
  }
  return list;
}

/** Everything the palette offers, in the order shown before anything is typed. */
export function paletteEntries({ projects, selected, sessions, memory }: PaletteSources): PaletteEntry[] {
  const pages: PaletteEntry[] = PAGES.map((page) => ({
    id: `page:${page}`,
    kind: 'page',
    label: PAGE_TITLES[page],
    keywords: 'page go',
    run: () => navigate({ page }),
  }));
  const projectEntries: PaletteEntry[] = projects.map((project) => ({
    id: `project:${project.configRoot}\0${project.slug}`,
    kind: 'project',
    label: project.displayName,
    detail: `${project.sessionCount} ${project.sessionCount === 1 ? 'session' : 'sessions'}`,
    keywords: project.slug,
    run: () => navigate({ project: { configRoot: project.configRoot, slug: project.slug } }),
  }));
  const names = new Map(projects.map((p) => [`${p.configRoot}\0${p.slug}`, p.displayName]));
  const memoryEntries: PaletteEntry[] =
    selected && memory
      ? memory.files.map((file) => ({
          id: `memory:${file.relativePath}`,
          kind: 'memory',
          label: file.name ?? file.relativePath,
          detail: file.relativePath,
          keywords: file.description ?? '',
          run: () => showMemoryFile(selected, file.relativePath),
        }))
      : [];
  const sessionEntries: PaletteEntry[] = sessions.map((session) => ({
    id: `session:${session.configRoot}\0${session.slug}\0${session.sessionId}`,
    kind: 'session',
    label: session.title ?? session.sessionId,
    detail: names.get(`${session.configRoot}\0${session.slug}`) ?? session.slug,
    keywords: `${session.sessionId} ${session.gitBranches.join(' ')}`,
    run: () => openTranscript({ configRoot: session.configRoot, slug: session.slug, sessionId: session.sessionId }),
  }));
  return [...pages, ...actions(selected), ...projectEntries, ...memoryEntries, ...sessionEntries];
}
