import type { RequestArgs } from '../../../../shared/contract/requests';
import type { MemoryFixPlan } from '../../../../shared/memory/fixes/memoryFix';
import type { MemoryFolderRef } from '../../../../shared/memory/memoryFolderRef';
import type { MemoryChangeResult } from '../../../../shared/memory/memoryReview';
import type { Result } from '../../../../shared/result';
import { api } from '../../api/connectApi';
import { offerUndo, previewFix, refreshAll, selectFile, setMode } from './memoryReviewStore';

/**
 * Every change the Memory page makes to a memory folder. Each one, once written, offers its undo and shows the
 * folder again; the answer goes back to the component, which only shows why it failed.
 */

function offerUndoOf(change: MemoryChangeResult, message = change.description): void {
  offerUndo({ changeSetId: change.changeSetId, message });
}

/** Saves an edit of a file (its fields, its body or both) and goes back to viewing it. */
export async function saveMemory(args: RequestArgs<'saveMemoryFile'>): Promise<Result<MemoryChangeResult>> {
  const result = await api.saveMemoryFile(args);
  if (result.ok) {
    offerUndoOf(result.value);
    setMode('view');
    refreshAll();
  }
  return result;
}

/** Drops an edit: back to viewing the file as it is on disk now. */
export function cancelEdit(): void {
  setMode('view');
  refreshAll();
}

/** Creates a memory (and its pointer in the index) and opens it. */
export async function createMemory(args: RequestArgs<'createMemoryFile'>): Promise<Result<MemoryChangeResult>> {
  const result = await api.createMemoryFile(args);
  if (result.ok) {
    offerUndoOf(result.value);
    selectFile(result.value.relativePath);
    refreshAll();
  }
  return result;
}

/** Renames a memory (its pointer follows) and opens it under the new name. */
export async function renameMemory(args: RequestArgs<'renameMemoryFile'>): Promise<Result<MemoryChangeResult>> {
  const result = await api.renameMemoryFile(args);
  if (result.ok) {
    offerUndoOf(result.value);
    selectFile(result.value.relativePath);
    refreshAll();
  }
  return result;
}

/** Prunes a memory and its pointer; `title` names it in the undo offer. */
export async function pruneMemory(args: RequestArgs<'pruneMemoryFile'>, title: string): Promise<Result<MemoryChangeResult>> {
  const result = await api.pruneMemoryFile(args);
  if (result.ok) {
    offerUndoOf(result.value, `Pruned ${title}`);
    selectFile(null);
    refreshAll();
  }
  return result;
}

/** Undoes a change (the one offered for undo), and opens the file it brought back. */
export async function undoChange(args: RequestArgs<'undoMemoryChange'>): Promise<Result<MemoryChangeResult>> {
  const result = await api.undoMemoryChange(args);
  if (result.ok) {
    offerUndo(null);
    if (result.value.relativePath) selectFile(result.value.relativePath);
    refreshAll();
  }
  return result;
}

/** Applies a previewed fix exactly as planned; the file open in the review is closed when the fix deletes it. */
export async function applyFix(folder: MemoryFolderRef, plan: MemoryFixPlan, selected: string | null): Promise<Result<MemoryChangeResult>> {
  const result = await api.applyMemoryFix({ folder, fixes: [...plan.fixes], bases: [...plan.bases] });
  if (result.ok) {
    offerUndoOf(result.value);
    if (selected !== null && plan.files.some((file) => file.path === selected && file.change === 'delete')) selectFile(null);
    previewFix(null);
    refreshAll();
  }
  return result;
}
