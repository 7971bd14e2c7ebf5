import { create } from 'zustand';
import {
  FIRST_LISTING_PAGE,
  LATER_LISTING_PAGE,
  type CatalogProgress,
  type SessionCatalogEntry,
  type SessionKey,
  type SessionUpdate,
} from '../../../../shared/model/catalog';
import { api } from '../../api/connectApi';
import { onReconnected } from '../../api/connectionStore';

interface CatalogState {
  /** Every known session, newest first. */
  readonly sessions: readonly SessionCatalogEntry[];
  /** The first page is in: the newest sessions can be shown. */
  readonly loaded: boolean;
  /** How many sessions the listing holds, while its later pages are still on their way; null once all are in. */
  readonly listingTotal: number | null;
  readonly building: boolean;
  readonly progress: CatalogProgress | null;
  readonly error: string | null;
}

export const useSessionCatalogStore = create<CatalogState>()(() => ({
  sessions: [],
  loaded: false,
  listingTotal: null,
  building: false,
  progress: null,
  error: null,
}));

export function sessionKey(session: SessionKey): string {
  return `${session.configRoot}\0${session.slug}\0${session.sessionId}`;
}

function newestFirst(a: SessionCatalogEntry, b: SessionCatalogEntry): number {
  return (b.lastTimestamp ?? b.mtime).localeCompare(a.lastTimestamp ?? a.mtime) || a.sessionId.localeCompare(b.sessionId);
}

let byKey = new Map<string, SessionCatalogEntry>();
/**
 * Sessions an update named since the listing being loaded was asked for: the update is newer than the listing, so its
 * pages must not bring back what the update replaced or removed. Null when no listing is on its way.
 */
let touchedDuringLoad: Set<string> | null = null;
let loading: Promise<void> | null = null;
/** Counts loads, so a load overtaken by a newer one (after a reconnection) stops taking pages. */
let loadGeneration = 0;
/** A load has started and its first page is not in yet: what is shown stays as it was until then. */
let awaitingFirstPage = false;

function applyUpdate(update: SessionUpdate): void {
  for (const entry of update.updated) {
    byKey.set(sessionKey(entry), entry);
    touchedDuringLoad?.add(sessionKey(entry));
  }
  for (const key of update.removed) {
    byKey.delete(sessionKey(key));
    touchedDuringLoad?.add(sessionKey(key));
  }
}

function addPage(sessions: readonly SessionCatalogEntry[]): void {
  for (const entry of sessions) {
    const key = sessionKey(entry);
    if (!touchedDuringLoad?.has(key)) byKey.set(key, entry);
  }
}

function publish(): void {
  useSessionCatalogStore.setState({ sessions: [...byKey.values()].sort(newestFirst) });
}

/** Loads the catalog once (the engine answers from its cache and refreshes in the background). */
export function loadSessionCatalog(): Promise<void> {
  loading ??= loadPages(++loadGeneration, 1);
  return loading;
}

/** `restarts`: how many times a listing the engine no longer keeps (too many windows loading at once) is asked for anew. */
async function loadPages(generation: number, restarts: number): Promise<void> {
  // What is shown now stays if the first page cannot be had (after a reconnection, say).
  const shown = byKey;
  byKey = new Map();
  touchedDuringLoad = new Set();
  awaitingFirstPage = true;
  const first = await api.getSessionCatalog({ limit: FIRST_LISTING_PAGE });
  if (generation !== loadGeneration) return;
  awaitingFirstPage = false;
  if (!first.ok) {
    byKey = shown;
    touchedDuringLoad = null;
    useSessionCatalogStore.setState({ error: first.error.message });
    loading = null;
    return;
  }
  addPage(first.value.sessions);
  let listed = first.value.sessions.length;
  const { snapshot, total } = first.value;
  useSessionCatalogStore.setState({
    loaded: true,
    error: null,
    listingTotal: snapshot === null ? null : total,
    building: first.value.building,
    progress: first.value.progress,
  });
  publish();
  while (snapshot !== null && listed < total) {
    const page = await api.getSessionCatalog({ snapshot, offset: listed, limit: LATER_LISTING_PAGE });
    if (generation !== loadGeneration) return;
    if (!page.ok && page.error.code === 'NOT_FOUND' && restarts > 0) {
      loading = loadPages(++loadGeneration, restarts - 1);
      return;
    }
    if (!page.ok) {
      useSessionCatalogStore.setState({ error: `Only ${listed} of ${total} sessions could be listed: ${page.error.message}` });
      break;
    }
    if (page.value.sessions.length === 0) break;
    addPage(page.value.sessions);
    listed += page.value.sessions.length;
    publish();
  }
  touchedDuringLoad = null;
  useSessionCatalogStore.setState({ listingTotal: null });
}

export async function refreshSessionCatalog(): Promise<void> {
  useSessionCatalogStore.setState({ building: true });
  const result = await api.refreshSessionCatalog({});
  if (!result.ok) useSessionCatalogStore.setState({ error: result.error.message, building: false });
}

export async function cancelCatalogBuild(): Promise<void> {
  await api.cancelCatalogBuild({});
}

api.onSessionUpdated((update) => {
  const { loaded } = useSessionCatalogStore.getState();
  // Before any listing was asked for there is nothing to update; one on its way takes the update over its pages.
  if (!loaded && touchedDuringLoad === null) return;
  applyUpdate(update);
  if (loaded && !awaitingFirstPage) publish();
});

api.onCatalogProgress((progress) => useSessionCatalogStore.setState({ progress, building: progress.running }));

// Updates and progress were missed while the connection was lost: a catalog that was asked for is listed again.
onReconnected(() => {
  const { loaded, error } = useSessionCatalogStore.getState();
  if (!loaded && error === null) return;
  loading = null;
  void loadSessionCatalog();
});
