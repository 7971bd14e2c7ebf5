import { create } from 'zustand';
import type { UnreviewedDreamCount } from '../../../../shared/history/historyRequestSchemas';
import { CHANGE_CAUSES, type ChangeCause, type ReconstructionStatus } from '../../../../shared/history/historyModel';
import { api } from '../../api/connectApi';

export type HistoryScope = 'project' | 'all';
export type DiffLayout = 'side-by-side' | 'inline';

interface HistoryState {
  /** Bumped whenever the engine reports new history: views keyed on it fetch again. */
  readonly revision: number;
  readonly scope: HistoryScope;
  readonly causes: readonly ChangeCause[];
  readonly selectedId: string | null;
  /** A file of the selected change set whose versions are shown instead of the change set. */
  readonly fileView: { readonly changeSetId: string; readonly path: string } | null;
  readonly layout: DiffLayout;
  readonly unreviewed: readonly UnreviewedDreamCount[];
  /** The reconstruction of what came before history started, while it runs (from its progress events). */
  readonly reconstruction: ReconstructionStatus | null;
}

export const useHistoryStore = create<HistoryState>()(() => ({
  revision: 0,
  scope: 'project',
  causes: CHANGE_CAUSES,
  selectedId: null,
  fileView: null,
  layout: 'side-by-side',
  unreviewed: [],
  reconstruction: null,
}));

export function setScope(scope: HistoryScope): void {
  useHistoryStore.setState({ scope, selectedId: null, fileView: null });
}

export function toggleCause(cause: ChangeCause): void {
  const { causes } = useHistoryStore.getState();
  useHistoryStore.setState({
    causes: causes.includes(cause) ? causes.filter((c) => c !== cause) : CHANGE_CAUSES.filter((c) => c === cause || causes.includes(c)),
  });
}

export function selectChangeSet(id: string | null): void {
  useHistoryStore.setState({ selectedId: id, fileView: null });
}

export function showFileVersions(changeSetId: string, path: string): void {
  useHistoryStore.setState({ fileView: { changeSetId, path } });
}

export function closeFileVersions(): void {
  useHistoryStore.setState({ fileView: null });
}

export function setLayout(layout: DiffLayout): void {
  useHistoryStore.setState({ layout });
}

export async function loadUnreviewedDreams(): Promise<void> {
  const result = await api.countUnreviewedDreams({});
  if (result.ok) useHistoryStore.setState({ unreviewed: result.value });
}

/** History changed somewhere (a recorded change, a rollback, a review): every history view fetches again. */
export function historyChanged(): void {
  useHistoryStore.setState((s) => ({ revision: s.revision + 1 }));
  void loadUnreviewedDreams();
}

api.onHistoryChanged(() => historyChanged());
api.onHistoryReconstruction((status) => {
  const wasRunning = useHistoryStore.getState().reconstruction?.state === 'running';
  useHistoryStore.setState({ reconstruction: status });
  if (wasRunning && status.state !== 'running') historyChanged();
});
void loadUnreviewedDreams();
