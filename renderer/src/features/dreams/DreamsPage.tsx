import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { ProjectSummary } from '../../../../shared/model/home';
import { useHomeStore } from '../../stores/homeStore';
import { navigate } from '../../stores/navigationStore';
import { DreamLauncher } from './DreamLauncher';
import { ExtractionPanel } from './ExtractionPanel';
import { GatePanel } from './GatePanel';
import { JobDetail } from './JobDetail';
import { JobRecordsTable } from './JobRecordsTable';
import { ReviewedDreamsPanel } from './ReviewedDreamsPanel';
import { ReviewInboxPanel } from './ReviewInboxPanel';
import { useInboxStore } from './inboxStore';
import { DreamsReview } from '../history/DreamsReview';
import { clearJobError, loadJobs, useJobsStore } from './jobsStore';
import './dreams.css';
import { ErrorAlert } from '../../components/ErrorAlert';
import { PendingState } from '../../components/PendingState';

/**
 * The review inbox of every memory, then this project: Claude Code's dreams (the gate), reviewed dreams on its
 * schedule, our own dreams and extraction replays, their review and records.
 */
export function DreamsPage({ project }: { readonly project: ProjectSummary }) {
  const readOnly = useHomeStore((s) => s.home?.readOnly ?? true);
  const { jobs, selectedId, error, errorCode } = useJobsStore(
    useShallow((s) => ({ jobs: s.jobs, selectedId: s.selectedId, error: s.error, errorCode: s.errorCode })),
  );
  useEffect(() => {
    void loadJobs();
  }, []);
  const selected = jobs?.find((job) => job.id === selectedId) ?? null;
  const running = (jobs ?? []).some((job) => job.status === 'running' && job.target.memoryDir === project.memoryDir);
  // The lock changes when a job runs or is applied, the settings when auto-dream is turned off: the gate reads them again then.
  const autoDream = useInboxStore((s) => s.status?.claudeCodeAutoDream.find((r) => r.configRoot === project.configRoot)?.autoDreamEnabled);
  const revision = `${(jobs ?? []).filter((job) => job.status !== 'running').length}:${(jobs ?? []).filter((job) => job.outcome !== null).length}:${String(autoDream)}`;
  return (
    <section aria-label="Dreams">
      <header className="page-header">
        <h1>Dreams</h1>
        <p className="muted">
          Claude Code&apos;s background consolidation rewrites this project&apos;s memory; its lock file is the only trace it leaves. Here
          you can run one yourself and review every edit before it lands.
        </p>
      </header>
      <ReviewInboxPanel selectedId={selectedId} />
      <h2>This project</h2>
      <GatePanel project={project} revision={revision} />
      <ReviewedDreamsPanel project={project} readOnly={readOnly} />
      <DreamsReview project={project} />
      {readOnly ? <p className="muted">This window is read-only: jobs cannot be started or applied.</p> : null}
      <DreamLauncher project={project} disabled={readOnly || running} />
      <ErrorAlert error={error}>
        {' '}
        {errorCode === 'FORBIDDEN' ? (
          <button type="button" className="link" onClick={() => navigate({ page: 'settings' })}>
            Open Settings
          </button>
        ) : null}{' '}
        <button type="button" className="link" onClick={clearJobError}>
          Dismiss
        </button>
      </ErrorAlert>
      {selected ? <JobDetail job={selected} readOnly={readOnly} /> : null}
      <ExtractionPanel project={project} disabled={readOnly || running} />
      <h2>Job records</h2>
      {jobs ? <JobRecordsTable jobs={jobs} selectedId={selectedId} /> : <PendingState label="Reading the job records" />}
    </section>
  );
}
