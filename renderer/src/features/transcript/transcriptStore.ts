import { create } from 'zustand';
import type { Result } from '../../../../shared/result';
import {
  LIVE_VIEW,
  type TranscriptFindHit,
  type TranscriptOutline,
  type TranscriptRow,
  type TranscriptViewSpec,
} from '../../../../shared/transcript/transcriptOutline';
import { api } from '../../api/connectApi';
import { firstHitIndex } from './firstHitIndex';
import { onReconnected } from '../../api/connectionStore';

export const PAGE_SIZE = 100;

export interface SessionKey {
  readonly configRoot: string;
  readonly slug: string;
  readonly sessionId: string;
}

export interface FindState {
  readonly query: string;
  readonly hits: readonly TranscriptFindHit[];
  readonly index: number;
  readonly truncated: boolean;
  readonly busy: boolean;
}

interface TranscriptState {
  readonly session: SessionKey | null;
  readonly view: TranscriptViewSpec;
  readonly outline: TranscriptOutline | null;
  readonly error: string | null;
  /** Loaded pages of rows, by page number (rows `page*PAGE_SIZE …`). */
  readonly pages: Readonly<Record<number, readonly TranscriptRow[]>>;
  /** A row to bring into view; the nonce makes a repeated jump to the same row count. */
  readonly scrollTarget: { readonly row: number; readonly nonce: number } | null;
  /** Keep the newest row in view as the session grows. */
  readonly follow: boolean;
  readonly find: FindState | null;
}

const initial: TranscriptState = {
  session: null,
  view: LIVE_VIEW,
  outline: null,
  error: null,
  pages: {},
  scrollTarget: null,
  follow: false,
  find: null,
};

export const useTranscriptStore = create<TranscriptState>()(() => initial);

/** Bumped whenever what is shown changes, so answers to older requests are dropped. */
let epoch = 0;
const requestedPages = new Set<number>();
let nonce = 0;

function sameSession(a: SessionKey | null, b: SessionKey): boolean {
  return a !== null && a.configRoot === b.configRoot && a.slug === b.slug && a.sessionId === b.sessionId;
}

function scrollTo(row: number | null): TranscriptState['scrollTarget'] {
  return row === null ? null : { row, nonce: ++nonce };
}

async function loadOutline(focusLine: number | null): Promise<TranscriptOutline | null> {
  const { session, view } = useTranscriptStore.getState();
  if (!session) return null;
  const mine = epoch;
  const result = await api.openTranscript({ ...session, view, focusLine });
  if (mine !== epoch) return null;
  if (!result.ok) {
    useTranscriptStore.setState({ error: result.error.message, outline: null });
    return null;
  }
  useTranscriptStore.setState({ outline: result.value, view: result.value.view, error: null });
  return result.value;
}

function resetRows(): void {
  epoch++;
  topLine = null;
  requestedPages.clear();
  useTranscriptStore.setState({ pages: {}, outline: null, error: null, find: null });
}

/** Opens a session's transcript (or a sub-agent run of it), optionally at a line. */
export async function openSessionTranscript(session: SessionKey, agentId: string | null, focusLine: number | null): Promise<void> {
  const state = useTranscriptStore.getState();
  if (sameSession(state.session, session) && state.view.agentId === agentId && focusLine === null && state.outline) return;
  resetRows();
  useTranscriptStore.setState({ session, view: { ...state.view, agentId, leafUuid: null }, scrollTarget: null, follow: false });
  const outline = await loadOutline(focusLine);
  if (outline?.focusRow != null) useTranscriptStore.setState({ scrollTarget: scrollTo(outline.focusRow) });
}

/** The line of the row at the top of the list, so a change of toggles can keep the reader where they were. */
let topLine: number | null = null;

export function noteTopRow(row: number): void {
  topLine = rowAt(useTranscriptStore.getState().pages, row)?.entry.line ?? topLine;
}

/** Shows another branch or set of toggles; lands on `scrollRow`, or by default where the reader was. */
export async function changeView(change: Partial<TranscriptViewSpec>, scrollRow: number | null = null): Promise<void> {
  const { view } = useTranscriptStore.getState();
  const keepLine = scrollRow === null && change.leafUuid === undefined ? topLine : null;
  resetRows();
  useTranscriptStore.setState({ view: { ...view, ...change }, scrollTarget: null, follow: false });
  const outline = await loadOutline(keepLine);
  if (outline) useTranscriptStore.setState({ scrollTarget: scrollTo(scrollRow ?? outline.focusRow ?? 0) });
}

export function scrollToRow(row: number): void {
  useTranscriptStore.setState({ scrollTarget: scrollTo(row) });
}

export function setFollow(follow: boolean): void {
  if (useTranscriptStore.getState().follow !== follow) useTranscriptStore.setState({ follow });
}

