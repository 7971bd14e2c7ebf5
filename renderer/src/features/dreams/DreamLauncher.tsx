import { useState } from 'react';
import type { JobTarget } from '../../../../shared/jobs/jobTypes';
import type { ProjectSummary } from '../../../../shared/model/home';
import { api } from '../../api/connectApi';
import { useRequest } from '../../components/useRequest';
import { startDream } from './jobsStore';

export interface DreamLauncherProps {
  readonly project: ProjectSummary;
  readonly disabled: boolean;
}

const PROJECT = 'project';

/** Starts a dream now, on this project's memory or on one agent memory. */
export function DreamLauncher({ project, disabled }: DreamLauncherProps) {
  const agents = useRequest('agents', () => api.listAgentMemories({}));
  const [choice, setChoice] = useState(PROJECT);
  const target: JobTarget =
    choice === PROJECT ? { kind: 'project', configRoot: project.configRoot, slug: project.slug } : { kind: 'agent', dir: choice };
  return (
    <section aria-label="Dream now">
      <h2>Dream now</h2>
      <p className="muted">
        Consolidate a memory with the model: orient, gather recent signal, consolidate, prune and index. Every change comes back as a
        proposal; nothing is written until you approve it.
      </p>
      <div className="actions">
        <label htmlFor="dream-target">Memory</label>
        <select id="dream-target" value={choice} onChange={(event) => setChoice(event.target.value)}>
          <option value={PROJECT}>This project&apos;s memory ({project.memoryDir})</option>
          {agents.status === 'done'
            ? agents.value.map((agent) => (
                <option key={agent.dir} value={agent.dir}>
                  Agent {agent.agentType} ({agent.scope}): {agent.dir}
                </option>
              ))
            : null}
        </select>
        <button type="button" className="primary" disabled={disabled} onClick={() => void startDream(target)}>
          Dream now
        </button>
      </div>
    </section>
  );
}
