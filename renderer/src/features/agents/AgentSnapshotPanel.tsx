import { useRef, useState } from 'react';
import type { AgentMemorySummary, AgentSnapshotDiff, SnapshotCommand, SnapshotPlan } from '../../../../shared/model/agents';
import { api } from '../../api/connectApi';
import { PendingState } from '../../components/PendingState';
import { useMutation } from '../../components/useMutation';
import { useRequest } from '../../components/useRequest';
import { WarningList } from '../../components/WarningList';
import { applySnapshotAction, useAgentsStore } from './agentsStore';
import { availableCommands } from './snapshotCommands';
import { SnapshotFileTable } from './SnapshotFileTable';
import { SnapshotPlanDialog } from './SnapshotPlanDialog';
import { SnapshotStatus } from './SnapshotStatus';
import { COMMAND_TITLES } from './snapshotTexts';

export interface AgentSnapshotPanelProps {
  readonly agent: AgentMemorySummary;
  readonly readOnly: boolean;
}

interface Proposal {
  readonly request: { readonly dir: string; readonly command: SnapshotCommand; readonly files?: string[]; readonly agentType?: string };
  readonly plan: SnapshotPlan;
  readonly token: string;
}

function folderName(dir: string): string {
  return dir.split(/[/\\]/).pop() ?? dir;
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
  // Planning an action and running it share one place to say what went wrong.
  const acting = useMutation();

  if (diff.status === 'error') return <p className="error">{diff.message}</p>;
  if (shown.current === null) return <PendingState label="Comparing the snapshot with local memory" />;
  const { entries, token, warnings } = shown.current;
  const available = availableCommands(agent, shown.current);

  async function propose(command: SnapshotCommand): Promise<void> {
    const request = {
      dir: agent.dir,
      command,
      ...(command === 'merge' ? { files: [...chosen].sort() } : {}),
      ...(command === 'create' && agent.snapshot.dir === null && snapshotType !== agent.agentType ? { agentType: snapshotType } : {}),
    };
    const result = await acting.run(() => api.planAgentSnapshotAction(request));
    if (result.ok) setProposal({ request, plan: result.value, token });
  }

  async function confirm(current: Proposal, overwriteNewer: boolean): Promise<void> {
    const request = { ...current.request, expectedToken: current.token, ...(overwriteNewer ? { overwriteNewer } : {}) };
    if (!(await acting.run(() => applySnapshotAction(request))).ok) return;
    setProposal(null);
    setChosen(new Set());
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
      <SnapshotStatus agent={agent} />
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
      {acting.error && !proposal ? <p className="error">{acting.error}</p> : null}
      {proposal ? (
        <SnapshotPlanDialog
          plan={proposal.plan}
          busy={acting.busy}
          error={acting.error}
          onConfirm={(overwriteNewer) => void confirm(proposal, overwriteNewer)}
          onCancel={() => {
            setProposal(null);
            acting.clear();
          }}
          onReviewMerge={(files) => {
            // The files their update changed, chosen for the merge and the first one's diff open.
            setProposal(null);
            acting.clear();
            setChosen(new Set(files));
            setOpen(files[0] ?? null);
          }}
        />
      ) : null}

      <h3>Snapshot and local memory, file by file</h3>
      <SnapshotFileTable entries={entries} readOnly={readOnly} chosen={chosen} onToggle={toggle} open={open} onOpen={setOpen} />
    </section>
  );
}
