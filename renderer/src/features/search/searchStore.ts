import { create } from 'zustand';
import type { SearchDoneEvent, SearchHit, SearchHitsEvent } from '../../../../shared/model/search';
import { api } from '../../api/connectApi';

export const SEARCH_LIMIT = 500;

interface SearchState {
  readonly query: string;
  readonly searchId: string | null;
  readonly hits: readonly SearchHit[];
  readonly running: boolean;
  readonly done: SearchDoneEvent | null;
  readonly error: string | null;
}

/** Outside the page, so opening a hit and coming back shows the same results. */
export const useSearchStore = create<SearchState>()(() => ({
  query: '',
  searchId: null,
  hits: [],
  running: false,
  done: null,
  error: null,
}));

/** Events that arrive before `startSearch` has answered with their id. */
let early: (SearchHitsEvent | SearchDoneEvent)[] = [];
let awaitingId = false;

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
  useSearchStore.setState({ query, searchId: null, hits: [], running: true, done: null, error: null });
  early = [];
  awaitingId = true;
  const result = await api.startSearch({ query: trimmed, limit: SEARCH_LIMIT, includeRequestRecords });
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