/** Makes sure the rows `first … last` are loaded (or on their way). */
export function ensureRows(first: number, last: number): void {
  const { session, view, outline } = useTranscriptStore.getState();
  if (!session || !outline) return;
  const lastRow = Math.min(last, outline.rowCount - 1);
  for (let page = Math.floor(Math.max(0, first) / PAGE_SIZE); page * PAGE_SIZE <= lastRow; page++) {
    if (requestedPages.has(page)) continue;
    requestedPages.add(page);
    const mine = epoch;
    void api.readTranscriptPage({ ...session, view, start: page * PAGE_SIZE, limit: PAGE_SIZE }).then((result) => {
      if (mine !== epoch) return;
      if (!result.ok) {
        requestedPages.delete(page);
        useTranscriptStore.setState({ error: result.error.message });
        return;
      }
      if (result.value.generation !== useTranscriptStore.getState().outline?.generation) {
        // The file was replaced under us: start over from a fresh outline.
        resetRows();
        void loadOutline(null);
        return;
      }
      useTranscriptStore.setState((s) => ({ pages: { ...s.pages, [page]: result.value.rows } }));
    });
  }
}

/**
 * The open session grew (or was replaced): fetch the new outline and only what changed. When the last loaded row is
 * still the same entry, the branch only grew and the loaded pages stay; otherwise everything is read again.
 */
export async function onTranscriptChanged(change: SessionKey & { readonly generation: number }): Promise<void> {
  const state = useTranscriptStore.getState();
  if (!sameSession(state.session, change) || !state.outline) return;
  const before = state.outline;
  const loadedPages = Object.keys(state.pages).map(Number);
  const lastPage = loadedPages.length > 0 ? Math.max(...loadedPages) : null;
  const lastRow = lastPage !== null ? state.pages[lastPage].at(-1) : undefined;
  const mine = epoch;
  const session = state.session as SessionKey;
  const result = await api.openTranscript({ ...session, view: state.view, focusLine: null });
  if (mine !== epoch || !result.ok) return;
  const outline = result.value;
  const grew = outline.generation === before.generation && outline.rowCount >= before.rowCount;
  let keep = grew;
  if (grew && lastPage !== null && lastRow !== undefined) {
    const check = await api.readTranscriptPage({ ...session, view: state.view, start: lastPage * PAGE_SIZE, limit: PAGE_SIZE });
    if (mine !== epoch) return;
    keep = check.ok && check.value.rows[lastRow.row - lastPage * PAGE_SIZE]?.entry.line === lastRow.entry.line;
    if (keep && check.ok) {
      useTranscriptStore.setState((s) => ({ pages: { ...s.pages, [lastPage]: check.value.rows } }));
    }
  }
  if (!keep) {
    epoch++;
    requestedPages.clear();
    useTranscriptStore.setState({ pages: {} });
  } else {
    // Pages past the old end were never complete: ask again for whatever is now there.
    for (const page of [...requestedPages])
      if (page * PAGE_SIZE + PAGE_SIZE > before.rowCount && page !== lastPage) requestedPages.delete(page);
  }
  const { follow } = useTranscriptStore.getState();
  useTranscriptStore.setState({
    outline,
    scrollTarget: follow && outline.rowCount > 0 ? scrollTo(outline.rowCount - 1) : useTranscriptStore.getState().scrollTarget,
  });
}

function settleFind(
  query: string,
  result: Result<{ hits: readonly TranscriptFindHit[]; truncated: boolean }>,
  nearLine: number | null,
): void {
  if (useTranscriptStore.getState().find?.query !== query) return;
  if (!result.ok) {
    useTranscriptStore.setState({ find: { query, hits: [], index: 0, truncated: false, busy: false }, error: result.error.message });
    return;
  }
  const { hits, truncated } = result.value;
  const index = firstHitIndex(hits, nearLine);
  useTranscriptStore.setState({
    find: { query, hits, index, truncated, busy: false },
    scrollTarget: hits.length > 0 ? scrollTo(hits[index].row) : useTranscriptStore.getState().scrollTarget,
  });
}

/** Finds `query` in the shown conversation; with `nearLine`, the hit on that line (or the next) is the one shown. */
export async function findInTranscript(query: string, nearLine: number | null = null): Promise<void> {
  const { session, view } = useTranscriptStore.getState();
  if (!session) return;
  if (query.trim() === '') {
    useTranscriptStore.setState({ find: null });
    return;
  }
  useTranscriptStore.setState({ find: { query, hits: [], index: 0, truncated: false, busy: true } });
  settleFind(query, await api.findInTranscript({ ...session, view, query, limit: 500 }), nearLine);
}

export function stepFind(delta: 1 | -1): void {
  const { find } = useTranscriptStore.getState();
  if (!find || find.hits.length === 0) return;
  const index = (find.index + delta + find.hits.length) % find.hits.length;
  useTranscriptStore.setState({ find: { ...find, index }, scrollTarget: scrollTo(find.hits[index].row) });
}

export function clearFind(): void {
  useTranscriptStore.setState({ find: null });
}

export function rowAt(pages: TranscriptState['pages'], row: number): TranscriptRow | undefined {
  return pages[Math.floor(row / PAGE_SIZE)]?.[row % PAGE_SIZE];
}

api.onTranscriptChanged((change) => void onTranscriptChanged(change));

// The open session may have grown while the connection was lost; pages that failed meanwhile are asked for again.
onReconnected(() => {
  const { session, outline } = useTranscriptStore.getState();
  if (!session) return;
  useTranscriptStore.setState({ error: null });
  if (outline) void onTranscriptChanged({ ...session, generation: outline.generation });
  else void loadOutline(null);
});
