import { create } from 'zustand';
import type { MemoryFix } from '../../../../shared/memory/fixes/memoryFix';
import { memoryFolderKey, sameMemoryFolder, type MemoryFolderRef } from '../../../../shared/memory/memoryFolderRef';
import type { MemoryReview } from '../../../../shared/memory/memoryReview';
import { api } from '../../api/connectApi';
import { navigate } from '../../stores/navigationStore';
import { DEFAULT_FILTERS, type MemoryFilters } from './memoryFilters';

/** What the detail pane shows. */
export type DetailMode = 'view' | 'edit' | 'rename' | 'prune' | 'create';

export interface UndoOffer {
  readonly changeSetId: string;
  readonly message: string;
}

/** Fixes being previewed: planned when the dialog opens, applied only when the person says so. */
export interface FixPreview {
  readonly title: string;
  readonly fixes: readonly MemoryFix[];
}

/**
 * The page a review sits on: a project's memory on the Memory page, an agent's on the Agents page. Each keeps its
 * own filters, so narrowing one list never narrows the other.
 */
export type ReviewPage = 'memory' | 'agents';

export function reviewPageOf(folder: MemoryFolderRef | null): ReviewPage {
  return folder?.kind === 'agent' ? 'agents' : 'memory';
}

interface MemoryReviewState {
  readonly folder: MemoryFolderRef | null;
  readonly review: MemoryReview | null;
  readonly error: string | null;
  readonly loading: boolean;
  readonly mode: DetailMode;
  readonly filters: Readonly<Record<ReviewPage, MemoryFilters>>;
  /** Files Claude Code (or anyone but us) changed while the page was open, with when. */
  readonly changed: Readonly<Record<string, number>>;
  /** Bumped on every change of the open folder, so an open file view reloads. */
  readonly revision: number;
  readonly undo: UndoOffer | null;
  readonly notice: string | null;
  readonly fix: FixPreview | null;
}

export const useMemoryReviewStore = create<MemoryReviewState>()(() => ({
  folder: null,
  review: null,
  error: null,
  loading: false,
  mode: 'view',
  filters: { memory: DEFAULT_FILTERS, agents: DEFAULT_FILTERS },
  changed: {},
  revision: 0,
  undo: null,
  notice: null,
  fix: null,
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
  // The selected file comes from the location (a link or a reload names it), so opening a folder keeps it.
  useMemoryReviewStore.setState({ folder, review: null, error: null, mode: 'view', changed: {}, undo: null, notice: null, fix: null });
  void reloadReview();
}

/** Opens a file of the review shown; the location names it, so a reload or a link lands on it. */
export function selectFile(relativePath: string | null): void {
  useMemoryReviewStore.setState({ mode: 'view' });
  navigate({ file: relativePath });
}

export function setMode(mode: DetailMode): void {
  useMemoryReviewStore.setState({ mode });
}

/** Changes the filters of the page the review now shown sits on. */
export function setFilters(change: Partial<MemoryFilters>): void {
  useMemoryReviewStore.setState((state) => {
    const page = reviewPageOf(state.folder);
    return { filters: { ...state.filters, [page]: { ...state.filters[page], ...change } } };
  });
}

export function previewFix(preview: FixPreview | null): void {
  useMemoryReviewStore.setState({ fix: preview });
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
