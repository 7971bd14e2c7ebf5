import type { DiffPart } from './diffParts';
import type { LlmBackend } from './llmSettings';

export type JobKind = 'dream' | 'extraction';

/**
 * Who started a job: the user by hand, the reviewed-dream scheduler when Claude Code's gate would fire (in the
 * app, or `ccmem dream --due`), or the automatic extraction replay of a session that ended without one.
 */
export type JobTrigger = 'user' | 'schedule' | 'auto-extraction';

/** Whose memory a job works on: a project's auto memory, or one agent memory folder found by discovery. */
export type JobTarget =
  { readonly kind: 'project'; readonly configRoot: string; readonly slug: string } | { readonly kind: 'agent'; readonly dir: string };

/** Which transcript messages an extraction replay reads. Turns count the human prompts of a session, from 1. */
export type ExtractionSource =
  | {
      readonly kind: 'session';
      readonly configRoot: string;
      readonly slug: string;
      readonly sessionId: string;
      readonly fromTurn?: number;
      readonly toTurn?: number;
    }
  | { readonly kind: 'recent'; readonly configRoot: string; readonly slug: string; readonly count: number };

/**
 * `running` until the model stops; `ready` when proposals wait for review; `applied` or `discarded` once the
 * user decided; `failed` and `cancelled` keep whatever finished before (the chunks of an extraction that completed).
 */
export type JobStatus = 'running' | 'ready' | 'failed' | 'cancelled' | 'applied' | 'discarded';

/** The four phases of a dream (claude-code-state.md §7.2), and the two steps of an extraction pass. */
export type JobPhase = 'starting' | 'orient' | 'gather' | 'consolidate' | 'prune' | 'reading' | 'saving' | 'finished';

/** Why the model loop ended before the model said it was done. */
export type JobStopReason = 'turn-cap' | 'token-cap' | 'cost-cap';

export interface TokenUsage {
  readonly input: number;
  readonly output: number;
}

export interface JobProgress {
  readonly jobId: string;
  readonly kind: JobKind;
  readonly status: JobStatus;
  readonly phase: JobPhase;
  readonly turn: number;
  readonly maxTurns: number;
  /** Extraction batches: transcript chunks finished out of all; null for dreams. */
  readonly chunks: { readonly done: number; readonly total: number } | null;
  /** Memory files the job has staged a change for so far, relative to the memory folder. */
  readonly filesTouched: readonly string[];
  readonly usage: TokenUsage;
  /** US dollars so far; null when the model's price is unknown. */
  readonly costUsd: number | null;
}

export type ProposalKind = 'add' | 'modify' | 'delete';

/**
 * One source a proposed change rests on, as the model cited it: a line of one of the project's transcripts
 * (`sessionId`, with `agentId` for a sub-agent's file) or a line of a memory file as it was when the job started
 * (`file`). The job looked the line up: `verified` says whether it holds the quoted text.
 */
export interface ProposalEvidence {
  /** The transcript's session, or null for a memory file. */
  readonly sessionId: string | null;
  /** The sub-agent whose transcript it is (`agent-<id>.jsonl` under the session), or null. */
  readonly agentId: string | null;
  /** The memory file, relative to the memory folder, or null for a transcript. */
  readonly file: string | null;
  /** 1-based line of the JSONL transcript or of the memory file. */
  readonly line: number;
  /** The words the model quoted from that line. */
  readonly text: string;
  /** What the line really says (its readable text, shortened), or null when there is no such line. */
  readonly lineText: string | null;
  readonly verified: boolean;
  /** Why the citation could not be verified, or null when it was. */
  readonly problem: string | null;
}

/** One file the job proposes to change, as staged; nothing of it is on disk until the user applies it. */
export interface FileProposal {
  /** Relative to the memory folder, forward slashes. */
  readonly path: string;
  readonly kind: ProposalKind;
  /** sha256 of the file when the job started; null when it did not exist. A different file at apply time is a conflict. */
  readonly baseHash: string | null;
  readonly before: string | null;
  readonly after: string | null;
  /** The change split into hunks (see diffParts). */
  readonly parts: readonly DiffPart[];
  /** A unified diff of the whole change. */
  readonly diff: string;
  /**
   * What the model cited for this file over the whole job (empty: it cited nothing). Absent in records made
   * before jobs asked for citations.
   */
  readonly evidence?: readonly ProposalEvidence[];
}

/** A change the model asked for and the validator refused; the model saw the refusal as a tool error. */
export interface RefusedChange {
  /** The path exactly as the model wrote it. */
  readonly path: string;
  readonly kind: ProposalKind;
  readonly reason: string;
}

