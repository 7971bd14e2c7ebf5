import { useMemo, useState } from 'react';
import type { MemoryFolderRef } from '../../../../shared/memory/memoryFolderRef';
import type { AgentMemorySummary } from '../../../../shared/model/agents';
import { useNavigationStore } from '../../stores/navigationStore';
import { MemoryReviewPage } from '../memory/MemoryReviewPage';
import { AgentSnapshotPanel } from './AgentSnapshotPanel';

export interface AgentDetailProps {
  readonly agent: AgentMemorySummary;
  readonly readOnly: boolean;
}

type AgentView = 'review' | 'snapshot';

/**
 * One agent's memory: the same review as a project's auto memory (findings, what the model sees, edit, prune,
 * undo), and for project and local scope the project's committed snapshot of it.
 */
export function AgentDetail({ agent, readOnly }: AgentDetailProps) {
  const folder = useMemo<MemoryFolderRef>(() => ({ kind: 'agent', dir: agent.dir }), [agent.dir]);
  const hasProject = agent.projectPath !== null;
  // A link to one of its files opens the review; otherwise an agent with something to sync opens on its snapshot.
  const [view, setView] = useState<AgentView>(() =>
    hasProject && agent.snapshot.action !== 'none' && useNavigationStore.getState().file === null ? 'snapshot' : 'review',
  );
  const shown = hasProject ? view : 'review';
  return (
    <section className="agent-detail" aria-label={`Agent ${agent.agentType}`}>
      <h2>
        {agent.agentType} <span className={`badge scope-${agent.scope}`}>{agent.scope}</span>
      </h2>
      <div className="tabs sub-tabs" role="tablist" aria-label="Agent views">
        <button
          type="button"
          role="tab"
          aria-selected={shown === 'review'}
          className={shown === 'review' ? 'tab active' : 'tab'}
          onClick={() => setView('review')}
        >
          Review
        </button>
        {hasProject ? (
          <button
            type="button"
            role="tab"
            aria-selected={shown === 'snapshot'}
            className={shown === 'snapshot' ? 'tab active' : 'tab'}
            onClick={() => setView('snapshot')}
          >
            Snapshot
          </button>
        ) : null}
      </div>
      {shown === 'review' ? (
        <MemoryReviewPage folder={folder} heading={`${agent.agentType}: ${agent.scope} agent memory`} />
      ) : (
        <AgentSnapshotPanel agent={agent} readOnly={readOnly} />
      )}
    </section>
  );
}
