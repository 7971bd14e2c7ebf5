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
}

export interface SessionSummary extends SessionQuickInfo {
  readonly configRoot: string;
  readonly slug: string;
}
