import type { HistoryChangedEvent, HistoryReconstructionEvent } from '../history/historyRequestSchemas';
import type { BackgroundStatus, ReviewInboxChange } from '../jobs/backgroundJobs';
import type { JobProgress, JobSummary } from '../jobs/jobTypes';
import type { MemoryFolderRef } from '../memory/memoryFolderRef';
import type { HomeSnapshot } from '../model/home';
import type { ArchiveProgress, ArchiveStatus } from '../model/archive';
import type { CatalogProgress, SessionUpdate } from '../model/catalog';
import type { SearchDoneEvent, SearchHitsEvent } from '../model/search';
import type { TranscriptChangedEvent } from '../transcript/transcriptOutline';

/** A memory file changed: by Claude Code, a dream, an editor, or this app (`byApp`). */
export interface MemoryChangedEvent {
  readonly folder: MemoryFolderRef;
  /** Relative to the memory folder; `.consolidate-lock` when a dream started or ended. */
  readonly relativePath: string;
  readonly event: 'add' | 'change' | 'unlink';
  readonly byApp: boolean;
}

/** Agent memory or a snapshot changed on disk (Claude Code wrote it, a pull brought it, or this app did). */
export interface AgentMemoriesChangedEvent {
  /** The agent folders (`…/agent-memory/<type>`, `…/agent-memory-snapshots/<type>`, …) that changed. */
  readonly folders: readonly string[];
}

/** Every event the engine pushes to the renderer, with its payload type. */
export interface EventPayloads {
  homeChanged: HomeSnapshot;
  jobProgress: JobProgress;
  jobFinished: JobSummary;
  reviewInboxChanged: ReviewInboxChange;
  backgroundStatusChanged: BackgroundStatus;
  memoryChanged: MemoryChangedEvent;
  agentMemoriesChanged: AgentMemoriesChangedEvent;
  transcriptChanged: TranscriptChangedEvent;
  catalogProgress: CatalogProgress;
  sessionUpdated: SessionUpdate;
  searchHits: SearchHitsEvent;
  searchDone: SearchDoneEvent;
  historyChanged: HistoryChangedEvent;
  /** A transcript archive run moved on, finished or was cancelled. */
  archiveProgress: ArchiveProgress;
  /** What the archive holds or how it is set changed. */
  archiveChanged: ArchiveStatus;
  historyReconstruction: HistoryReconstructionEvent;
}

export type EventName = keyof EventPayloads;

/** Runtime list of event names; `satisfies` keeps it in step with `EventPayloads`. */
export const eventNames = [
  'homeChanged',
  'jobProgress',
  'jobFinished',
  'reviewInboxChanged',
  'backgroundStatusChanged',
  'memoryChanged',
  'agentMemoriesChanged',
  'transcriptChanged',
  'catalogProgress',
  'sessionUpdated',
  'searchHits',
  'searchDone',
  'historyChanged',
  'archiveProgress',
  'archiveChanged',
  'historyReconstruction',
] as const satisfies readonly EventName[];

/** The name of a subscriber method on the renderer's Api: `homeChanged` → `onHomeChanged`. */
export type SubscriberName<E extends EventName> = `on${Capitalize<E>}`;

export function subscriberName<E extends EventName>(event: E): SubscriberName<E> {
  return `on${event.charAt(0).toUpperCase()}${event.slice(1)}` as SubscriberName<E>;
}
