import { create } from 'zustand';
import type { ProjectRef } from '../../../../shared/model/home';
import type { SearchDoneEvent, SearchHit, SearchHitKind, SearchHitsEvent, SearchScope } from '../../../../shared/model/search';
import { api } from '../../api/connectApi';
import { onReconnected } from '../../api/connectionStore';

export const SEARCH_LIMIT = 500;

/** The search page's filters: which files to search. */
export interface SearchFilters {
  readonly project: ProjectRef | null;
  readonly kind: SearchHitKind | null;
  /** Local days, `YYYY-MM-DD`, inclusive: files last changed then. */
  readonly from: string | null;
  readonly to: string | null;
}

export const NO_FILTERS: SearchFilters = { project: null, kind: null, from: null, to: null };

/** A local day as the first (or last) moment of it, as the engine takes it. */
function dayBound(day: string | null, end: boolean): string | null {
  if (day === null) return null;
  const [year, month, date] = day.split('-').map(Number);
  return new Date(year, month - 1, date, end ? 23 : 0, end ? 59 : 0, end ? 59 : 0, end ? 999 : 0).toISOString();
}

export function scopeOf(filters: SearchFilters): SearchScope {
  return {
    projects: filters.project ? [filters.project] : null,
    kinds: filters.kind ? [filters.kind] : null,
    changedAfter: dayBound(filters.from, false),
    changedBefore: dayBound(filters.to, true),
  };
}

interface SearchState {
  readonly query: string;
  readonly filters: SearchFilters;
  readonly searchId: string | null;
  readonly hits: readonly SearchHit[];
  readonly running: boolean;
  readonly done: SearchDoneEvent | null;
  readonly error: string | null;
}

/** Outside the page, so opening a hit and coming back shows the same results. */
export const useSearchStore = create<SearchState>()(() => ({
  query: '',
  filters: NO_FILTERS,
  searchId: null,
  hits: [],
  running: false,
  done: null,
  error: null,
}));

/** Whether the last search also looked at API request records, to make it again the same way. */
let lastIncludeRequestRecords = false;

/** Events that arrive before `startSearch` has answered with their id. */
let early: (SearchHitsEvent | SearchDoneEvent)[] = [];
let awaitingId = false;
/** The newest `startSearch` call: the answer to an older one, overtaken, is dropped. */
let latest = 0;

function apply(event: SearchHitsEvent | SearchDoneEvent): void {
  const state = useSearchStore.getState();
  if (event.searchId !== state.searchId) return;
  if ('hits' in event) useSearchStore.setState({ hits: [...state.hits, ...event.hits] });
  else useSearchStore.setState({ running: false, done: event, error: event.error });
}

/** `includeRequestRecords`: also the lines Claude Code 2.1.3xx writes to record its API requests (left out by default). */
export async function startSearch(query: string, includeRequestRecords = false): Promise<void> {
  const trimmed = query.trim();
  if (trimmed === '') return;
  lastIncludeRequestRecords = includeRequestRecords;
  useSearchStore.setState({ query, searchId: null, hits: [], running: true, done: null, error: null });
  early = [];
  awaitingId = true;
  const scope = scopeOf(useSearchStore.getState().filters);
  const call = ++latest;
  const result = await api.startSearch({ query: trimmed, limit: SEARCH_LIMIT, scope, includeRequestRecords });
  if (call !== latest) return;
  awaitingId = false;
  if (!result.ok) {
    useSearchStore.setState({ running: false, error: result.error.message });
    return;
  }
  useSearchStore.setState({ searchId: result.value.searchId });
  const buffered = early;
  early = [];
  for (const event of buffered) apply(event);
}

/** Changes the filters; a search already made runs again with them. */
export function setSearchFilters(change: Partial<SearchFilters>): void {
  useSearchStore.setState((state) => ({ filters: { ...state.filters, ...change } }));
  const { query } = useSearchStore.getState();
  if (query.trim() !== '') void startSearch(query);
}

export async function stopSearch(): Promise<void> {
  const { searchId } = useSearchStore.getState();
  if (searchId) await api.cancelSearch({ searchId });
}

function receive(event: SearchHitsEvent | SearchDoneEvent): void {
  if (awaitingId && useSearchStore.getState().searchId === null) early.push(event);
  else apply(event);
}

api.onSearchHits(receive);
api.onSearchDone(receive);

// A search under way when the connection was lost lost its hits too: it is stopped and made again.
onReconnected(() => {
  const { running, searchId, query } = useSearchStore.getState();
  if (!running) return;
  if (searchId) void api.cancelSearch({ searchId });
  void startSearch(query, lastIncludeRequestRecords);
});
