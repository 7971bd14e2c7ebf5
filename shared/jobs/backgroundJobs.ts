import type { ProjectRef } from '../model/home';
import type { JobKind, JobStatus, JobTarget, JobTrigger, ProposalKind } from './jobTypes';

/** Which projects get reviewed dreams: none, every project, or the ones the user chose. */
export type ReviewedDreamsMode = 'off' | 'all' | 'chosen';

/** The background jobs' settings, kept in the app data folder beside the model settings. */
export interface BackgroundSettings {
  readonly reviewedDreams: {
    readonly mode: ReviewedDreamsMode;
    /** The projects of `chosen` (kept when the mode changes, so switching back restores the choice). */
    readonly projects: readonly ProjectRef[];
  };
  readonly autoExtraction: {
    readonly enabled: boolean;
    /** Only sessions with at least this many typed prompts are replayed. */
    readonly minPrompts: number;
    /** When it was turned on: older sessions are left alone (a home of thousands must not queue them all). */
    readonly since: string | null;
  };
  /** Input plus output tokens all background jobs together may use per day (local time). */
  readonly dailyTokenBudget: number;
  /**
   * Config roots where the user had this app turn Claude Code's own auto-dream off, so reviewed dreams take its
   * place: there `autoDreamEnabled: false` does not stop them.
   */
  readonly autoDreamTurnedOff: readonly AutoDreamTurnedOff[];
}

export interface AutoDreamTurnedOff {
  readonly configRoot: string;
  /** The history change set of the settings write (revert it to undo). */
  readonly changeSetId: string;
  readonly at: string;
}

export const DEFAULT_BACKGROUND_SETTINGS: BackgroundSettings = {
  reviewedDreams: { mode: 'off', projects: [] },
  autoExtraction: { enabled: false, minPrompts: 5, since: null },
  dailyTokenBudget: 1_000_000,
  autoDreamTurnedOff: [],
};

export const MIN_PROMPTS_LIMITS = { min: 1, max: 1000 } as const;
export const DAILY_TOKEN_BUDGET_LIMITS = { min: 10_000, max: 100_000_000 } as const;

export interface BackgroundSettingsPatch {
  readonly reviewedDreams?: { readonly mode: ReviewedDreamsMode };
  /** Turns reviewed dreams on or off for one project (the `chosen` list; the mode becomes `chosen` unless it is `all`). */
  readonly project?: ProjectRef & { readonly reviewedDreams: boolean };
  readonly autoExtraction?: { readonly enabled?: boolean; readonly minPrompts?: number };
  readonly dailyTokenBudget?: number;
}

/** Whether reviewed dreams are on for a project under these settings. */
export function reviewedDreamsOn(settings: BackgroundSettings, ref: ProjectRef): boolean {
  if (settings.reviewedDreams.mode === 'all') return true;
  if (settings.reviewedDreams.mode === 'off') return false;
  return settings.reviewedDreams.projects.some((p) => p.configRoot === ref.configRoot && p.slug === ref.slug);
}

/** The day's spending of all background jobs. */
export interface TokenBudgetStatus {
  /** The local day the figures are for, `YYYY-MM-DD`. */
  readonly day: string;
  readonly limit: number;
  /** Tokens finished background jobs used today, plus what a running one has used so far. */
  readonly spent: number;
  readonly exhausted: boolean;
  /** When waiting jobs may start again (the next local midnight); null while there is budget left. */
  readonly resumesAt: string | null;
}

/** A background job that is due but has not started, and why. */
export interface WaitingBackgroundJob {
  readonly kind: JobKind;
  readonly trigger: JobTrigger;
  /** The project (path or name) whose memory it will work on. */
  readonly label: string;
  readonly reason: 'budget' | 'queued';
  readonly since: string;
}

/** Claude Code's own auto-dream setting in one config root's `settings.json`, and whether the app can turn it off. */
export interface ClaudeCodeAutoDreamState {
  readonly configRoot: string;
  /** `autoDreamEnabled` as set; null when unset (Claude Code then follows a server-side flag). */
  readonly autoDreamEnabled: boolean | null;
  /** Why the app cannot change it from here (a read-only window); null when it can. */
  readonly cannotChange: string | null;
  /** When it is off because the user had this app turn it off: the change set that did it (revert it to undo). */
  readonly turnedOffByApp: AutoDreamTurnedOff | null;
}

/** What the Settings page and the inbox show about background jobs. */
export interface BackgroundStatus {
  readonly settings: BackgroundSettings;
  /** Whether this engine runs background jobs at all (the app shells do; one-shot CLI commands do not). */
  readonly active: boolean;
  readonly budget: TokenBudgetStatus;
  /** The background job running now, if any. */
  readonly runningJobId: string | null;
  readonly waiting: readonly WaitingBackgroundJob[];
  /** Why the last background job could not start or failed (no API key, a model error), newest first. */
  readonly problems: readonly { readonly at: string; readonly message: string }[];
  readonly claudeCodeAutoDream: readonly ClaudeCodeAutoDreamState[];
}

/** One file of a pending proposal set. */
export interface InboxFile {
  readonly path: string;
  readonly kind: ProposalKind;
  /** The file on disk is no longer what the job read: applying it would be refused as a conflict. */
  readonly stale: boolean;
}

/** A proposal set waiting for the user: a finished job whose proposals were neither applied nor discarded. */
export interface InboxEntry {
  readonly jobId: string;
  readonly kind: JobKind;
  readonly trigger: JobTrigger;
  readonly status: JobStatus;
  readonly target: JobTarget;
  /** The project's path or name, or the agent's type and scope. */
  readonly label: string;
  readonly memoryDir: string;
  readonly createdAt: string;
  readonly finishedAt: string | null;
  readonly summary: string | null;
  readonly files: readonly InboxFile[];
}

/** Pushed when a proposal set arrives or leaves the inbox, or when one of its files changed on disk. */
export interface ReviewInboxChange {
  readonly count: number;
  /** The proposal set that just arrived (a job finished with proposals); null for other changes. */
  readonly arrived: InboxEntry | null;
}
