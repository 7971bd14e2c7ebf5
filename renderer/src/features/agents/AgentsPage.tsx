import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { AgentMemorySummary } from '../../../../shared/model/agents';
import { WarningList } from '../../components/WarningList';
import { useHomeStore } from '../../stores/homeStore';
import { useNavigationStore } from '../../stores/navigationStore';
import { AgentDetail } from './AgentDetail';
import { loadAgents, selectAgent, useAgentsStore } from './agentsStore';
import { ACTION_BADGE } from './snapshotTexts';
import { moveFocusByArrows } from '../../components/listKeyboard';
import { MiddleTruncate } from '../../components/MiddleTruncate';

function SnapshotCell({ agent }: { readonly agent: AgentMemorySummary }) {
  if (!agent.snapshot.dir) return <span className="muted">—</span>;
  return <span className={`badge snapshot-${agent.snapshot.action}`}>{ACTION_BADGE[agent.snapshot.action]}</span>;
}

/** Sub-agent memories in every scope (user, and project and local inside each project on disk), with their snapshots. */
export function AgentsPage() {
  const home = useHomeStore((s) => s.home);
  const { agents, error, loading } = useAgentsStore(useShallow((s) => ({ agents: s.agents, error: s.error, loading: s.loading })));
  const selectedDir = useNavigationStore((s) => s.agent);
  // A new home (demo opened, projects appeared) may hold other agents.
  useEffect(() => {
    if (home) void loadAgents();
  }, [home]);
  const selected = agents?.find((agent) => agent.dir === selectedDir) ?? null;

  return (
    <section aria-label="Agents">
      <header className="page-header">
        <h1>Agent memory</h1>
        <p className="muted">
          Sub-agents with a <code>memory:</code> scope keep their own memory; projects can commit a snapshot of it to seed their teammates.
        </p>
        <button type="button" onClick={() => void loadAgents()} disabled={loading}>
          Refresh
        </button>
      </header>
      {error ? <p className="error">{error}</p> : null}
      {agents === null ? <p className="muted">Loading…</p> : null}
      {agents !== null && agents.length === 0 ? <p className="muted">No sub-agent has memory or a snapshot yet.</p> : null}
      {agents !== null && agents.length > 0 ? (
        <div className="table-scroll">
          <table className="data-table" aria-label="Agent memories" onKeyDown={(event) => moveFocusByArrows(event, 'tbody button.link')}>
            <thead>
              <tr>
                <th>Agent</th>
                <th>Scope</th>
                <th>Project</th>
                <th>Files</th>
                <th>Snapshot</th>
              </tr>
            </thead>
            <tbody>
              {agents.map((agent) => (
                <tr
                  key={agent.dir}
                  className={agent.dir === selectedDir ? 'selected-row' : undefined}
                  aria-selected={agent.dir === selectedDir}
                >
                  <td>
                    <button type="button" className="link" onClick={() => selectAgent(agent.dir)}>
                      {agent.agentType}
                    </button>
                    <div>
                      <MiddleTruncate code className="muted small" text={agent.dir} />
                    </div>
                    <WarningList warnings={agent.warnings} />
                  </td>
                  <td>
                    <span className={`badge scope-${agent.scope}`}>{agent.scope}</span>
                  </td>
                  <td>{agent.projectPath ?? <span className="muted">all projects</span>}</td>
                  <td>{agent.fileCount}</td>
                  <td>
                    <SnapshotCell agent={agent} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {selected ? <AgentDetail key={selected.dir} agent={selected} readOnly={home?.readOnly ?? true} /> : null}
      {selectedDir && agents !== null && !selected ? (
        <p className="muted" role="status">
          No agent memory at <code>{selectedDir}</code> any more.
        </p>
      ) : null}
    </section>
  );
}
