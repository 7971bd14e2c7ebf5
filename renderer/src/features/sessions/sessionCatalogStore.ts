import { create } from 'zustand';
import type { CatalogProgress, SessionCatalogEntry, SessionKey, SessionUpdate } from '../../../../shared/model/catalog';
import { api } from '../../api/connectApi';
import { onReconnected } from '../../api/connectionStore';

interface CatalogState {
  /** Every known session, newest first. */
  readonly sessions: readonly SessionCatalogEntry[];
  readonly loaded: boolean;
  readonly building: boolean;
  readonly progress: CatalogProgress | null;
  readonly error: string | null;
}

export const useSessionCatalogStore = create<CatalogState>()(() => ({
  sessions: [],
  loaded: false,
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
/** Updates that arrive while the first listing is on its way; applied on top of it. */
let updatesDuringLoad: SessionUpdate[] | null = null;
let loading: Promise<void> | null = null;

function applyUpdate(update: SessionUpdate): void {
  for (const entry of update.updated) byKey.set(sessionKey(entry), entry);
  for (const key of update.removed) byKey.delete(sessionKey(key));
}

function publish(): void {
  useSessionCatalogStore.setState({ sessions: [...byKey.values()].sort(newestFirst) });
}

/** Loads the catalog once (the engine answers from its cache and refreshes in the background). */
export function loadSessionCatalog(): Promise<void> {
  loading ??= (async () => {
    updatesDuringLoad = [];
    const result = await api.getSessionCatalog({});
    const pending = updatesDuringLoad;
    updatesDuringLoad = null;
    if (!result.ok) {
      useSessionCatalogStore.setState({ error: result.error.message });
      loading = null;
      return;
    }
    byKey = new Map(result.value.sessions.map((entry) => [sessionKey(entry), entry]));
    for (const update of pending) applyUpdate(update);
    useSessionCatalogStore.setState({ loaded: true, error: null, building: result.value.building, progress: result.value.progress });
    publish();
  })();
  return loading;
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
  if (updatesDuringLoad) {
    updatesDuringLoad.push(update);
    return;
  }
  if (!useSessionCatalogStore.getState().loaded) return;
  applyUpdate(update);
  publish();
});

api.onCatalogProgress((progress) => useSessionCatalogStore.setState({ progress, building: progress.running }));

// Updates and progress were missed while the connection was lost: a catalog that was asked for is listed again.
onReconnected(() => {
  const { loaded, error } = useSessionCatalogStore.getState();
  if (!loaded && error === null) return;
  loading = null;
  void loadSessionCatalog();
});
