import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { AgentsPage } from './features/agents/AgentsPage';
import { DreamsPage } from './features/dreams/DreamsPage';
import { HistoryPage } from './features/history/HistoryPage';
import { AccessPage } from './features/home/AccessPage';
import { EmptyHome } from './features/home/EmptyHome';
import { MemoryPage } from './features/memory/MemoryPage';
import { SearchPage } from './features/search/SearchPage';
import { SessionsPage } from './features/sessions/SessionsPage';
import { SettingsPage } from './features/settings/SettingsPage';
import { TranscriptPage } from './features/transcript/TranscriptPage';
import { InboxCount } from './features/sidebar/InboxCount';
import { ProjectSidebar } from './features/sidebar/ProjectSidebar';
import { WarningsPage } from './features/warnings/WarningsPage';
import { useAgentsStore } from './features/agents/agentsStore';
import { useInboxStore } from './features/dreams/inboxStore';
import { useSessionCatalogStore } from './features/sessions/sessionCatalogStore';
import { assertNever } from '../../shared/result';
import { MiddleTruncate } from './components/MiddleTruncate';
import { PendingState } from './components/PendingState';
import { CommandPalette } from './shell/CommandPalette';
import { openOverlay, useOverlayStore } from './shell/overlayStore';
import { MOD } from './shell/shortcuts';
import { ShortcutsDialog } from './shell/ShortcutsDialog';
import { useGlobalShortcuts } from './shell/useGlobalShortcuts';
import { useAccessStore } from './api/accessStore';
import { useHomeStore } from './stores/homeStore';
import { navigate, PAGE_TITLES, PAGES, sameProject, useNavigationStore, type Page } from './stores/navigationStore';
import { pageTitle } from './stores/pageTitle';
import { toggleSidebar, useUiPreferences } from './stores/uiPreferencesStore';
import type { HomeSnapshot, ProjectSummary } from '../../shared/model/home';

/** What is selected on the page, in words for the window title: a memory file, an agent (and its file), a session. */
function useSelectionName(): string | null {
  const { page, file, agent, transcript } = useNavigationStore(
    useShallow((s) => ({ page: s.page, file: s.file, agent: s.agent, transcript: s.transcript })),
  );
  const agentName = useAgentsStore((s) => {
    const found = agent ? s.agents?.find((a) => a.dir === agent) : undefined;
    return found ? `${found.agentType} (${found.scope})` : (agent?.split(/[/\\]/).pop() ?? null);
  });
  const sessionTitle = useSessionCatalogStore((s) =>
    transcript ? (s.sessions.find((session) => session.sessionId === transcript.sessionId)?.title ?? null) : null,
  );
  if (page === 'transcript' && transcript) return sessionTitle ?? `session ${transcript.sessionId.slice(0, 8)}`;
  if (page === 'agents') return [file, agentName].filter(Boolean).join(' · ') || null;
  return file;
}

/** Keeps the window's title on what it shows, so a tab, a bookmark or the window list names it. */
function useDocumentTitle(page: Page, project: ProjectSummary | null): void {
  const selection = useSelectionName();
  const waiting = useInboxStore((s) => s.waiting);
  const projectPage = page !== 'agents' && page !== 'settings' && page !== 'search';
  const title = pageTitle({ selection, page: PAGE_TITLES[page], project: projectPage ? (project?.displayName ?? null) : null, waiting });
  useEffect(() => {
    document.title = title;
  }, [title]);
}

function ProjectPage({
  page,
  project,
  home,
}: {
  readonly page: Page;
  readonly project: ProjectSummary | null;
  readonly home: HomeSnapshot;
}) {
  const transcript = useNavigationStore((s) => s.transcript);
  switch (page) {
    case 'transcript':
      if (!project || !transcript) return <p className="muted">Choose a session on the Sessions page.</p>;
      return <TranscriptPage project={project} route={transcript} />;
    case 'search':
      return <SearchPage />;
    case 'agents':
      return <AgentsPage />;
    case 'settings':
      return <SettingsPage />;
    case 'warnings':
      return <WarningsPage project={project} home={home} />;
    case 'memory':
    case 'sessions':
    case 'dreams':
    case 'history':
      if (!project) return <p className="muted">Choose a project in the sidebar.</p>;
      if (page === 'memory') return <MemoryPage project={project} />;
      if (page === 'sessions') return <SessionsPage project={project} />;
      if (page === 'history') return <HistoryPage project={project} />;
      return <DreamsPage project={project} />;
    default:
      return assertNever(page);
  }
}

