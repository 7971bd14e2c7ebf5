import type { TranscriptRef } from './transcriptFeed';

/** Where a turn of a main conversation starts: the typed prompt's uuid and time. */
export interface PromptMark {
  readonly uuid: string;
  readonly timeMs: number;
}

/**
 * The prompts read from main transcripts during one evidence scan, so a sub-agent's memory writes can be placed in
 * the parent's turn they happened in. A session's prompts are kept only while one of its sub-agent files is still to
 * be read, and dropped after the last: holding every session's (about 75,000 on the large bench home, 7.4 MB) for the
 * whole scan made the scan one of the largest things alive in the engine while it ran. Sub-agent files beside the
 * sessions (Claude Code 2.0) name their session only in their lines, so with one of those every prompt is kept.
 */
export class SessionPrompts {
  private readonly prompts = new Map<string, PromptMark[]>();
  private readonly agentFilesLeft = new Map<string, number>();
  private readonly keepEvery: boolean;

  constructor(refs: readonly TranscriptRef[]) {
    let keepEvery = false;
    for (const ref of refs) {
      if (ref.agentId === null) continue;
      if (ref.sessionId === '') keepEvery = true;
      else this.agentFilesLeft.set(ref.sessionId, (this.agentFilesLeft.get(ref.sessionId) ?? 0) + 1);
    }
    this.keepEvery = keepEvery;
  }

  /**
   * The order to read the transcripts in: each session's main file before its sub-agents' (their writes take turns
   * from its prompts), a session at a time so its prompts can go once its sub-agents are read; with a sub-agent file
   * of unknown session, every main file first.
   */
  readingOrder(refs: readonly TranscriptRef[]): TranscriptRef[] {
    const byPath = (a: TranscriptRef, b: TranscriptRef) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
    const mainFirst = (a: TranscriptRef, b: TranscriptRef) => Number(a.agentId !== null) - Number(b.agentId !== null);
    const bySession = (a: TranscriptRef, b: TranscriptRef) => (a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0);
    return [...refs].sort((a, b) => (this.keepEvery ? 0 : bySession(a, b)) || mainFirst(a, b) || byPath(a, b));
  }

  add(sessionId: string, mark: PromptMark): void {
    if (!this.keepEvery && !this.agentFilesLeft.has(sessionId)) return;
    const list = this.prompts.get(sessionId);
    if (list) list.push(mark);
    else this.prompts.set(sessionId, [mark]);
  }

  /** The session's latest prompt at or before `timeMs`, of those read so far. */
  latestAtOrBefore(sessionId: string, timeMs: number): PromptMark | null {
    let found: PromptMark | null = null;
    for (const prompt of this.prompts.get(sessionId) ?? [])
      if (prompt.timeMs <= timeMs && (!found || prompt.timeMs >= found.timeMs)) found = prompt;
    return found;
  }

  /** Told after each transcript is read (or skipped): a session's prompts go with its last sub-agent file. */
  done(ref: TranscriptRef): void {
    if (this.keepEvery || ref.agentId === null) return;
    const left = (this.agentFilesLeft.get(ref.sessionId) ?? 0) - 1;
    if (left > 0) {
      this.agentFilesLeft.set(ref.sessionId, left);
      return;
    }
    this.agentFilesLeft.delete(ref.sessionId);
    this.prompts.delete(ref.sessionId);
  }
}
