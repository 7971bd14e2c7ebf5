import { create } from 'zustand';
import { memoryFolderKey, sameMemoryFolder, type MemoryFolderRef } from '../../../../shared/memory/memoryFolderRef';
import type { MemoryReview } from '../../../../shared/memory/memoryReview';
import { api } from '../../api/connectApi';
import { onReconnected } from '../../api/connectionStore';
import { DEFAULT_FILTERS, type MemoryFilters } from './memoryFilters';

/** What the detail pane shows. */
export type DetailMode = 'view' | 'edit' | 'rename' | 'prune' | 'create';

export interface UndoOffer {
  readonly changeSetId: string;
  readonly message: string;
}

interface MemoryReviewState {
  readonly folder: MemoryFolderRef | null;
  readonly review: MemoryReview | null;
  readonly error: string | null;
  readonly loading: boolean;
  readonly selected: string | null;
  readonly mode: DetailMode;
  readonly filters: MemoryFilters;
  /** Files Claude Code (or anyone but us) changed while the page was open, with when. */
  readonly changed: Readonly<Record<string, number>>;
  /** Bumped on every change of the open folder, so an open file view reloads. */
  readonly revision: number;
  readonly undo: UndoOffer | null;
  readonly notice: string | null;
}

export const useMemoryReviewStore = create<MemoryReviewState>()(() => ({
  folder: null,
  review: null,
  error: null,
  loading: false,
  selected: null,
  mode: 'view',
  filters: DEFAULT_FILTERS,
  changed: {},
  revision: 0,
  undo: null,
  notice: null,
}));

const HIGHLIGHT_MS = 8000;

/** Loads the review of the folder now shown; answers for a folder no longer shown are dropped. */
export async function reloadReview(): Promise<void> {
  const { folder } = useMemoryReviewStore.getState();
  if (!folder) return;
  useMemoryReviewStore.setState({ loading: true });
  const result = await api.getMemoryReview({ folder });
  if (!sameMemoryFolder(useMemoryReviewStore.getState().folder, folder)) return;
  if (result.ok) useMemoryReviewStore.setState({ review: result.value, error: null, loading: false });
  else useMemoryReviewStore.setState({ error: result.error.message, loading: false });
}

export function openFolder(folder: MemoryFolderRef): void {
  const current = useMemoryReviewStore.getState().folder;
  if (current && memoryFolderKey(current) === memoryFolderKey(folder)) return;
  useMemoryReviewStore.setState({ folder, review: null, error: null, selected: null, mode: 'view', changed: {}, undo: null, notice: null });
  void reloadReview();
}

export function selectFile(relativePath: string | null): void {
  useMemoryReviewStore.setState({ selected: relativePath, mode: 'view' });
}

export function setMode(mode: DetailMode): void {
  useMemoryReviewStore.setState({ mode });
}

export function setFilters(change: Partial<MemoryFilters>): void {
  useMemoryReviewStore.setState((state) => ({ filters: { ...state.filters, ...change } }));
}

export function offerUndo(offer: UndoOffer | null): void {
  useMemoryReviewStore.setState({ undo: offer });
}

export function showNotice(notice: string | null): void {
  useMemoryReviewStore.setState({ notice });
}

api.onMemoryChanged((change) => {
  const state = useMemoryReviewStore.getState();
  if (!sameMemoryFolder(state.folder, change.folder)) return;
  if (!change.byApp) {
    const now = Date.now();
    const changed = Object.fromEntries(Object.entries(state.changed).filter(([, at]) => now - at < HIGHLIGHT_MS));
    useMemoryReviewStore.setState({ changed: { ...changed, [change.relativePath]: now } });
  }
  useMemoryReviewStore.setState((s) => ({ revision: s.revision + 1 }));
  void reloadReview();
});

/** Reloads the open file and the review (after a change made here, or to drop an edit). */
export function refreshAll(): void {
  useMemoryReviewStore.setState((s) => ({ revision: s.revision + 1 }));
  void reloadReview();
}

// Changes made while the connection was lost were never heard of: read the open folder again.
onReconnected(refreshAll);
