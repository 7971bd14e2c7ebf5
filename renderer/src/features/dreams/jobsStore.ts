import { create } from 'zustand';
import type { ExtractionSource, JobProgress, JobSummary, JobTarget } from '../../../../shared/jobs/jobTypes';
import type { RequestArgs, RequestResults } from '../../../../shared/contract/requests';
import type { Result } from '../../../../shared/result';
import { api } from '../../api/connectApi';
import { onReconnected } from '../../api/connectionStore';

interface JobsState {
  /** Every job record, newest first; null until loaded. */
  readonly jobs: readonly JobSummary[] | null;
  /** The latest progress of each job, by id. */
  readonly progress: Readonly<Record<string, JobProgress>>;
  /** The job whose proposals or record the page shows. */
  readonly selectedId: string | null;
  readonly error: string | null;
  /** The error code of the last failed start, so the page can point at Settings for a missing key. */
  readonly errorCode: string | null;
}

export const useJobsStore = create<JobsState>()(() => ({ jobs: null, progress: {}, selectedId: null, error: null, errorCode: null }));

let latest = 0;

export async function loadJobs(): Promise<void> {
  const call = ++latest;
  const result = await api.listJobs({});
  if (call !== latest) return;
  if (result.ok) useJobsStore.setState({ jobs: result.value });
  else useJobsStore.setState({ error: result.error.message, errorCode: result.error.code });
}

export function selectJob(id: string | null): void {
  useJobsStore.setState({ selectedId: id });
}

function upsert(summary: JobSummary): void {
  useJobsStore.setState((state) => {
    const others = (state.jobs ?? []).filter((job) => job.id !== summary.id);
    return { jobs: [summary, ...others].sort((a, b) => b.createdAt.localeCompare(a.createdAt)) };
  });
}

async function started(result: Result<JobSummary>): Promise<boolean> {
  if (!result.ok) {
    useJobsStore.setState({ error: result.error.message, errorCode: result.error.code });
    return false;
  }
  useJobsStore.setState({ error: null, errorCode: null, selectedId: result.value.id });
  upsert(result.value);
  return true;
}

export async function startDream(target: JobTarget): Promise<boolean> {
  return started(await api.startDream({ target }));
}

export async function startExtraction(source: ExtractionSource): Promise<boolean> {
  return started(await api.startExtraction({ source }));
}

export async function cancelJob(jobId: string): Promise<void> {
  const result = await api.cancelJob({ jobId });
  if (result.ok) upsert(result.value);
}

/** After an apply or a discard: the record changed on disk, show it as it is now. */
export async function jobDecided(): Promise<void> {
  await loadJobs();
}

/** Writes the approved files of a job's proposals; the record, applied or refused, is read again either way. */
export async function applyJob(args: RequestArgs<'applyJob'>): Promise<Result<RequestResults['applyJob']>> {
  const result = await api.applyJob(args);
  await jobDecided();
  return result;
}

/** Rejects every proposal of a job; the record is read again either way. */
export async function discardJob(args: RequestArgs<'discardJob'>): Promise<Result<RequestResults['discardJob']>> {
  const result = await api.discardJob(args);
  await jobDecided();
  return result;
}

export function clearJobError(): void {
  useJobsStore.setState({ error: null, errorCode: null });
}

api.onJobProgress((progress) => {
  const known = useJobsStore.getState().jobs?.some((job) => job.id === progress.jobId) ?? true;
  useJobsStore.setState((state) => ({ progress: { ...state.progress, [progress.jobId]: progress } }));
  // A job this page did not start (a reviewed dream, an automatic replay) shows up in the records while it runs.
  if (!known) void loadJobs();
});
api.onJobFinished((summary) => upsert(summary));
// A job may have finished while the connection was lost, its event unheard.
onReconnected(() => {
  if (useJobsStore.getState().jobs !== null) void loadJobs();
});
