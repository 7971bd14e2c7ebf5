import type { ItemWarning } from './warnings';

export type TitleSource = 'custom-title' | 'ai-title' | 'last-prompt' | 'summary' | 'first-prompt' | 'none';

/** What a 64 KiB head and tail read tells about one session file. */
export interface SessionQuickInfo {
  readonly sessionId: string;
  readonly file: string;
  readonly title: string | null;
  readonly titleSource: TitleSource;
  readonly firstTimestamp: string | null;
  readonly lastTimestamp: string | null;
  readonly cwd: string | null;
  readonly gitBranch: string | null;
  readonly version: string | null;
  readonly bytes: number;
  readonly mtime: string;
  readonly warnings: readonly ItemWarning[];
  /** False for a session whose file is gone while its `<sessionId>/subagents/` folder is left. */
  readonly mainTranscript: boolean;
  /** Uuids of the last few main-conversation messages read (a legacy summary in another file may name one). */
  readonly leafUuids: readonly string[];
  /** Legacy `summary` lines of this file that name a message of another file: they title that session, not this one. */
  readonly otherSessionSummaries: readonly { readonly leafUuid: string; readonly summary: string }[];
}

export interface SessionSummary extends SessionQuickInfo {
  readonly configRoot: string;
  readonly slug: string;
}
