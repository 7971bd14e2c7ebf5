import type { JobProgress } from '../../../../shared/jobs/jobTypes';
import { cancelJob } from './jobsStore';

const PHASE_TEXT = {
  starting: 'starting',
  orient: '1 · orient',
  gather: '2 · gather recent signal',
  consolidate: '3 · consolidate',
  prune: '4 · prune and index',
  reading: 'reading the conversation',
  saving: 'saving memories',
  finished: 'finished',
} as const;

export function formatCost(costUsd: number | null): string {
  return costUsd === null ? 'unknown cost' : `$${costUsd.toFixed(costUsd < 1 ? 4 : 2)}`;
}

/** Live progress of a running job: phase, turn, files touched, tokens and cost so far; cancel at any time. */
export function JobProgressView({ progress }: { readonly progress: JobProgress }) {
  const running = progress.status === 'running';
  return (
    <div className="dialog" role="status" aria-label="Job progress">
      <dl className="facts">
        <dt>Phase</dt>
        <dd>{PHASE_TEXT[progress.phase]}</dd>
        <dt>Turn</dt>
        <dd>
          {progress.turn} of at most {progress.maxTurns}
          {progress.chunks ? ' (per part)' : ''}
        </dd>
        {progress.chunks ? (
          <>
            <dt>Parts done</dt>
            <dd>
              <progress max={progress.chunks.total} value={progress.chunks.done} aria-label="Parts done" /> {progress.chunks.done} of{' '}
              {progress.chunks.total}
            </dd>
          </>
        ) : null}
        <dt>Files touched</dt>
        <dd>{progress.filesTouched.length === 0 ? 'none yet' : progress.filesTouched.join(', ')}</dd>
        <dt>Tokens so far</dt>
        <dd>
          {progress.usage.input.toLocaleString('en')} in, {progress.usage.output.toLocaleString('en')} out ({formatCost(progress.costUsd)})
        </dd>
      </dl>
      {running ? (
        <button type="button" onClick={() => void cancelJob(progress.jobId)}>
          Cancel
        </button>
      ) : null}
    </div>
  );
}
