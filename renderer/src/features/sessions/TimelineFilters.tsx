import type { ProjectSummary } from '../../../../shared/model/home';
import { navigate } from '../../stores/navigationStore';
import { projectKeyOf, type TimelineFilter } from './timelineFilter';
import { clearTimelineFilter, setAllProjects, setTimelineFilter } from './timelineFilterStore';

export interface TimelineFiltersProps {
  readonly filter: TimelineFilter;
  readonly projects: readonly ProjectSummary[];
  readonly branches: readonly string[];
  readonly models: readonly string[];
}

const ALL = '';

/** The timeline's filters: project, date range, branch, model, memory writes, compactions and text. */
export function TimelineFilters({ filter, projects, branches, models }: TimelineFiltersProps) {
  const chooseProject = (key: string): void => {
    if (key === ALL) return setAllProjects(true);
    const project = projects.find((p) => projectKeyOf(p) === key);
    if (!project) return;
    setAllProjects(false);
    navigate({ project: { configRoot: project.configRoot, slug: project.slug } });
  };
  const filtered =
    filter.from !== null ||
    filter.to !== null ||
    filter.branch !== null ||
    filter.model !== null ||
    filter.withMemoryWrites ||
    filter.withCompactions ||
    filter.text !== '';
  return (
    <form className="timeline-filters" aria-label="Filters" onSubmit={(event) => event.preventDefault()}>
      <label>
        Project
        <select value={filter.project ?? ALL} onChange={(event) => chooseProject(event.target.value)}>
          <option value={ALL}>All projects</option>
          {projects.map((project) => (
            <option key={projectKeyOf(project)} value={projectKeyOf(project)}>
              {project.displayName}
            </option>
          ))}
        </select>
      </label>
      <label>
        From
        <input type="date" value={filter.from ?? ''} onChange={(event) => setTimelineFilter({ from: event.target.value || null })} />
      </label>
      <label>
        To
        <input type="date" value={filter.to ?? ''} onChange={(event) => setTimelineFilter({ to: event.target.value || null })} />
      </label>
      <label>
        Branch
        <select value={filter.branch ?? ALL} onChange={(event) => setTimelineFilter({ branch: event.target.value || null })}>
          <option value={ALL}>Any branch</option>
          {branches.map((branch) => (
            <option key={branch} value={branch}>
              {branch}
            </option>
          ))}
        </select>
      </label>
      <label>
        Model
        <select value={filter.model ?? ALL} onChange={(event) => setTimelineFilter({ model: event.target.value || null })}>
          <option value={ALL}>Any model</option>
          {models.map((model) => (
            <option key={model} value={model}>
              {model}
            </option>
          ))}
        </select>
      </label>
      <label className="check">
        <input
          type="checkbox"
          checked={filter.withMemoryWrites}
          onChange={(event) => setTimelineFilter({ withMemoryWrites: event.target.checked })}
        />
        Wrote memory
      </label>
      <label className="check">
        <input
          type="checkbox"
          checked={filter.withCompactions}
          onChange={(event) => setTimelineFilter({ withCompactions: event.target.checked })}
        />
        Compacted
      </label>
      <label className="grow">
        Text
        <input
          type="search"
          placeholder="Title, branch, folder or session id"
          value={filter.text}
          onChange={(event) => setTimelineFilter({ text: event.target.value })}
        />
      </label>
      {filtered ? (
        <button type="button" onClick={clearTimelineFilter}>
          Clear filters
        </button>
      ) : null}
    </form>
  );
}
