import { create } from 'zustand';
import type { RequestArgs } from '../../../../shared/contract/requests';
import type { AgentMemorySummary, SnapshotActionResult } from '../../../../shared/model/agents';
import type { Result } from '../../../../shared/result';
import { api } from '../../api/connectApi';
import { navigate } from '../../stores/navigationStore';
import { refreshAll as refreshMemoryReview, useMemoryReviewStore } from '../memory/memoryReviewStore';

interface AgentsState {
  readonly agents: readonly AgentMemorySummary[] | null;
  readonly error: string | null;
  readonly loading: boolean;
  /** Bumped after every change made from this page, so open panels reload what they show. */
  readonly revision: number;
}

export const useAgentsStore = create<AgentsState>()(() => ({ agents: null, error: null, loading: false, revision: 0 }));

let latest = 0;

/** Re-reads every agent memory; an answer to an older call is dropped. */
export async function loadAgents(): Promise<void> {
  const call = ++latest;
  useAgentsStore.setState({ loading: true });
  const result = await api.listAgentMemories({});
  if (call !== latest) return;
  if (result.ok) useAgentsStore.setState({ agents: result.value, error: null, loading: false });
  else useAgentsStore.setState({ error: result.error.message, loading: false });
}

/** Chooses an agent; the location names it (`agent=` in the URL), so a link or a reload opens the same one. */
export function selectAgent(dir: string | null): void {
  navigate({ page: 'agents', agent: dir });
}

/** After files changed (our action, Claude Code, a pull): reload the list and everything showing the selected agent. */
export async function agentsChanged(): Promise<void> {
  useAgentsStore.setState((state) => ({ revision: state.revision + 1 }));
  // The review of an agent's memory learns of Claude Code's writes only for folders under the config root.
  if (useMemoryReviewStore.getState().folder?.kind === 'agent') refreshMemoryReview();
  await loadAgents();
}

/** Runs a snapshot action the person confirmed; once written, everything showing the agent reads again. */
export async function applySnapshotAction(args: RequestArgs<'applyAgentSnapshotAction'>): Promise<Result<SnapshotActionResult>> {
  const result = await api.applyAgentSnapshotAction(args);
  if (result.ok) void agentsChanged();
  return result;
}

api.onAgentMemoriesChanged(() => {
  // Only a page that has loaded the list keeps it current.
  if (useAgentsStore.getState().agents !== null) void agentsChanged();
});

api.onMemoryChanged((change) => {
  // An edit or prune in the review changes the file count and maybe the snapshot status.
  if (change.folder.kind === 'agent' && useAgentsStore.getState().agents !== null) void loadAgents();
});
