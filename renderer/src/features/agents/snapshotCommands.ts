import type { AgentMemorySummary, AgentSnapshotDiff, SnapshotCommand } from '../../../../shared/model/agents';

/** Which actions make sense for what is on disk; the engine plans each one again and refuses what cannot be done. */
export function availableCommands(
  agent: AgentMemorySummary,
  diff: AgentSnapshotDiff,
): Readonly<Record<Exclude<SnapshotCommand, 'merge'>, boolean>> {
  const hasLocalMemory = diff.entries.some((entry) => entry.local && entry.name.endsWith('.md'));
  const valid = agent.snapshot.updatedAt !== null;
  return {
    create: hasLocalMemory,
    initialize: valid && !hasLocalMemory,
    replace: valid && hasLocalMemory,
    'mark-synced': valid && hasLocalMemory && agent.snapshot.syncedFrom !== agent.snapshot.updatedAt,
  };
}
