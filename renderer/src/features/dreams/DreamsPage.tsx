import type { ProjectSummary } from '../../../../shared/model/home';
import type { ConsolidationLockStatus } from '../../../../shared/model/memory';
import { RelativeTime } from '../../components/RelativeTime';
import { useRequest } from '../../components/useRequest';
import { api } from '../../api/connectApi';

function holderText(lock: ConsolidationLockStatus): string {
  if (lock.holderPid === null) return 'none (the last consolidation finished or was rolled back)';
  if (lock.holderAlive === true) return `process ${lock.holderPid}, running now`;
  return `process ${lock.holderPid}, no longer running`;
}

/** What can be known of Claude Code's dreams for a project: the lock's time and holder, and the sessions since. */
export function DreamsPage({ project }: { readonly project: ProjectSummary }) {
  const ref = { configRoot: project.configRoot, slug: project.slug };
  const key = `${project.configRoot}\0${project.slug}`;
  const memory = useRequest(key, () => api.listMemoryFiles(ref));
  const sessions = useRequest(key, () => api.listSessions(ref));
  if (memory.status === 'loading' || sessions.status === 'loading') return <p className="muted">Loading…</p>;
  if (memory.status === 'error') return <p className="error">{memory.message}</p>;
  if (sessions.status === 'error') return <p className="error">{sessions.message}</p>;
  const lock = memory.value.lock;
  const since = lock.lastConsolidatedAt;
  const sessionsSince = since === null ? sessions.value.length : sessions.value.filter((s) => s.mtime > since).length;
  return (
    <section aria-label="Dreams">
      <header className="page-header">
        <h1>Dreams</h1>
        <p className="muted">
          Claude Code&apos;s background consolidation rewrites this project&apos;s memory; its lock file is the only trace it leaves.
        </p>
      </header>
      <dl className="facts" aria-label="Consolidation">
        <dt>Last consolidation</dt>
        <dd>{lock.exists ? <RelativeTime iso={lock.lastConsolidatedAt} /> : 'never (no .consolidate-lock)'}</dd>
        <dt>Lock holder</dt>
        <dd>{lock.exists ? holderText(lock) : '—'}</dd>
        <dt>Sessions since</dt>
        <dd>{sessionsSince}</dd>
      </dl>
    </section>
  );
}
