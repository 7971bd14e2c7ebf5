import type { ProjectRef } from './home';

export type SearchHitKind = 'transcript' | 'memory';

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
  /** The session the transcript belongs to (a sub-agent's parent session); null for memory files. */
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
