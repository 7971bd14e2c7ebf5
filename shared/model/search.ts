export type SearchHitKind = 'transcript' | 'memory';

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
