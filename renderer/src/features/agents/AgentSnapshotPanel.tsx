import { Fragment, useRef, useState } from 'react';
import type { AgentMemorySummary, AgentSnapshotDiff, SnapshotCommand, SnapshotPlan } from '../../../../shared/model/agents';
import { RelativeTime } from '../../components/RelativeTime';
import { useRequest } from '../../components/useRequest';
import { WarningList } from '../../components/WarningList';
import { api } from '../../api/connectApi';
import { agentsChanged, useAgentsStore } from './agentsStore';
import { SnapshotFileDiff } from './SnapshotFileDiff';
import { SnapshotPlanDialog } from './SnapshotPlanDialog';
import { ACTION_TEXT, COMMAND_TITLES, STATE_TEXT } from './snapshotTexts';

export interface AgentSnapshotPanelProps {
  readonly agent: AgentMemorySummary;
  readonly readOnly: boolean;
}

interface Proposal {
  readonly request: { readonly dir: string; readonly command: SnapshotCommand; readonly files?: string[]; readonly agentType?: string };
  readonly plan: SnapshotPlan;
  readonly token: string;
}

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

function folderName(dir: string): string {
  return dir.split(/[/\\]/).pop() ?? dir;
}

/** Which actions make sense for what is on disk; the engine plans each one again and refuses what cannot be done. */
function availableCommands(
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

/** A project agent's committed snapshot beside its local memory: status, file-by-file diff and the snapshot actions. */
export function AgentSnapshotPanel({ agent, readOnly }: AgentSnapshotPanelProps) {
  const revision = useAgentsStore((s) => s.revision);
  const diff = useRequest(`${agent.dir}\0${revision}`, () => api.getAgentSnapshotDiff({ dir: agent.dir }));
  // While a change on disk is re-read, the last comparison stays on screen instead of a loading flash.
  const shown = useRef<AgentSnapshotDiff | null>(null);
  if (diff.status === 'done') shown.current = diff.value;
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const [open, setOpen] = useState<string | null>(null);
  const [snapshotType, setSnapshotType] = useState(agent.agentType);
  const [proposal, setProposal] = useState<Proposal | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (diff.status === 'error') return <p className="error">{diff.message}</p>;
  if (shown.current === null) return <p className="muted">Loading the snapshot…</p>;
  const { entries, token, warnings } = shown.current;
  const available = availableCommands(agent, shown.current);

  async function propose(command: SnapshotCommand): Promise<void> {
    setError(null);
    const request = {
      dir: agent.dir,
      command,
      ...(command === 'merge' ? { files: [...chosen].sort() } : {}),
      ...(command === 'create' && agent.snapshot.dir === null && snapshotType !== agent.agentType ? { agentType: snapshotType } : {}),
    };
    const result = await api.planAgentSnapshotAction(request);
    if (result.ok) setProposal({ request, plan: result.value, token });
    else setError(result.error.message);
  }

  async function confirm(current: Proposal, overwriteNewer: boolean): Promise<void> {
    setBusy(true);
    const result = await api.applyAgentSnapshotAction({
      ...current.request,
      expectedToken: current.token,
      ...(overwriteNewer ? { overwriteNewer } : {}),
    });
    setBusy(false);
    if (!result.ok) {
      setError(result.error.message);
      return;
    }
    setProposal(null);
    setChosen(new Set());
    await agentsChanged();
  }

  const toggle = (name: string) =>
    setChosen((previous) => {
      const next = new Set(previous);
      if (next.has(name)) next.delete(name);
      else next.add(name);
      return next;
    });

  return (
    <section aria-label="Snapshot">
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
      <WarningList warnings={warnings} />

      {agent.snapshot.dir === null && folderName(agent.dir).includes('-') ? (
        <label className="field">
          Agent type for the snapshot folder (a plugin agent <code>plugin:agent</code> keeps its memory in <code>plugin-agent</code>)
          <input value={snapshotType} onChange={(event) => setSnapshotType(event.target.value)} aria-label="Agent type" />
        </label>
      ) : null}

      <div className="actions" role="toolbar" aria-label="Snapshot actions">
        {(Object.keys(available) as (keyof typeof available)[]).map((command) => (
          <button
            key={command}
            type="button"
            disabled={readOnly || !available[command] || proposal !== null}
            onClick={() => void propose(command)}
          >
            {COMMAND_TITLES[command]}
          </button>
        ))}
        <button type="button" disabled={readOnly || chosen.size === 0 || proposal !== null} onClick={() => void propose('merge')}>
          {COMMAND_TITLES.merge} ({chosen.size})
        </button>
      </div>
      {readOnly ? <p className="muted small">This window is read-only: snapshot actions are off.</p> : null}
      {error && !proposal ? <p className="error">{error}</p> : null}
      {proposal ? (
        <SnapshotPlanDialog
          plan={proposal.plan}
          busy={busy}
          error={error}
          onConfirm={(overwriteNewer) => void confirm(proposal, overwriteNewer)}
          onCancel={() => {
            setProposal(null);
            setError(null);
          }}
          onReviewMerge={(files) => {
            // The files their update changed, chosen for the merge and the first one's diff open.
            setProposal(null);
            setError(null);
            setChosen(new Set(files));
            setOpen(files[0] ?? null);
          }}
        />
      ) : null}

      <h3>Snapshot and local memory, file by file</h3>
      {entries.length === 0 ? (
        <p className="muted">Neither side holds any file yet.</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table" aria-label="Snapshot files">
            <thead>
              <tr>
                <th>Merge</th>
                <th>File</th>
                <th>State</th>
                <th>Local</th>
                <th>Snapshot</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <Fragment key={entry.name}>
                  <tr>
                    <td>
                      <input
                        type="checkbox"
                        aria-label={`Take ${entry.name} from the snapshot`}
                        disabled={entry.state === 'same' || readOnly}
                        checked={chosen.has(entry.name)}
                        onChange={() => toggle(entry.name)}
                      />
                    </td>
                    <td>
                      <button
                        type="button"
                        className="link"
                        aria-expanded={open === entry.name}
                        onClick={() => setOpen(open === entry.name ? null : entry.name)}
                      >
                        {entry.name}
                      </button>
                    </td>
                    <td>
                      <span className={`badge file-${entry.state}`}>{STATE_TEXT[entry.state]}</span>
                    </td>
                    <td>{entry.local ? `${entry.local.size} B` : '—'}</td>
                    <td>{entry.snapshot ? `${entry.snapshot.size} B` : '—'}</td>
                  </tr>
                  {open === entry.name ? (
                    <tr>
                      <td colSpan={5}>
                        <SnapshotFileDiff entry={entry} />
                      </td>
                    </tr>
                  ) : null}
                </Fragment>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
