import type { AgentMemoryWatch } from './agents/AgentMemoryWatch';
import type { AgentSnapshotService } from './agents/AgentSnapshotService';
import type { CatalogService } from './catalog/CatalogService';
import type { LineIndexKeeper } from './catalog/LineIndexKeeper';
import type { ChangeSetWriter } from './changes/changeSetWriter';
import type { HistoryStore } from './changes/HistoryStore';
import type { ArchiveService } from './history/archive/ArchiveService';
import type { HistoryService } from './history/HistoryService';
import type { HomeService } from './home/HomeService';
import type { BackgroundJobScheduler } from './jobs/BackgroundJobScheduler';
import type { JobService } from './jobs/JobService';
import type { ReviewInbox } from './jobs/ReviewInbox';
import type { MemoryFixService } from './memory/MemoryFixService';
import type { MemoryReviewService } from './memory/MemoryReviewService';
import type { SearchService } from './search/SearchService';
import type { LlmSettingsService } from './settings/LlmSettingsService';
import type { TranscriptService } from './transcripts/TranscriptService';
import type { TranscriptSources } from './transcripts/transcriptSources';
import type { LiveHome } from './watch/liveHome';

/** Every engine service, constructed once; handlers and event forwarding are derived from it. */
export interface EngineServices {
  readonly home: HomeService;
  readonly live: LiveHome | null;
  /** Every version of every memory file the app changed or saw change, in the app data folder. */
  readonly history: HistoryStore;
  /** The one path every change this app makes to memory (and any file it changes) goes through. */
  readonly writer: ChangeSetWriter;
  /** Memory history: versions recorded and attributed, timeline, diffs, dreams after the fact, restore and revert. */
  readonly memoryHistory: HistoryService;
  readonly agentSnapshots: AgentSnapshotService;
  /** Follows agent memory and snapshots inside projects (the app shells only). */
  readonly agentWatch: AgentMemoryWatch | null;
  readonly llmSettings: LlmSettingsService;
  /** Dreams and extraction replays. */
  readonly jobs: JobService;
  /** Every proposal set waiting for the user, across projects and agent memories. */
  readonly inbox: ReviewInbox;
  /** Reviewed dreams on Claude Code's schedule and automatic extraction replays (running only in the app shells). */
  readonly background: BackgroundJobScheduler;
  /** Memory review: findings, what the model sees, safe edits with undo. */
  readonly memory: MemoryReviewService;
  /** Cures for the review's findings: planned with their diff, applied as one change set with one undo. */
  readonly memoryFixes: MemoryFixService;
  /** The transcript viewer: indexed session files, pages, find, export, live appends. */
  readonly transcripts: TranscriptService;
  /** The session catalog (timeline), cached in the app data folder and updated live. */
  readonly catalog: CatalogService;
  /** Saved line indexes of the big transcripts, kept after each catalog build so a first open needs no full read. */
  readonly lineIndexes: LineIndexKeeper;
  /** Search over every transcript and memory file, in worker threads. */
  readonly search: SearchService;
  /** The transcript archive against Claude Code's cleanup: kept up to date in the background, settings, prune. */
  readonly archive: ArchiveService;
  /**
   * Where transcripts are read: the disk, or the archived copy once Claude Code deleted a file. The "path → lines"
   * reader for features that read transcripts (and `archive.archive.files()` lists every archived one).
   */
  readonly transcriptSources: TranscriptSources;
}
