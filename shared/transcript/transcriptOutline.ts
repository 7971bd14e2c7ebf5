import type { UnreachableLine } from './lineReachability';
import type { TranscriptEntry } from './transcriptEntry';

/** Which conversation of a session file to show, and how. */
export interface TranscriptViewSpec {
  /** null: the main conversation; otherwise the sub-agent run to show. */
  readonly agentId: string | null;
  /** null: the live branch (where Claude Code would resume); otherwise the branch ending at this entry. */
  readonly leafUuid: string | null;
  /** Show `isMeta` lines (not typed by the human: skill bodies, caveats, injected context). */
  readonly showMeta: boolean;
  /** Show bookkeeping lines: titles, modes, file snapshots, queue operations, progress mirrors. */
  readonly showMetadata: boolean;
}

export const LIVE_VIEW: TranscriptViewSpec = { agentId: null, leafUuid: null, showMeta: false, showMetadata: false };

/** One way to go at a fork, or a conversation root the shown branch does not reach. */
export interface BranchChoice {
  /** The leaf to ask for (`TranscriptViewSpec.leafUuid`) to show this branch. */
  readonly leafUuid: string;
  readonly firstLine: number;
  readonly timestamp: string | null;
  /** Entries in the branch from the fork on. */
  readonly entryCount: number;
  /** A short preview of the first entry of the branch. */
  readonly preview: string;
  readonly current: boolean;
}

export interface ForkPoint {
  /** The row of the entry whose children split. */
  readonly row: number;
  /** Every way on from here, the shown one included (marked `current`), oldest first. */
  readonly choices: readonly BranchChoice[];
}

export interface CompactionMark {
  readonly row: number;
  readonly trigger: string | null;
  readonly preTokens: number | null;
  readonly postTokens: number | null;
  readonly timestamp: string | null;
}

export type SubagentLayout = 'inline' | 'sibling-file' | 'subagents-folder';

export interface SubagentSummary {
  readonly agentId: string;
  readonly agentType: string | null;
  readonly description: string | null;
  readonly layout: SubagentLayout;
  /** The sub-agent's own transcript file (the session file itself for inline runs). */
  readonly path: string;
  /** The Agent/Task call that started it, when it could be linked. */
  readonly toolUseId: string | null;
  /** The line of that call in the session file. */
  readonly callLine: number | null;
  /** The row of that call in the live main branch, when it is there. */
  readonly row: number | null;
  readonly firstTimestamp: string | null;
  /** The sub-agent whose Agent call started this one (nested agents); null for an agent of the session itself. */
  readonly parentAgentId: string | null;
  /** 1 for an agent of the session itself, 2 for an agent's agent, … */
  readonly depth: number;
  /** The workflow run it belongs to (`subagents/workflows/<runId>/`), or null. */
  readonly workflowRunId: string | null;
}

export interface TranscriptStats {
  readonly lines: number;
  /** Lines that could not be read as JSON objects (invalid JSON or UTF-8, binary, longer than the line limit). */
  readonly badLines: number;
  readonly tooLongLines: number;
  readonly duplicateUuids: number;
  readonly danglingParents: number;
  readonly cycles: number;
  readonly progressBridged: number;
  /** User and assistant lines no branch reaches (see `TranscriptOutline.unreachable`). */
  readonly unreachableLines: number;
}

export interface ResumeCommands {
  /** `claude --resume <id>`, run in the session's directory. */
  readonly resume: string;
  readonly fork: string;
  /** The resume command with a `cd` to the session's directory first, ready to paste into a terminal. */
  readonly copyResume: string;
  readonly copyFork: string;
}

