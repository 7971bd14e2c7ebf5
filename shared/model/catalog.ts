import type { TitleSource } from './session';

/** Token counts of one session or sub-agent, deduplicated by `message.id` (the entry with the most output tokens wins). */
export interface TokenTotals {
  readonly input: number;
  readonly output: number;
  readonly cacheCreation: number;
  readonly cacheRead: number;
}

/** A pull request Claude Code linked to the session (`pr-link` lines). */
export interface PullRequestLink {
  readonly url: string;
  readonly number: number | null;
  /** `owner/name` as Claude Code recorded it. */
  readonly repository: string | null;
}

/** Where a sub-agent's turns were written: inline in the session (≤ 1.0), beside it (2.0) or in `<session>/subagents/` (2.1+). */
export type SubagentLayout = 'inline' | 'sibling' | 'subagents-folder';

export interface SubagentSummary {
  /** The file's agent id (`agent-<id>.jsonl`), or for inline runs the uuid of the run's first line. */
  readonly agentId: string;
  /**
   * From `meta.json` `agentType`, else the `subagent_type` of the Task/Agent call that started it, else the purpose
   * a helper agent's id names (`acompact-…` → `compact`, `aprompt_suggestion-…` → `prompt_suggestion`); null when unknown.
   */
  readonly agentType: string | null;
  readonly description: string | null;
  readonly layout: SubagentLayout;
  /** The sub-agent's own transcript, or the session file for inline runs. */
  readonly path: string;
  readonly tokens: TokenTotals;
  readonly models: readonly string[];
  readonly assistantTurns: number;
  readonly toolCalls: number;
  readonly firstTimestamp: string | null;
  readonly lastTimestamp: string | null;
  readonly badLines: number;
  /** The sub-agent whose Agent call started this one (nested agents, `meta.json` `parentAgentId`); null otherwise. */
  readonly parentAgentId: string | null;
  /** 1 for an agent the session started, 2 for an agent's agent, … (`meta.json` `spawnDepth`). */
  readonly depth: number;
  /** The workflow run it belongs to (`subagents/workflows/<runId>/`), or null. */
  readonly workflowRunId: string | null;
}

export interface CompactionEvent {
  readonly timestamp: string | null;
  /** `manual` or `auto` as Claude Code recorded it; null when absent. */
  readonly trigger: string | null;
  readonly preTokens: number | null;
  readonly postTokens: number | null;
}

/** Everything the catalog knows about one session, read once and updated from the saved offset as the file grows. */
export interface SessionCatalogEntry {
  readonly configRoot: string;
  readonly slug: string;
  readonly sessionId: string;
  /** The session's `<sessionId>.jsonl` (where it would be, for a session whose file is gone: see `mainTranscript`). */
  readonly path: string;
  /**
   * False for a session whose `<sessionId>.jsonl` is gone while its `<sessionId>/subagents/` folder stayed
   * (Claude Code's cleanup, a partial backup): it is listed with what its sub-agents did.
   */
  readonly mainTranscript: boolean;
  readonly title: string | null;
  readonly titleSource: TitleSource;
  readonly firstTimestamp: string | null;
  readonly lastTimestamp: string | null;
  /** Last minus first timestamp; null when the session has fewer than two timestamps. */
  readonly durationMs: number | null;
  /** Every distinct value in the order first seen. */
  readonly cwds: readonly string[];
  readonly gitBranches: readonly string[];
  readonly versions: readonly string[];
  readonly models: readonly string[];
  /** Prompts a human typed: user lines that are not meta, not tool results, not command wrappers, not compaction summaries. */
  readonly userPrompts: number;
  /** Distinct `message.id`s of real assistant responses (not `<synthetic>`, not API errors). */
  readonly assistantTurns: number;
  readonly toolCalls: number;
  /** The main session's tokens only; each sub-agent counts its own. */
  readonly tokens: TokenTotals;
  readonly subagents: readonly SubagentSummary[];
  readonly compactions: readonly CompactionEvent[];
  /** Absolute paths of memory files read (Read) or written (Write/Edit/MultiEdit), by the session or its sub-agents. */
  readonly memoryReads: readonly string[];
  readonly memoryWrites: readonly string[];
  /** Whether `<slug>/<sessionId>/session-memory/summary.md` exists. */
  readonly hasSessionMemory: boolean;
  /**
   * Claude Code deleted the session's transcript (it removes sessions older than `cleanupPeriodDays`): everything
   * shown comes from the app's archived copy, and the session can no longer be resumed.
   */
  readonly archived: boolean;
  /** Pull requests Claude Code linked to the session (`pr-link` lines), oldest first. */
  readonly prLinks: readonly PullRequestLink[];
  /** The session's agent name (`agent-name` lines; `/rename` sets it too), or null. */
  readonly agentName: string | null;
  /** The session's last mode (`mode` lines: `normal`, `coordinator`), or null. */
  readonly mode: string | null;
  readonly bytes: number;
  /** Lines that could not be used: invalid JSON or UTF-8, NUL bytes, over-long lines; in the session and its sub-agents. */
  readonly badLines: number;
  /** ISO mtime of the session file. */
  readonly mtime: string;
  /**
   * Set on a timeline row made from the ends of the session's file only (what discovery reads), shown on an app's
   * first start until the catalog has read the whole file: its counts, tokens, models and sub-agents are not known
   * yet (zero or empty here). A `sessionUpdated` replaces it with the full entry.
   */
  readonly provisional?: true;
}

/** A session by its identity, e.g. one that disappeared. */
export interface SessionKey {
  readonly configRoot: string;
  readonly slug: string;
  readonly sessionId: string;
}

export interface CatalogProgress {
  /** Files looked at so far (cached ones count at once) and in total. */
  readonly done: number;
  readonly total: number;
  /** Bytes read so far and bytes that must be read (cached bytes are not counted). */
  readonly bytesDone: number;
  readonly bytesTotal: number;
  /** False once the build finished, was cancelled or failed. */
  readonly running: boolean;
  readonly cancelled: boolean;
}

/** The most sessions one page of the listing may hold. */
export const MAX_CATALOG_PAGE = 100_000;
/**
 * The timeline lists sessions in pages: a first one small enough to show the top of the timeline at once, then the
 * rest in big ones. On a 10 GB home the whole listing is 33 MB and took about a second through the web shell's
 * WebSocket (docs/performance.md, round seven).
 */
export const FIRST_LISTING_PAGE = 200;
export const LATER_LISTING_PAGE = 5000;

export interface CatalogListing {
  /** Newest first: every session, or one page of them when the request gave a `limit`. */
  readonly sessions: readonly SessionCatalogEntry[];
  /** How many sessions the whole listing holds. */
  readonly total: number;
  /**
   * Asks for the pages after this one (`snapshot` and `offset`), in the order this listing had when its first page was
   * taken; null when this page ends the listing.
   */
  readonly snapshot: string | null;
  /** True while the catalog is being built or refreshed in the background; more `sessionUpdated` events follow. */
  readonly building: boolean;
  readonly progress: CatalogProgress | null;
}

/** Pushed when sessions were added, grew or went away. */
export interface SessionUpdate {
  readonly updated: readonly SessionCatalogEntry[];
  readonly removed: readonly SessionKey[];
}
