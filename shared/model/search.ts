import type { ProjectRef } from './home';

/**
 * Where a hit is: a transcript (a session or a sub-agent), a project's auto memory, an agent's memory (any scope),
 * a session's `session-memory/summary.md`, or a tool's full output spilled to `<session>/tool-results/`.
 */
export const SEARCH_HIT_KINDS = ['transcript', 'memory', 'agent-memory', 'session-memory', 'tool-output'] as const;
export type SearchHitKind = (typeof SEARCH_HIT_KINDS)[number];

/** The longest query and the most hits a search takes (the UI's requests and `ccmem search` alike). */
export const MAX_SEARCH_QUERY_LENGTH = 500;
export const MAX_SEARCH_LIMIT = 10_000;

/** Which files a search reads; every field narrows it, null means "any". */
export interface SearchScope {
  readonly projects: readonly ProjectRef[] | null;
  readonly kinds: readonly SearchHitKind[] | null;
  /** ISO times: only files last changed in this range (inclusive). */
  readonly changedAfter: string | null;
  readonly changedBefore: string | null;
}

export const ANY_SCOPE: SearchScope = { projects: null, kinds: null, changedAfter: null, changedBefore: null };

/** Whether a file (by its kind, project and modification time) is within a search's scope. */
export function inSearchScope(
  file: { readonly kind: SearchHitKind; readonly configRoot: string; readonly slug: string; readonly mtimeMs: number },
  scope: SearchScope,
): boolean {
  if (scope.kinds !== null && !scope.kinds.includes(file.kind)) return false;
  if (scope.projects !== null && !scope.projects.some((p) => p.configRoot === file.configRoot && p.slug === file.slug)) return false;
  if (scope.changedAfter !== null && file.mtimeMs < Date.parse(scope.changedAfter)) return false;
  if (scope.changedBefore !== null && file.mtimeMs > Date.parse(scope.changedBefore)) return false;
  return true;
}

/** One line that contains the query. */
export interface SearchHit {
  readonly kind: SearchHitKind;
  readonly configRoot: string;
  readonly slug: string;
  /** The session the file belongs to (a sub-agent's parent session, a spilled output's, a session memory's); null for memory files. */
  readonly sessionId: string | null;
  /** Set when the hit is in a sub-agent's own transcript. */
  readonly agentId: string | null;
  readonly path: string;
  /** 1-based line number in `path`. */
  readonly line: number;
  /** Readable text around the first match on the line. */
  readonly preview: string;
  /** Where the match sits inside `preview` (UTF-16 offsets), for highlighting. */
  readonly matchStart: number;
  readonly matchLength: number;
  /** ISO mtime of the file: results come newest file first. */
  readonly fileTime: string;
  /** For agent memory: the agent's type; null otherwise. */
  readonly agentType: string | null;
  /**
   * A transcript line that records what Claude Code sent to the API (2.1.3xx `api-request*`, `prompt_snapshot`,
   * `cost-state`, `atis-latch`): left out of a search unless it asks for them.
   */
  readonly requestRecord: boolean;
  /** Claude Code deleted the transcript: the hit comes from the app's archived copy. */
  readonly archived: boolean;
}

export interface SearchHitsEvent {
  readonly searchId: string;
  readonly hits: readonly SearchHit[];
}

export interface SearchDoneEvent {
  readonly searchId: string;
  readonly hitCount: number;
  readonly filesScanned: number;
  readonly bytesScanned: number;
  /** True when the search stopped at its limit of hits. */
  readonly truncated: boolean;
  readonly cancelled: boolean;
  readonly error: string | null;
}
