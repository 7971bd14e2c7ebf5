import { useShallow } from 'zustand/react/shallow';
import type { ProjectSummary } from '../../../../shared/model/home';
import { countOf } from '../../../../shared/text/plural';
import { moveFocusByArrows } from '../../components/listKeyboard';
import { MiddleTruncate } from '../../components/MiddleTruncate';
import { RelativeTime } from '../../components/RelativeTime';
import { useHomeStore } from '../../stores/homeStore';
import { navigate, sameProject, useNavigationStore } from '../../stores/navigationStore';
import { UnreviewedDreamsBadge } from '../history/UnreviewedDreamsBadge';
import { PendingProposalsBadge } from './InboxCount';

function ProjectItem({ project, selected }: { readonly project: ProjectSummary; readonly selected: boolean }) {
  return (
    <li>
      <button
        type="button"
        className={`project-item${selected ? ' selected' : ''}`}
        aria-current={selected ? 'true' : undefined}
        onClick={() => navigate({ project: { configRoot: project.configRoot, slug: project.slug } })}
        title={project.path ?? `Real path unknown (folder ${project.slug})`}
      >
        <MiddleTruncate className="project-path" text={project.displayName} />
        {project.path === null ? <span className="badge muted-badge">path unknown</span> : null}
        <span className="project-meta">
          {countOf(project.sessionCount, 'session')} · {countOf(project.memoryFileCount, 'memory', 'memories')} ·{' '}
          <RelativeTime iso={project.lastActivity} />
        </span>
        <UnreviewedDreamsBadge configRoot={project.configRoot} slug={project.slug} />
        <PendingProposalsBadge configRoot={project.configRoot} slug={project.slug} />
      </button>
      {project.warnings.length > 0 ? (
        <button
          type="button"
          className="badge warn warnings-badge"
          title="What each warning means and how to fix it"
          onClick={() => navigate({ project: { configRoot: project.configRoot, slug: project.slug }, page: 'warnings' })}
        >
          {countOf(project.warnings.length, 'warning')}
        </button>
      ) : null}
    </li>
  );
}

/** Every project of every config root, newest activity first. */
export function ProjectSidebar() {
  const projects = useHomeStore(useShallow((s) => s.home?.projects ?? []));
  const discovering = useHomeStore((s) => s.home?.discovering ?? null);
  const selected = useNavigationStore((s) => s.project);
  return (
    <nav className="sidebar" aria-label="Projects">
      <h2 className="sidebar-title">Projects</h2>
      {discovering ? (
        <div className="discovery-status" role="status" aria-label="Finding projects">
          <progress max={discovering.projectsFound} value={discovering.projectsRead} aria-label="Project folders read" />
          <span className="muted small">
            Finding projects: {discovering.projectsRead} of {countOf(discovering.projectsFound, 'folder')} read
          </span>
        </div>
      ) : null}
      {projects.length === 0 && !discovering ? <p className="muted">No projects yet.</p> : null}
      <ul className="project-list" onKeyDown={(event) => moveFocusByArrows(event, '.project-item')}>
        {projects.map((project) => (
          <ProjectItem key={`${project.configRoot}\0${project.slug}`} project={project} selected={sameProject(selected, project)} />
        ))}
      </ul>
    </nav>
  );
}
