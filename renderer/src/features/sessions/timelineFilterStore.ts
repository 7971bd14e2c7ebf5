import { create } from 'zustand';
import { EMPTY_FILTER, type TimelineFilter } from './timelineFilter';

interface TimelineFilterState {
  /** Every filter but the project, which follows the project chosen in the sidebar unless `allProjects`. */
  readonly filter: Omit<TimelineFilter, 'project'>;
  readonly allProjects: boolean;
}

/** Kept outside the page, so going to a transcript and back keeps the timeline as it was. */
export const useTimelineFilterStore = create<TimelineFilterState>()(() => ({ filter: EMPTY_FILTER, allProjects: false }));

export function setTimelineFilter(change: Partial<Omit<TimelineFilter, 'project'>>): void {
  useTimelineFilterStore.setState((state) => ({ filter: { ...state.filter, ...change } }));
}

export function setAllProjects(allProjects: boolean): void {
  useTimelineFilterStore.setState({ allProjects });
}

export function clearTimelineFilter(): void {
  useTimelineFilterStore.setState({ filter: EMPTY_FILTER });
}
