import { z } from 'zod';
import {
  SNAPSHOT_COMMANDS,
  type AgentMemorySummary,
  type AgentSnapshotDiff,
  type SnapshotActionResult,
  type SnapshotPlan,
} from '../model/agents';
import {
  apiKeySchema,
  applyJobSchema,
  backgroundSettingsPatchSchema,
  configRootArgsSchema,
  backendSchema,
  connectionTestSchema,
  extractionSourceSchema,
  jobIdSchema,
  jobTargetSchema,
  llmSettingsPatchSchema,
} from '../jobs/jobRequestSchemas';
import type { BackgroundStatus, InboxEntry } from '../jobs/backgroundJobs';
import type { ApplyOutcome, DreamGate, ExtractionEstimate, JobRecordView, JobSummary } from '../jobs/jobTypes';
import type { ConnectionTestResult, LlmSettingsView } from '../jobs/llmSettings';
import { historyRequestSchemas, type HistoryRequestResults } from '../history/historyRequestSchemas';
import { memoryRequestSchemas } from '../memory/memoryRequestSchemas';
import type { MemoryChangeResult, MemoryFileContent, MemoryReview } from '../memory/memoryReview';
import type { MemoryFixPlan } from '../memory/fixes/memoryFix';
import type { HomeSnapshot } from '../model/home';
import type { MemoryFolderListing } from '../model/memory';
import type { SessionSummary } from '../model/session';
import type {
  ResumeLaunch,
  SessionMemory,
  TerminalSetting,
  TranscriptExportChunk,
  TranscriptFindResult,
  TranscriptOutline,
  TranscriptPage,
  ToolOutputPage,
} from '../transcript/transcriptOutline';
import { transcriptRequestSchemas } from '../transcript/transcriptRequestSchemas';
import { archiveRequestSchemas, type ArchiveRequestResults } from '../archive/archiveRequestSchemas';
import type { TranscriptUsage } from '../transcript/turnUsage';
import { catalogRequestSchemas } from '../catalog/catalogRequestSchemas';
import type { CatalogListing, CatalogProgress } from '../model/catalog';
import type { ShellCapability } from './capabilities';
import type { requestNames } from './channels';

/** Slugs are single folder names under `projects/`: no separators, no dot segments, no NUL. */
const slugSchema = z
  .string()
  .min(1)
  .max(4096)
  .refine((s) => !/[/\\\0]/.test(s) && s !== '.' && s !== '..', 'must be a single folder name');

export const projectRefSchema = z.strictObject({
  configRoot: z.string().min(1).max(4096),
  slug: slugSchema,
});

const noArgs = z.strictObject({});

/** An agent memory folder the engine discovered itself; it is matched against that list, never used blindly. */
const agentDirSchema = z.string().min(1).max(4096);
/** A file or agent type directly in a memory or snapshot folder: one name, no separators or dot segments. */
const singleNameSchema = z
  .string()
  .min(1)
  .max(255)
  .refine((s) => !/[/\\\0]/.test(s) && s !== '.' && s !== '..', 'must be a single file name');
const snapshotActionSchema = z.strictObject({
  dir: agentDirSchema,
  command: z.enum(SNAPSHOT_COMMANDS),
  files: z.array(singleNameSchema).max(10_000).optional(),
  agentType: singleNameSchema.optional(),
});

/**
 * Every request the renderer can make, with the schema its argument must pass at the boundary.
 * `mutates` marks requests that change something: a file, the home every client of the server sees, a process
 * started, or work another client started; a read-only server refuses them. test/reliability/webShell/requestFlags
 * names each request's flag, so a new request cannot be added without deciding.
 */
