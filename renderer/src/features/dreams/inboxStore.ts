import { create } from 'zustand';
import type { BackgroundSettingsPatch, BackgroundStatus, InboxEntry } from '../../../../shared/jobs/backgroundJobs';
import type { RollbackResult } from '../../../../shared/history/historyModel';
import { fail, type Result } from '../../../../shared/result';
import { api } from '../../api/connectApi';
import { onReconnected } from '../../api/connectionStore';

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
    useInboxStore.setState({ entries: result.value, waiting: result.value.length, error: null });
  } else useInboxStore.setState({ error: result.error.message });
}

export async function loadBackgroundStatus(): Promise<void> {
  const result = await api.getBackgroundStatus({});
  if (result.ok) useInboxStore.setState({ status: result.value, error: null });
  else useInboxStore.setState({ error: result.error.message });
}

/** Writes that answer with the whole new status, which replaces the one shown. */
async function settle(write: Promise<Result<BackgroundStatus>>): Promise<Result<BackgroundStatus>> {
  const result = await write;
  if (result.ok) useInboxStore.setState({ status: result.value, error: null });
  return result;
}

/** Changes a background setting. */
export function updateBackgroundSettings(patch: BackgroundSettingsPatch): Promise<Result<BackgroundStatus>> {
  return settle(api.updateBackgroundSettings(patch));
}

/** Turns Claude Code's own auto-dream off in one config root (a history-recorded settings write). */
export function turnOffClaudeCodeAutoDream(configRoot: string): Promise<Result<BackgroundStatus>> {
  return settle(api.turnOffClaudeCodeAutoDream({ configRoot }));
}

/** Puts Claude Code's settings file back as it was: the revert of the change set that turned auto-dream off. */
export async function undoAutoDreamTurnOff(changeSetId: string): Promise<Result<RollbackResult>> {
  const result = await api.revertChangeSet({ id: changeSetId });
  await loadBackgroundStatus();
  if (result.ok && !result.value.applied)
    return fail('CONFLICT', 'The settings file changed since; nothing was put back (see the History page)');
  return result;
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
// Proposals and status changes were missed while the connection was lost.
onReconnected(() => {
  void loadInbox();
  void loadBackgroundStatus();
});