export function App() {
  const { home, error } = useHomeStore(useShallow((s) => ({ home: s.home, error: s.error })));
  const accessProblem = useAccessStore((s) => s.problem);
  const { page, selected } = useNavigationStore(useShallow((s) => ({ page: s.page, selected: s.project })));
  const project = home?.projects.find((p) => sameProject(selected, p)) ?? null;
  useDocumentTitle(page, project);

  useEffect(() => {
    // Select the most recently active project when none (or a vanished one) is selected. While the home is still being
    // found, a chosen project not listed yet has not vanished: it may come with the next part.
    if (home && home.projects.length > 0 && !project && (selected === null || home.discovering === null)) {
      const first = home.projects[0];
      navigate({ project: { configRoot: first.configRoot, slug: first.slug } });
    }
  }, [home, project, selected]);

  useEffect(() => {
    const state = accessProblem ? 'no-access' : home ? 'ready' : error ? 'error' : 'loading';
    document.getElementById('root')?.setAttribute('data-app-state', state);
  }, [home, error, accessProblem]);

  if (accessProblem) return <AccessPage problem={accessProblem} />;
  if (error && !home) return <p className="error">Cannot load: {error}</p>;
  if (!home) return <PendingState label="Finding Claude Code's projects" />;
  if (home.empty) return <EmptyHome />;
  return <Shell project={project} page={page} home={home} />;
}

function Overlays() {
  const overlay = useOverlayStore((s) => s.overlay);
  if (overlay === 'palette') return <CommandPalette />;
  if (overlay === 'shortcuts') return <ShortcutsDialog />;
  return null;
}

/** The frame around every page: the project sidebar (collapsible), the page tabs, the palette and the page. */
function Shell({ project, page, home }: { readonly project: ProjectSummary | null; readonly page: Page; readonly home: HomeSnapshot }) {
  const collapsed = useUiPreferences((s) => s.sidebarCollapsed);
  useGlobalShortcuts();
  return (
    <div className={collapsed ? 'layout sidebar-collapsed' : 'layout'}>
      {collapsed ? null : (
        <aside className="side" id="project-sidebar" aria-label="Sidebar">
          <div className="brand">
            Claude Memory Manager
            {home.demo ? <span className="badge">demo</span> : null}
            {home.readOnly ? <span className="badge">read-only</span> : null}
          </div>
          <InboxCount />
          <ProjectSidebar />
        </aside>
      )}
      <main className="main">
        <header className="topbar">
          <button
            type="button"
            className="icon-button"
            aria-label={collapsed ? 'Show the project sidebar' : 'Hide the project sidebar'}
            aria-expanded={!collapsed}
            aria-controls="project-sidebar"
            title={`${collapsed ? 'Show' : 'Hide'} the project sidebar (${MOD}+B)`}
            onClick={toggleSidebar}
          >
            <span aria-hidden="true">{collapsed ? '»' : '«'}</span>
          </button>
          <div className="tabs" role="tablist" aria-label="Pages">
            {PAGES.map((p) => (
              <button
                key={p}
                type="button"
                role="tab"
                aria-selected={p === page}
                className={p === page ? 'tab active' : 'tab'}
                onClick={() => navigate({ page: p })}
              >
                {PAGE_TITLES[p]}
              </button>
            ))}
          </div>
          <button type="button" className="palette-button" aria-keyshortcuts="Control+K Meta+K" onClick={() => openOverlay('palette')}>
            Go to… <kbd>{MOD} K</kbd>
          </button>
        </header>
        {project && page !== 'agents' && page !== 'settings' && page !== 'search' ? (
          <p className="project-heading" aria-label="Selected project">
            <MiddleTruncate text={project.displayName} />
            {project.path === null ? <span className="badge muted-badge">path unknown</span> : null}
          </p>
        ) : null}
        <ProjectPage page={page} project={project} home={home} />
      </main>
      <Overlays />
    </div>
  );
}
