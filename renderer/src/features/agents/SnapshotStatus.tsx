import type { AgentMemorySummary } from '../../../../shared/model/agents';
import { RelativeTime } from '../../components/RelativeTime';
import { ACTION_TEXT } from './snapshotTexts';

/** The raw value Claude Code compares, so equal and unequal times can be told apart, with its age beside it when it is a date. */
function SnapshotTime({ value }: { readonly value: string | null }) {
  if (value === null) return <span className="muted">—</span>;
  return (
    <>
      <code>{value}</code>
      {Number.isNaN(Date.parse(value)) ? (
        <span className="muted"> (not a date)</span>
      ) : (
        <>
          {' '}
          (<RelativeTime iso={value} />)
        </>
      )}
    </>
  );
}

/** Where the agent's snapshot is, when it and the local memory were last updated, and what Claude Code will do with it. */
export function SnapshotStatus({ agent }: { readonly agent: AgentMemorySummary }) {
  return (
    <dl className="facts" aria-label="Snapshot status">
      <dt>Snapshot</dt>
      <dd>{agent.snapshot.dir ? <code>{agent.snapshot.dir}</code> : <span className="muted">none committed yet</span>}</dd>
      <dt>Snapshot updated</dt>
      <dd>
        <SnapshotTime value={agent.snapshot.updatedAt} />
      </dd>
      <dt>Local synced from</dt>
      <dd>
        <SnapshotTime value={agent.snapshot.syncedFrom} />
      </dd>
      <dt>Claude Code</dt>
      <dd>
        <span className={`badge snapshot-${agent.snapshot.action}`}>{agent.snapshot.action}</span> {ACTION_TEXT[agent.snapshot.action]}
      </dd>
    </dl>
  );
}