/** Where a job's memory lives, resolved when it started. */
export interface JobTargetInfo {
  readonly target: JobTarget;
  readonly memoryDir: string;
  /** The project's transcript folder the job may read, or null (agent memory). */
  readonly transcriptDir: string | null;
  /**
   * Transcript folders of the other projects that use the same memory folder (sessions started in sub-folders of
   * the repository), by project folder name; the job reads them as `@transcripts/<name>/`.
   */
  readonly linkedTranscriptDirs?: Readonly<Record<string, string>>;
  /** What the UI calls it: the project's path or display name, or the agent's type and scope. */
  readonly label: string;
}

/** The user's choice for one proposal. `hunks` takes only the listed hunks; `edit` writes the given text instead. */
export type ProposalDecision =
  | { readonly path: string; readonly decision: 'accept' }
  | { readonly path: string; readonly decision: 'reject' }
  | { readonly path: string; readonly decision: 'hunks'; readonly hunks: readonly number[] }
  | { readonly path: string; readonly decision: 'edit'; readonly content: string };

export interface AppliedFile {
  readonly path: string;
  readonly kind: ProposalKind;
}

export interface ConflictedFile {
  readonly path: string;
  readonly reason: string;
}

/** What happened when the user applied a job. */
export interface ApplyOutcome {
  readonly at: string;
  readonly applied: readonly AppliedFile[];
  readonly conflicts: readonly ConflictedFile[];
  readonly rejected: readonly string[];
  /** The history change set holding every applied file (revertable), or null when nothing was written. */
  readonly changeSetId: string | null;
}

/** A job as listed: everything but the proposals' contents. */
export interface JobSummary {
  readonly id: string;
  readonly kind: JobKind;
  /** Records kept before triggers existed read as `user`. */
  readonly trigger: JobTrigger;
  readonly status: JobStatus;
  readonly target: JobTargetInfo;
  readonly source: ExtractionSource | null;
  readonly createdAt: string;
  readonly finishedAt: string | null;
  /** What ran the model; absent in records made before there was a choice (they all used the API). */
  readonly via?: LlmBackend;
  readonly model: string;
  /** sha256 of the instructions and tool definitions the model was given (never the memory or transcript data). */
  readonly promptHash: string;
  readonly usage: TokenUsage;
  /** US dollars; null when the price is unknown or the job ran on a Claude subscription (tokens, not dollars). */
  readonly costUsd: number | null;
  readonly turns: number;
  /** The model's closing summary of what it changed and why. */
  readonly summary: string | null;
  readonly error: string | null;
  readonly stopReason: JobStopReason | null;
  readonly proposalCount: number;
  readonly refusedCount: number;
  readonly outcome: ApplyOutcome | null;
}

/** A whole job record as kept in the app data folder. */
export interface JobRecord extends JobSummary {
  readonly proposals: readonly FileProposal[];
  readonly refused: readonly RefusedChange[];
}

/** A job record as shown: secrets masked (•) in its summary and proposals unless they were asked to be revealed. */
export interface JobRecordView extends JobRecord {
  /** How many secrets are masked (0 when none, or when revealed). */
  readonly secretsMasked: number;
  /** The proposals holding a masked secret: editing one needs the revealed record, or the masks would be written. */
  readonly maskedProposals: readonly string[];
}

/** What an extraction replay would send before it starts, so the user sees the cost first. */
export interface ExtractionEstimate {
  readonly sessions: number;
  readonly messages: number;
  readonly chunks: number;
  readonly inputTokens: number;
  /** The worst case of the model's answers: every chunk using its whole output budget. */
  readonly maxOutputTokens: number;
  /** US dollars for that much input and output, or null when the model's price is unknown. */
  readonly costUsd: number | null;
  readonly model: string;
}

/** Claude Code's own auto-dream gate for one project (claude-code-state.md §7.3), as far as files can tell. */
export interface DreamGate {
  /** The lock's mtime, or null when there is no lock (never consolidated). */
  readonly lastConsolidatedAt: string | null;
  readonly hoursSince: number | null;
  readonly sessionsSince: number;
  readonly minHours: number;
  readonly minSessions: number;
  /** `autoDreamEnabled` from the user settings; null when unset (Claude Code then follows a server-side flag). */
  readonly autoDreamEnabled: boolean | null;
  readonly autoMemoryEnabled: boolean;
  /** Why `settings.json` could not be used (unreadable, invalid JSON, not an object); null when it was read or is absent. */
  readonly settingsProblem: string | null;
  readonly holder: { readonly pid: number; readonly alive: boolean; readonly stale: boolean } | null;
  /** Whether the gate would let an auto-dream start now; null when it depends on the unknown server flag. */
  readonly wouldFire: boolean | null;
  /** Why not (or what is unknown), in words. */
  readonly reasons: readonly string[];
}
