import type { RequestArgs, RequestResults } from '../../../../shared/contract/requests';
import type { RollbackResult } from '../../../../shared/history/historyModel';
import type { Result } from '../../../../shared/result';
import { api } from '../../api/connectApi';
import { historyChanged } from './historyStore';

/**
 * Every change the History page makes: going back to a version, reverting a change set, keeping a dream, importing
 * a backup. Each one,
 * once written, makes every history view read again; the answer goes back to the component, which only shows why
 * it failed.
 */

/** Puts one file back to a version of it. */
export async function restoreVersion(args: RequestArgs<'restoreVersion'>): Promise<Result<RollbackResult>> {
  const result = await api.restoreVersion(args);
  if (result.ok) historyChanged();
  return result;
}

/** Undoes a change set, or some of its files. */
export async function revertChangeSet(args: RequestArgs<'revertChangeSet'>): Promise<Result<RollbackResult>> {
  const result = await api.revertChangeSet(args);
  if (result.ok) historyChanged();
  return result;
}

/** Marks a dream as reviewed and kept. */
export async function keepDream(args: RequestArgs<'keepDream'>): Promise<Result<RequestResults['keepDream']>> {
  const result = await api.keepDream(args);
  if (result.ok) historyChanged();
  return result;
}

/** Writes the files of a backup archive that the preview showed as new or changed. */
export async function importBackup(args: RequestArgs<'applyMemoryImport'>): Promise<Result<RequestResults['applyMemoryImport']>> {
  const result = await api.applyMemoryImport(args);
  if (result.ok) historyChanged();
  return result;
}
