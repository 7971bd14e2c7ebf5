import type { ProjectSummary } from '../../../../shared/model/home';
import type { MemoryFileSummary } from '../../../../shared/model/memory';
import { RelativeTime } from '../../components/RelativeTime';
import { useRequest } from '../../components/useRequest';
import { WarningList } from '../../components/WarningList';
import { api } from '../../api/connectApi';

const MEMORY_DIR_SOURCES = {
  default: 'default location',
  'user-settings': 'autoMemoryDirectory in user settings',
  'local-settings': 'autoMemoryDirectory in local settings',
} as const;

function TypeBadge({ file }: { readonly file: MemoryFileSummary }) {
  const label = file.type ?? (file.rawType ? `unknown: ${file.rawType}` : 'unknown');
  return <span className={`badge type-${file.type ?? 'unknown'}`}>{label}</span>;
}

/** A project's auto memory: the MEMORY.md index as it is on disk and every topic file with its header. */
export function MemoryPage({ project }: { readonly project: ProjectSummary }) {
  const key = `${project.configRoot}\0${project.slug}`;
  const state = useRequest(key, () => api.listMemoryFiles({ configRoot: project.configRoot, slug: project.slug }));
  return (
    <section aria-label="Memory">
      <header className="page-header">
        <h1>Memory</h1>
        <p className="muted">
          <code>{project.memoryDir}</code> ({MEMORY_DIR_SOURCES[project.memoryDirSource]})
        </p>
      </header>
      {state.status === 'loading' ? <p className="muted">Loading…</p> : null}
      {state.status === 'error' ? <p className="error">{state.message}</p> : null}
      {state.status === 'done' && !state.value.exists ? (
        <p className="muted">No memory yet: Claude Code has not saved anything for this project.</p>
      ) : null}
      {state.status === 'done' && state.value.exists ? (
        <>
          <WarningList warnings={state.value.warnings} />
          <h2>Topic files ({state.value.files.length})</h2>
          <table className="data-table" aria-label="Topic files">
            <thead>
              <tr>
                <th>File</th>
                <th>Type</th>
                <th>Description</th>
                <th>Scope</th>
                <th>Changed</th>
              </tr>
            </thead>
            <tbody>
              {state.value.files.map((file) => (
                <tr key={file.relativePath}>
                  <td>
                    <div>{file.name ?? file.relativePath}</div>
                    <code className="muted small">{file.relativePath}</code>
                    <WarningList warnings={file.warnings} />
                  </td>
                  <td>
                    <TypeBadge file={file} />
                  </td>
                  <td>{file.description ?? <span className="muted">no description</span>}</td>
                  <td>{file.scope}</td>
                  <td>
                    <RelativeTime iso={file.mtime} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <h2>MEMORY.md</h2>
          {state.value.indexText === null ? (
            <p className="muted">There is no MEMORY.md index.</p>
          ) : (
            <pre className="raw-text" aria-label="MEMORY.md">
              {state.value.indexText}
            </pre>
          )}
        </>
      ) : null}
    </section>
  );
}
