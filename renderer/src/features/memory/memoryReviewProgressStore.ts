import { create } from 'zustand';
import { memoryFolderKey, type MemoryFolderRef } from '../../../../shared/memory/memoryFolderRef';
import type { MemoryReviewProgress } from '../../../../shared/memory/memoryReviewProgress';
import { api } from '../../api/connectApi';

interface ReviewProgressState {
  /** The latest progress of each folder's review, by folder key. */
  readonly byFolder: Readonly<Record<string, MemoryReviewProgress>>;
}

/** How far the engine got with each memory folder it is reading, so a slow first open shows it. */
export const useMemoryReviewProgress = create<ReviewProgressState>()(() => ({ byFolder: {} }));

/** Forgets what an earlier review of the folder reported, so a new wait starts from nothing. */
export function forgetReviewProgress(folder: MemoryFolderRef): void {
  const key = memoryFolderKey(folder);
  useMemoryReviewProgress.setState((state) => {
    if (!(key in state.byFolder)) return state;
    const { [key]: _earlier, ...others } = state.byFolder;
    return { byFolder: others };
  });
}

api.onMemoryReviewProgress((progress) =>
  useMemoryReviewProgress.setState((state) => ({ byFolder: { ...state.byFolder, [memoryFolderKey(progress.folder)]: progress } })),
);
