import { create } from 'zustand';
import type { RequestArgs } from '../../../../shared/contract/requests';
import type { ArchiveProgress, ArchiveRemovalResult, ArchiveStatus } from '../../../../shared/model/archive';
import type { Result } from '../../../../shared/result';
import { api } from '../../api/connectApi';

interface ArchiveState {
  /** What the transcript archive holds and how it is set; null until read. */
  readonly status: ArchiveStatus | null;
  readonly progress: ArchiveProgress | null;
  /** Why the status could not be read. */
  readonly loadError: string | null;
  /**
   * Bumped when a status arrives that the settings form should show as it is (a change event, a write that worked),
   * but not for a quiet re-read after a reconnection, which keeps what is typed.
   */
  readonly shown: number;
}

export const useArchiveStore = create<ArchiveState>()(() => ({ status: null, progress: null, loadError: null, shown: 0 }));

function show(status: ArchiveStatus): void {
  useArchiveStore.setState((state) => ({ status, progress: status.progress, loadError: null, shown: state.shown + 1 }));
}

/** Reads the status: shown as it is the first time, quietly after a reconnection (changes and progress were missed). */
export async function loadArchiveStatus(): Promise<void> {
  const result = await api.getArchiveStatus({});
  if (!result.ok) useArchiveStore.setState({ loadError: result.error.message });
  else if (useArchiveStore.getState().status === null) show(result.value);
  else useArchiveStore.setState({ status: result.value, progress: result.value.progress });
}

/** Turns the archive on or off, or sets its size cap (null: none). */
export async function setArchiveSettings(change: RequestArgs<'setArchiveSettings'>): Promise<Result<ArchiveStatus>> {
  const result = await api.setArchiveSettings(change);
  if (result.ok) show(result.value);
  return result;
}

async function removed(write: Promise<Result<ArchiveRemovalResult>>): Promise<Result<ArchiveRemovalResult>> {
  const result = await write;
  if (result.ok) show(result.value.status);
  return result;
}

/** Removes every archived session last active before a day (`YYYY-MM-DD`, from its first moment in UTC). */
export function pruneArchive(before: string): Promise<Result<ArchiveRemovalResult>> {
  return removed(api.pruneArchive({ before: `${before}T00:00:00.000Z` }));
}

/** Deletes the archive of a project the person deleted on purpose. */
export function deleteProjectArchive(project: {
  readonly configRoot: string;
  readonly slug: string;
}): Promise<Result<ArchiveRemovalResult>> {
  return removed(api.deleteProjectArchive({ configRoot: project.configRoot, slug: project.slug }));
}

api.onArchiveChanged(show);
api.onArchiveProgress((progress) => useArchiveStore.setState({ progress }));