export const requestSchemas = {
  getHome: { args: noArgs, mutates: false },
  refreshHome: { args: noArgs, mutates: false },
  openDemoHome: { args: noArgs, mutates: true },
  listSessions: { args: projectRefSchema, mutates: false },
  listMemoryFiles: { args: projectRefSchema, mutates: false },
  listAgentMemories: { args: noArgs, mutates: false },
  getAgentSnapshotDiff: { args: z.strictObject({ dir: agentDirSchema }), mutates: false },
  planAgentSnapshotAction: { args: snapshotActionSchema, mutates: false },
  applyAgentSnapshotAction: {
    args: snapshotActionSchema.extend({ expectedToken: z.string().max(128).optional(), overwriteNewer: z.boolean().optional() }),
    mutates: true,
  },
  getLlmSettings: { args: noArgs, mutates: false },
  updateLlmSettings: {
    args: llmSettingsPatchSchema,
    mutates: true,
    // The base URL is where the API key goes: a token holder of the web shell must not point it at their own server.
    needs: (args: z.infer<typeof llmSettingsPatchSchema>): ShellCapability | null =>
      args.baseUrl === undefined ? null : 'changeLlmEndpoint',
  },
  setApiKey: { args: apiKeySchema, mutates: true },
  clearApiKey: { args: noArgs, mutates: true },
  testLlmConnection: { args: connectionTestSchema, mutates: false },
  getDreamGate: { args: projectRefSchema, mutates: false },
  startDream: { args: z.strictObject({ target: jobTargetSchema, via: backendSchema.optional() }), mutates: true },
  estimateExtraction: { args: z.strictObject({ source: extractionSourceSchema }), mutates: false },
  startExtraction: { args: z.strictObject({ source: extractionSourceSchema, via: backendSchema.optional() }), mutates: true },
  cancelJob: { args: jobIdSchema, mutates: true },
  listJobs: { args: noArgs, mutates: false },
  getJob: {
    args: jobIdSchema.extend({ revealSecrets: z.boolean().optional() }),
    mutates: false,
    // Secrets in the summary and proposals are masked unless revealed, which only the desktop app does.
    needs: (args: { readonly revealSecrets?: boolean }): ShellCapability | null => (args.revealSecrets === true ? 'revealSecrets' : null),
  },
  applyJob: { args: applyJobSchema, mutates: true },
  discardJob: { args: jobIdSchema, mutates: true },
  getReviewInbox: { args: noArgs, mutates: false },
  getBackgroundStatus: { args: noArgs, mutates: false },
  // Settings of the app itself; they start jobs that take `.consolidate-lock`, so a read-only window may not change them.
  updateBackgroundSettings: { args: backgroundSettingsPatchSchema, mutates: true },
  turnOffClaudeCodeAutoDream: { args: configRootArgsSchema, mutates: true },
  ...memoryRequestSchemas,
  ...transcriptRequestSchemas,
  ...catalogRequestSchemas,
  ...historyRequestSchemas,
  ...archiveRequestSchemas,
  rendererReady: { args: noArgs, mutates: false },
} as const;

export type RequestName = keyof typeof requestSchemas;

type SameKeys<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type AssertTrue<T extends true> = T;

/** Every channel has a schema and every schema a channel; a mismatch fails to compile. */
export type ChannelListMatchesSchemas = AssertTrue<SameKeys<RequestName, (typeof requestNames)[number]>>;

export type RequestArgs<K extends RequestName> = z.infer<(typeof requestSchemas)[K]['args']>;

/** The result type of every request; keys must match `requestSchemas`. */
export interface RequestResults extends HistoryRequestResults, ArchiveRequestResults {
  getHome: HomeSnapshot;
  refreshHome: HomeSnapshot;
  openDemoHome: HomeSnapshot;
  listSessions: readonly SessionSummary[];
  listMemoryFiles: MemoryFolderListing;
  listAgentMemories: readonly AgentMemorySummary[];
  getAgentSnapshotDiff: AgentSnapshotDiff;
  planAgentSnapshotAction: SnapshotPlan;
  applyAgentSnapshotAction: SnapshotActionResult;
  getLlmSettings: LlmSettingsView;
  updateLlmSettings: LlmSettingsView;
  setApiKey: LlmSettingsView;
  clearApiKey: LlmSettingsView;
  testLlmConnection: ConnectionTestResult;
  getDreamGate: DreamGate;
  startDream: JobSummary;
  estimateExtraction: ExtractionEstimate;
  startExtraction: JobSummary;
  cancelJob: JobSummary;
  listJobs: readonly JobSummary[];
  getJob: JobRecordView;
  applyJob: ApplyOutcome;
  discardJob: JobSummary;
  getReviewInbox: readonly InboxEntry[];
  getBackgroundStatus: BackgroundStatus;
  updateBackgroundSettings: BackgroundStatus;
  turnOffClaudeCodeAutoDream: BackgroundStatus;
  getMemoryReview: MemoryReview;
  readMemoryFile: MemoryFileContent;
  saveMemoryFile: MemoryChangeResult;
  createMemoryFile: MemoryChangeResult;
  renameMemoryFile: MemoryChangeResult;
  pruneMemoryFile: MemoryChangeResult;
  undoMemoryChange: MemoryChangeResult;
  planMemoryFix: MemoryFixPlan;
  applyMemoryFix: MemoryChangeResult;
  openTranscript: TranscriptOutline;
  readTranscriptPage: TranscriptPage;
  findInTranscript: TranscriptFindResult;
  readTranscriptUsage: TranscriptUsage;
  readSessionMemory: SessionMemory;
  readToolOutput: ToolOutputPage;
  exportTranscript: TranscriptExportChunk;
  resumeSession: ResumeLaunch;
  getTerminalSetting: TerminalSetting;
  setTerminalSetting: TerminalSetting;
  getSessionCatalog: CatalogListing;
  refreshSessionCatalog: CatalogProgress | null;
  cancelCatalogBuild: null;
  startSearch: { readonly searchId: string };
  cancelSearch: null;
  rendererReady: null;
}
