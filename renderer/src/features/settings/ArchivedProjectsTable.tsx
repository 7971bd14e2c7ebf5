import { formatByteSize } from '../../../../shared/archive/byteSizes';
import type { ArchivedProjectSummary } from '../../../../shared/model/archive';
import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useHomeStore } from '../../stores/homeStore';
import { day } from './archiveDay';
import { projectKeyOf, projectNamesOf } from '../sessions/timelineFilter';

export interface ArchivedProjectsTableProps {
  readonly projects: readonly ArchivedProjectSummary[];
  /** Deleting is off (read-only, or a write on its way). */
  readonly disabled: boolean;
  readonly onDelete: (project: ArchivedProjectSummary) => void;
}

/**
 * Each archived project: its path when the home still has it (the slug, which is all the archive keeps, beneath), its
 * sessions, how many Claude Code deleted, size, last activity, and deleting its archive.
 */
export function ArchivedProjectsTable({ projects, disabled, onDelete }: ArchivedProjectsTableProps) {
  const homeProjects = useHomeStore(useShallow((s) => s.home?.projects ?? []));
  const names = useMemo(() => projectNamesOf(homeProjects), [homeProjects]);
  if (projects.length === 0) return null;
  return (
    <table className="data-table" aria-label="Archived projects">
      <thead>
        <tr>
          <th>Project</th>
          <th>Sessions</th>
          <th>Deleted by Claude Code</th>
          <th>Size</th>
          <th>Last activity</th>
          <th />
        </tr>
      </thead>
      <tbody>
        {projects.map((project) => {
          const name = names.get(projectKeyOf(project));
          return (
            <tr key={projectKeyOf(project)} aria-label={project.slug}>
              <td>
                {name ? <div>{name}</div> : null}
                <code className="small">{project.slug}</code>
              </td>
              <td>{project.sessions}</td>
              <td>{project.deletedSessions}</td>
              <td>{formatByteSize(project.compressedBytes)}</td>
              <td>{day(project.newest)}</td>
              <td>
                <button
                  type="button"
                  disabled={disabled || project.transcriptsOnDisk}
                  title={
                    project.transcriptsOnDisk
                      ? 'Claude Code still has transcripts of this project; delete the project first'
                      : 'For a project you deleted on purpose'
                  }
                  onClick={() => onDelete(project)}
                >
                  Delete archive…
                </button>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