/** What the viewer needs before it reads any page: counts, forks, compactions, sub-agents and the session's facts. */
export interface TranscriptOutline {
  readonly sessionId: string;
  readonly configRoot: string;
  readonly slug: string;
  readonly path: string;
  readonly bytes: number;
  /** Changes whenever the file was replaced or shrank and had to be read again from the start. */
  readonly generation: number;
  /** While a huge file is still being indexed in the background: how far it got (rows grow as it goes). */
  readonly indexing: { readonly indexedBytes: number; readonly totalBytes: number } | null;
  /** The file the rows come from: the session file, or a sub-agent's own file. */
  readonly shownPath: string;
  readonly title: string | null;
  readonly cwd: string | null;
  /** Whether the session's directory exists on this machine (resume needs it). */
  readonly cwdExists: boolean;
  readonly gitBranch: string | null;
  readonly version: string | null;
  readonly firstTimestamp: string | null;
  readonly lastTimestamp: string | null;
  readonly view: TranscriptViewSpec;
  readonly rowCount: number;
  /** Whether the rows are the branch Claude Code would resume. */
  readonly isLiveBranch: boolean;
  readonly forks: readonly ForkPoint[];
  /** Conversation roots the shown branch does not reach (forked or dangling histories). */
  readonly otherRoots: readonly BranchChoice[];
  readonly compactions: readonly CompactionMark[];
  /** User and assistant lines of the shown file that no branch reaches, with the reason (the first 200). */
  readonly unreachable: readonly UnreachableLine[];
  /** False when the session file is gone and only its sub-agents are left: the rows are empty, the sub-agents open. */
  readonly mainTranscript: boolean;
  readonly subagents: readonly SubagentSummary[];
  /** The sub-agent shown, when the view is one. */
  readonly agent: SubagentSummary | null;
  /** The row to scroll to when the outline was asked for with a line to focus. */
  readonly focusRow: number | null;
  readonly stats: TranscriptStats;
  readonly hasSessionMemory: boolean;
  readonly resume: ResumeCommands;
  /** Claude Code deleted the transcript (`cleanupPeriodDays`): the rows come from the app's archived copy. */
  readonly archived: boolean;
  /** Why the session cannot be resumed (it is archived); null when it can. */
  readonly resumeUnavailable: string | null;
}

export interface TranscriptRow {
  readonly row: number;
  readonly entry: TranscriptEntry;
}

export interface TranscriptPage {
  readonly generation: number;
  readonly start: number;
  readonly rows: readonly TranscriptRow[];
}

export interface TranscriptFindHit {
  readonly row: number;
  readonly line: number;
  readonly preview: string;
}

export interface TranscriptFindResult {
  readonly hits: readonly TranscriptFindHit[];
  /** More hits exist than were returned. */
  readonly truncated: boolean;
}

/** One page of a tool's full output that Claude Code spilled to `<session>/tool-results/`. */
export interface ToolOutputPage {
  readonly fileName: string;
  /** The file on this machine. */
  readonly path: string;
  readonly exists: boolean;
  readonly totalBytes: number;
  /** Byte offset of `text` in the file. */
  readonly offset: number;
  readonly text: string;
  /** Where the next page starts, or null at the end. */
  readonly nextOffset: number | null;
}

export interface SessionMemorySection {
  readonly title: string;
  /** The template's italic guidance line under the header, when present. */
  readonly description: string | null;
  readonly content: string;
}

export interface SessionMemory {
  readonly path: string;
  readonly exists: boolean;
  readonly sections: readonly SessionMemorySection[];
  readonly modified: string | null;
}

export type TranscriptExportFormat = 'markdown' | 'html';

export interface TranscriptExportChunk {
  readonly fileName: string;
  readonly mimeType: string;
  readonly text: string;
  /** Pass back to get the next chunk; null when this was the last. */
  readonly nextCursor: number | null;
  readonly totalRows: number;
}

/** What a shell did with a resume request. */
export interface ResumeLaunch {
  readonly command: string;
  readonly cwd: string;
  readonly terminal: string;
}

export interface TerminalSetting {
  /** The command line that opens a terminal; placeholders: {cwd}, {command}, {script}, {scriptForAppleScript}. */
  readonly command: string;
  readonly defaultCommand: string;
  readonly isDefault: boolean;
}

/** An open transcript (or one of its sub-agent files) grew or was replaced: re-read its outline and new rows. */
export interface TranscriptChangedEvent {
  readonly configRoot: string;
  readonly slug: string;
  readonly sessionId: string;
  readonly generation: number;
  readonly bytes: number;
}
