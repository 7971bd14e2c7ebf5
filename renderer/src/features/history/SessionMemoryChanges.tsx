import { describeTotals } from '../../../../shared/history/changeSetFiles';
import { api } from '../../api/connectApi';
import { RelativeTime } from '../../components/RelativeTime';
import { useRequest } from '../../components/useRequest';
import { navigate } from '../../stores/navigationStore';
import { CauseBadge } from './EvidenceView';
import { selectChangeSet, setScope, useHistoryStore } from './historyStore';
import './history.css';

export interface SessionMemoryChangesProps {
  readonly configRoot: string;
  readonly slug: string;
  readonly sessionId: string;
}

/**
 * The memory changes one session caused (its own writes, the extraction after its turns, a dream it
 * reported), each opening in History. For the session views: drop it in beside a transcript.
 */
export function SessionMemoryChanges({ configRoot, slug, sessionId }: SessionMemoryChangesProps) {
  const revision = useHistoryStore((s) => s.revision);
  const changes = useRequest(`${sessionId}\0${revision}`, () => api.listHistory({ sessionId, limit: 200 }));
  if (changes.status === 'loading') return <p className="muted small">Loading memory changes…</p>;
  if (changes.status === 'error') return <p className="error small">{changes.message}</p>;
  const list = changes.value.changeSets;
  return (
    <section className="session-memory-changes" aria-label="Memory changes of this session">
      <h3>Memory changes</h3>
      {list.length === 0 ? (
        <p className="muted small">
          No memory change of this session is known: not from its transcript, its file-history backups or the memory files&apos;
          frontmatter.
        </p>
      ) : (
        <ul className="plain-list">
          {list.map((changeSet) => (
            <li key={changeSet.id}>
              <CauseBadge cause={changeSet.cause} />{' '}
              <button
                type="button"
                className="link"
                onClick={() => {
                  setScope('all');
                  selectChangeSet(changeSet.id);
                  navigate({ page: 'history', project: { configRoot, slug } });
                }}
              >
                {changeSet.files.map((f) => f.path).join(', ')}
              </button>{' '}
              <span className="muted small">
                <RelativeTime iso={changeSet.time} /> · {describeTotals(changeSet.totals)}
                {changeSet.reconstructed ? ' · reconstructed' : ''}
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
