import type { DreamGate } from '../../../../shared/jobs/jobTypes';
import type { ProjectSummary } from '../../../../shared/model/home';
import { api } from '../../api/connectApi';
import { RelativeTime } from '../../components/RelativeTime';
import { useRequest } from '../../components/useRequest';

export interface GatePanelProps {
  readonly project: ProjectSummary;
  /** Changes whenever the lock or Claude Code's settings may have changed (a job ran or was applied), so the panel reads them again. */
  readonly revision: string;
}

function holderText(gate: DreamGate): string {
  const holder = gate.holder;
  if (!holder) return gate.lastConsolidatedAt === null ? '—' : 'none (the last consolidation finished or was rolled back)';
  if (!holder.alive) return `process ${holder.pid}, no longer running`;
  return holder.stale ? `process ${holder.pid}, running, but the lock is over an hour old (stale)` : `process ${holder.pid}, running now`;
}

function wouldFireText(gate: DreamGate): string {
  if (gate.wouldFire === true) return 'yes';
  if (gate.wouldFire === null) return `maybe: ${gate.reasons.join('; ')}`;
  return `no: ${gate.reasons.join('; ')}`;
}

/** Claude Code's own auto-dream gate for this project: what its lock file and sessions say. */
export function GatePanel({ project, revision }: GatePanelProps) {
  const gate = useRequest(`${project.configRoot}\0${project.slug}\0${revision}`, () =>
    api.getDreamGate({ configRoot: project.configRoot, slug: project.slug }),
  );
  if (gate.status === 'loading') return <p className="muted">Loading…</p>;
  if (gate.status === 'error') return <p className="error">{gate.message}</p>;
  const value = gate.value;
  return (
    <dl className="facts" aria-label="Consolidation">
      <dt>Last consolidation</dt>
      <dd>{value.lastConsolidatedAt ? <RelativeTime iso={value.lastConsolidatedAt} /> : 'never (no .consolidate-lock)'}</dd>
      <dt>Sessions since</dt>
      <dd>
        {value.sessionsSince} <span className="muted">(Claude Code waits for {value.minSessions})</span>
      </dd>
      <dt>Lock holder</dt>
      <dd>{holderText(value)}</dd>
      <dt>Auto-dream setting</dt>
      <dd>
        {value.settingsProblem !== null ? (
          <span className="warning" title={value.settingsProblem}>
            unreadable settings.json <span className="muted">({value.settingsProblem})</span>
          </span>
        ) : value.autoDreamEnabled === null ? (
          'not set'
        ) : value.autoDreamEnabled ? (
          'on'
        ) : (
          'off'
        )}
        {value.autoMemoryEnabled ? '' : ' (auto memory is off)'}
      </dd>
      <dt>Would Claude Code dream now?</dt>
      <dd aria-label="Would auto-dream fire">{wouldFireText(value)}</dd>
    </dl>
  );
}
