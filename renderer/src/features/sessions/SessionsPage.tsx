import { useEffect, useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { ProjectSummary } from '../../../../shared/model/home';
import { useHomeStore } from '../../stores/homeStore';
import { useSessionMemoryWrites } from '../history/sessionMemoryWrites';
import { ActivityChart } from './ActivityChart';
import { CatalogStatus } from './CatalogStatus';
import { loadSessionCatalog, useSessionCatalogStore } from './sessionCatalogStore';
import { SessionTable } from './SessionTable';
import {
  distinctValues,
  filterIgnoringDates,
  filterSessions,
  projectKeyOf,
  projectNamesOf,
  type MemoryWriteCount,
  type TimelineFilter,
} from './timelineFilter';
import { TimelineFilters } from './TimelineFilters';
import { setTimelineFilter, useTimelineFilterStore } from './timelineFilterStore';
import './timeline.css';
import { countOf } from '../../../../shared/text/plural';
import { PendingState } from '../../components/PendingState';

/**
 * The timeline: every session of the chosen project (or of all projects), newest first, with filters and a
 * chart of activity per day that filters to a day when clicked. Served from the catalog cache at once.
 */
export function SessionsPage({ project }: { readonly project: ProjectSummary }) {
  const { sessions, loaded, building, error } = useSessionCatalogStore(
    useShallow((s) => ({ sessions: s.sessions, loaded: s.loaded, building: s.building, error: s.error })),
  );
  const { filter: baseFilter, allProjects } = useTimelineFilterStore(useShallow((s) => ({ filter: s.filter, allProjects: s.allProjects })));
  const projects = useHomeStore(useShallow((s) => s.home?.projects ?? []));

  useEffect(() => {
    void loadSessionCatalog();
  }, []);

  const filter: TimelineFilter = useMemo(
    () => ({ ...baseFilter, project: allProjects ? null : projectKeyOf(project) }),
    [baseFilter, allProjects, project],
  );
  const scoped = useMemo(() => filterIgnoringDates(sessions, { ...filter, branch: null, model: null }), [sessions, filter]);
  const memoryWrites = useSessionMemoryWrites();
  // Memory history's answer once it has loaded (the same one the transcript and History show), the catalog's until then.
  const writeCount: MemoryWriteCount | undefined = useMemo(
    () => (memoryWrites ? (session) => memoryWrites.get(session.sessionId)?.files.length ?? 0 : undefined),
    [memoryWrites],
  );
  const chartSessions = useMemo(() => filterIgnoringDates(sessions, filter, writeCount), [sessions, filter, writeCount]);
  const visible = useMemo(() => filterSessions(sessions, filter, writeCount), [sessions, filter, writeCount]);
  const branches = useMemo(() => distinctValues(scoped, (s) => s.gitBranches), [scoped]);
  const models = useMemo(() => distinctValues(scoped, (s) => s.models), [scoped]);
  const projectNames = useMemo(() => projectNamesOf(projects), [projects]);

  return (
    <section aria-label="Sessions" className="timeline">
      <header className="page-header timeline-header">
        <h1>Sessions</h1>
        <CatalogStatus />
      </header>
      <TimelineFilters filter={filter} projects={projects} branches={branches} models={models} />
      <ActivityChart
        sessions={chartSessions}
        from={filter.from}
        to={filter.to}
        onSelectDay={(day) => setTimelineFilter({ from: day, to: day })}
      />
      {error ? <p className="error">{error}</p> : null}
      {!loaded && !error ? <PendingState label="Reading the session list" /> : null}
      {loaded ? (
        <p className="muted small" aria-live="polite">
          {visible.length === sessions.length
            ? countOf(visible.length, 'session')
            : `${visible.length} of ${countOf(sessions.length, 'session')}`}
          {filter.from !== null && filter.from === filter.to ? ` on ${filter.from}` : ''}
        </p>
      ) : null}
      {loaded && visible.length === 0 ? <p className="muted">{building ? 'Reading transcripts…' : 'No sessions match.'}</p> : null}
      {loaded && visible.length > 0 ? (
        <SessionTable sessions={visible} showProject={allProjects} projectNames={projectNames} memoryWrites={memoryWrites} />
      ) : null}
    </section>
  );
}
