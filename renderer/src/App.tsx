import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { AgentsPage } from './features/agents/AgentsPage';
import { DreamsPage } from './features/dreams/DreamsPage';
import { HistoryPage } from './features/history/HistoryPage';
import { EmptyHome } from './features/home/EmptyHome';
import { MemoryPage } from './features/memory/MemoryPage';
import { SearchPage } from './features/search/SearchPage';
import { SessionsPage } from './features/sessions/SessionsPage';
import { SettingsPage } from './features/settings/SettingsPage';
import { TranscriptPage } from './features/transcript/TranscriptPage';
import { InboxCount } from './features/sidebar/InboxCount';
import { ProjectSidebar } from './features/sidebar/ProjectSidebar';
import { assertNever } from '../../shared/result';
import { useHomeStore } from './stores/homeStore';
import { navigate, PAGE_TITLES, PAGES, sameProject, useNavigationStore, type Page } from './stores/navigationStore';
import type { ProjectSummary } from '../../shared/model/home';

function ProjectPage({ page, project }: { readonly page: Page; readonly project: ProjectSummary | null }) {
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
    case 'memory':
    case 'sessions':
    case 'dreams':
    case 'history':
      if (!project) return <p className="muted">Choose a project on the left.</p>;
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
  const { page, selected } = useNavigationStore(useShallow((s) => ({ page: s.page, selected: s.project })));
  const project = home?.projects.find((p) => sameProject(selected, p)) ?? null;

  useEffect(() => {
    // Select the most recently active project when none (or a vanished one) is selected.
    if (home && home.projects.length > 0 && !project) {
      const first = home.projects[0];
      navigate({ project: { configRoot: first.configRoot, slug: first.slug } });
    }
  }, [home, project]);

  useEffect(() => {
    document.getElementById('root')?.setAttribute('data-app-state', home ? 'ready' : error ? 'error' : 'loading');
  }, [home, error]);

  if (error && !home) return <p className="error">Cannot load: {error}</p>;
  if (!home) return <p className="muted">Loading…</p>;
  if (home.empty) return <EmptyHome />;
  return (
    <div className="layout">
      <aside className="side">
        <div className="brand">
          Claude Memory Manager
          {home.demo ? <span className="badge">demo</span> : null}
          {home.readOnly ? <span className="badge">read-only</span> : null}
        </div>
        <InboxCount />
        <ProjectSidebar />
      </aside>
      <main className="main">
        <nav className="tabs" aria-label="Pages">
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
        </nav>
        {project && page !== 'agents' && page !== 'settings' && page !== 'search' ? (
          <p className="project-heading" aria-label="Selected project">
            {project.displayName}
            {project.path === null ? <span className="badge muted-badge">path unknown</span> : null}
          </p>
        ) : null}
        <ProjectPage page={page} project={project} />
      </main>
    </div>
  );
}
