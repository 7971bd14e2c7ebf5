import type { MemoryFolderRef } from './memoryFolderRef';

/** Where the review of a memory folder stands: files read, then the findings over the whole folder, then done. */
export type MemoryReviewStep = 'reading' | 'checking' | 'done';

/** Pushed while a memory folder is reviewed, so a slow first open (a thousand topic files) shows how far it got. */
export interface MemoryReviewProgress {
  readonly folder: MemoryFolderRef;
  readonly step: MemoryReviewStep;
  /** Topic files read so far; all of them once the step is past reading. */
  readonly done: number;
  readonly total: number;
}
