import type { ProjectSummary } from '../../../../shared/model/home';
import { RelativeTime } from '../../components/RelativeTime';
import { useRequest } from '../../components/useRequest';
import { WarningList } from '../../components/WarningList';
import { api } from '../../api/connectApi';

function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}

/** A project's sessions, newest first, from a quick read of each transcript's head and tail. */
export function SessionsPage({ project }: { readonly project: ProjectSummary }) {
  const key = `${project.configRoot}\0${project.slug}`;
  const state = useRequest(key, () => api.listSessions({ configRoot: project.configRoot, slug: project.slug }));
  return (
    <section aria-label="Sessions">
      <header className="page-header">
        <h1>Sessions</h1>
      </header>
      {state.status === 'loading' ? <p className="muted">Loading…</p> : null}
      {state.status === 'error' ? <p className="error">{state.message}</p> : null}
      {state.status === 'done' && state.value.length === 0 ? <p className="muted">No sessions in this project folder.</p> : null}
      {state.status === 'done' && state.value.length > 0 ? (
        <table className="data-table" aria-label="Sessions">
          <thead>
            <tr>
              <th>Title</th>
              <th>Started</th>
              <th>Last activity</th>
              <th>Branch</th>
              <th>Version</th>
              <th>Size</th>
            </tr>
          </thead>
          <tbody>
            {state.value.map((session) => (
              <tr key={session.sessionId}>
                <td>
                  <div>{session.title ?? <span className="muted">untitled</span>}</div>
                  <code className="muted small">{session.sessionId}</code>
                  <WarningList warnings={session.warnings} />
                </td>
                <td>
                  <RelativeTime iso={session.firstTimestamp} />
                </td>
                <td>
                  <RelativeTime iso={session.lastTimestamp} />
                </td>
                <td>{session.gitBranch ?? '—'}</td>
                <td>{session.version ?? '—'}</td>
                <td>{formatBytes(session.bytes)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
