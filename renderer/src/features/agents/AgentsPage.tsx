import { useRequest } from '../../components/useRequest';
import { WarningList } from '../../components/WarningList';
import { api } from '../../api/connectApi';
import { useHomeStore } from '../../stores/homeStore';

/** Sub-agent memories in every scope: user (config root), project and local (inside each project on disk). */
export function AgentsPage() {
  const generation = useHomeStore((s) => s.home);
  const state = useRequest(generation ? String(generation.roots.map((r) => r.path)) + generation.projects.length : null, () =>
    api.listAgentMemories({}),
  );
  return (
    <section aria-label="Agents">
      <header className="page-header">
        <h1>Agent memory</h1>
      </header>
      {state.status === 'loading' ? <p className="muted">Loading…</p> : null}
      {state.status === 'error' ? <p className="error">{state.message}</p> : null}
      {state.status === 'done' && state.value.length === 0 ? <p className="muted">No sub-agent has memory yet.</p> : null}
      {state.status === 'done' && state.value.length > 0 ? (
        <table className="data-table" aria-label="Agent memories">
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
            {state.value.map((agent) => (
              <tr key={agent.dir}>
                <td>
                  <div>{agent.agentType}</div>
                  <code className="muted small">{agent.dir}</code>
                  <WarningList warnings={agent.warnings} />
                </td>
                <td>
                  <span className={`badge scope-${agent.scope}`}>{agent.scope}</span>
                </td>
                <td>{agent.projectPath ?? <span className="muted">all projects</span>}</td>
                <td>{agent.fileCount}</td>
                <td>{agent.snapshotDir ? 'committed snapshot' : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
