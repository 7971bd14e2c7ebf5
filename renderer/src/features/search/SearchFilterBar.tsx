import type { ProjectSummary } from '../../../../shared/model/home';
import type { SearchHitKind } from '../../../../shared/model/search';
import { middleTruncate } from '../../components/middleTruncation';
import { setSearchFilters, type SearchFilters } from './searchStore';
import { projectKeyOf } from '../sessions/timelineFilter';

const ANY = '';
/** Project names in the select are cut in the middle past this many characters (options cannot be styled). */
const MAX_OPTION_CHARS = 60;

/** Which files a search reads: one project or all, memory or transcripts or both, and the days they last changed. */
export function SearchFilterBar({ filters, projects }: { readonly filters: SearchFilters; readonly projects: readonly ProjectSummary[] }) {
  const filtered = filters.project !== null || filters.kind !== null || filters.from !== null || filters.to !== null;
  return (
    <form className="timeline-filters search-filters" aria-label="Search filters" onSubmit={(event) => event.preventDefault()}>
      <label>
        Project
        <select
          value={filters.project ? projectKeyOf(filters.project) : ANY}
          onChange={(event) => {
            const project = projects.find((p) => projectKeyOf(p) === event.target.value);
            setSearchFilters({ project: project ? { configRoot: project.configRoot, slug: project.slug } : null });
          }}
        >
          <option value={ANY}>All projects</option>
          {projects.map((project) => (
            <option key={projectKeyOf(project)} value={projectKeyOf(project)} title={project.displayName}>
              {middleTruncate(project.displayName, MAX_OPTION_CHARS)}
            </option>
          ))}
        </select>
      </label>
      <label>
        Kind
        <select
          value={filters.kind ?? ANY}
          onChange={(event) => setSearchFilters({ kind: event.target.value === ANY ? null : (event.target.value as SearchHitKind) })}
        >
          <option value={ANY}>Everything</option>
          <option value="memory">Project memory</option>
          <option value="agent-memory">Agent memory</option>
          <option value="transcript">Transcripts</option>
          <option value="tool-output">Tool output</option>
          <option value="session-memory">Session memory</option>
        </select>
      </label>
      <label>
        Changed from
        <input type="date" value={filters.from ?? ''} onChange={(event) => setSearchFilters({ from: event.target.value || null })} />
      </label>
      <label>
        to
        <input type="date" value={filters.to ?? ''} onChange={(event) => setSearchFilters({ to: event.target.value || null })} />
      </label>
      {filtered ? (
        <button type="button" onClick={() => setSearchFilters({ project: null, kind: null, from: null, to: null })}>
          Clear filters
        </button>
      ) : null}
    </form>
  );
}
