import { create } from 'zustand';
import type { BackgroundSettingsPatch, BackgroundStatus, InboxEntry } from '../../../../shared/jobs/backgroundJobs';
import { api } from '../../api/connectApi';

interface InboxState {
  /** Every proposal set waiting for review, newest first; null until loaded. */
  readonly entries: readonly InboxEntry[] | null;
  /** Background jobs: settings, today's budget, what runs and waits; null until loaded. */
  readonly status: BackgroundStatus | null;
  /** How many proposal sets wait: from the engine's change event at once, before the entries reload. */
  readonly waiting: number;
  readonly error: string | null;
}

export const useInboxStore = create<InboxState>()(() => ({ entries: null, status: null, waiting: 0, error: null }));

let latest = 0;

export async function loadInbox(): Promise<void> {
  const call = ++latest;
  const result = await api.getReviewInbox({});
  if (call !== latest) return;
  if (result.ok) {
    useInboxStore.setState({ entries: result.value, waiting: result.value.length });
  } else useInboxStore.setState({ error: result.error.message });
}

export async function loadBackgroundStatus(): Promise<void> {
  const result = await api.getBackgroundStatus({});
  if (result.ok) useInboxStore.setState({ status: result.value });
  else useInboxStore.setState({ error: result.error.message });
}

/** Changes a background setting; the answer is the whole new status. */
export async function updateBackgroundSettings(patch: BackgroundSettingsPatch): Promise<string | null> {
  const result = await api.updateBackgroundSettings(patch);
  if (!result.ok) return result.error.message;
  useInboxStore.setState({ status: result.value, error: null });
  return null;
}

/** Turns Claude Code's own auto-dream off in one config root (a history-recorded settings write). */
export async function turnOffClaudeCodeAutoDream(configRoot: string): Promise<string | null> {
  const result = await api.turnOffClaudeCodeAutoDream({ configRoot });
  if (!result.ok) return result.error.message;
  useInboxStore.setState({ status: result.value, error: null });
  return null;
}

/** Puts Claude Code's settings file back as it was: the revert of the change set that turned auto-dream off. */
export async function undoAutoDreamTurnOff(changeSetId: string): Promise<string | null> {
  const result = await api.revertChangeSet({ id: changeSetId });
  await loadBackgroundStatus();
  if (!result.ok) return result.error.message;
  return result.value.applied ? null : 'The settings file changed since; nothing was put back (see the History page)';
}

/** Whether a file of a pending job changed on disk since the job read it. */
export function isStale(entries: readonly InboxEntry[] | null, jobId: string, path: string): boolean {
  return entries?.find((entry) => entry.jobId === jobId)?.files.find((file) => file.path === path)?.stale ?? false;
}

api.onReviewInboxChanged(({ count }) => {
  useInboxStore.setState({ waiting: count });
  void loadInbox();
});
api.onBackgroundStatusChanged((status) => useInboxStore.setState({ status }));
void loadInbox();
void loadBackgroundStatus();
