import type { ChangeCause, ChangeEvidence } from '../../../../shared/history/historyModel';
import {
  bodyHashOf,
  type MemorySavedEvent,
  type ToolShellEvent,
  type ToolWriteEvent,
  type TranscriptEvent,
  type TurnEndEvent,
} from './transcriptEvents';

/** Clocks of the transcript writer and the file system differ a little; times closer than this count as the same. */
const CLOCK_SLACK_MS = 5_000;
/**
 * `memory_saved` is appended right after the writes it reports, by the same process on the same clock: a change
 * belongs to the first such line after it, give or take the file system's time granularity. A change more than
 * this after a line is not that line's (a manual edit seconds after a dream).
 */
const SAVED_SLACK_MS = 1_000;
/** A tool call is written before the tool runs, and a person may take a while to allow it. */
const SESSION_LOOKBACK_MS = 30 * 60_000;
/** Claude Code's HOLDER_STALE_MS: no dream runs longer than the lock protects it. */
export const DREAM_MAX_MS = 60 * 60_000;
/** Changes further apart than this after a dream started are not that dream's any more. */
export const DREAM_QUIET_MS = 10 * 60_000;
/** Extraction appends `memory_saved` once its writes are done. */
const EXTRACTION_SAVED_AFTER_MS = 5 * 60_000;
/** Extraction runs right after a turn's final answer. */
const EXTRACTION_AFTER_TURN_MS = 2 * 60_000;

/** One file found changed: its versions and when it changed. */
export interface ObservedChange {
  /** Relative to the memory folder, forward slashes. */
  readonly path: string;
  /** Every absolute spelling of the file a transcript may use (the folder as configured and its real path). */
  readonly absolutePaths: readonly string[];
  readonly before: string | null;
  readonly after: string | null;
  /** The new version as text, to check an Edit's new text against; null for deletions. */
  readonly afterText: string | null;
  /** The file's mtime, or for a deletion the time it was noticed. */
  readonly timeMs: number;
  /** False for a deletion found at start-up: it happened some time since `sinceMs`. */
  readonly timeKnown: boolean;
  /** For changes found at start-up: the last time the history looked at this folder. */
  readonly sinceMs: number;
}

/** A dream that may still be writing: the lock was seen to move to `takenAtMs`. */
export interface DreamWindow {
  readonly takenAtMs: number;
  /** The lock's mtime before it moved (the previous consolidation), when history had seen it. */
  readonly previousMs: number | null;
  readonly holderPid: number | null;
  /** The newest change already given to this dream, or null before the first one. */
  readonly lastChangeMs: number | null;
}

export interface AttributionInput {
  readonly memoryDir: string;
  /** Project auto memory can be written by extraction; agent memory only by its agent. */
  readonly extractionPossible: boolean;
  readonly changes: readonly ObservedChange[];
  readonly dream: DreamWindow | null;
  readonly events: readonly TranscriptEvent[];
}

export interface Attribution {
  readonly cause: ChangeCause;
  readonly evidence: ChangeEvidence;
  /** Changes with the same key form one change set (one turn, one dream, one extraction). */
  readonly groupKey: string;
  readonly sessionId: string | null;
  /** Where in which transcript the evidence's `place` is, so its line number can be counted. */
  readonly source: { readonly path: string; readonly offset: number } | null;
}

function sourceOf(event: TranscriptEvent | null): Attribution['source'] {
  return event ? { path: event.file.path, offset: event.offset } : null;
}

function place(event: TranscriptEvent) {
  return {
    configRoot: event.file.configRoot,
    slug: event.file.slug,
    sessionId: event.file.sessionId,
    line: null,
    uuid: event.uuid,
    agentId: event.file.agentId,
  };
}

function normalise(path: string): string {
  return path.replace(/\\/g, '/').replace(/\/+/g, '/');
}

function names(change: ObservedChange, path: string): boolean {
  const target = normalise(path);
  return change.absolutePaths.some((p) => normalise(p) === target);
}

/** `writtenPaths` may be absolute or relative to the memory folder. */
function listsFile(event: MemorySavedEvent, change: ObservedChange): boolean {
  return event.writtenPaths.some((p) => names(change, p) || normalise(p) === change.path || normalise(p).endsWith(`/${change.path}`));
}

function contentMatches(event: ToolWriteEvent, change: ObservedChange): boolean {
  if (event.contentHash !== null)
    return (
      event.contentHash === change.after ||
      (event.bodyHash !== null && change.afterText !== null && bodyHashOf(change.afterText) === event.bodyHash)
    );
  return change.afterText !== null && event.newStrings.length > 0 && event.newStrings.every((s) => change.afterText?.includes(s));
}

/** The window a change may have happened in: its own time, or the whole span since the last look for unknown times. */
function span(change: ObservedChange): { from: number; to: number } {
  return change.timeKnown ? { from: change.timeMs, to: change.timeMs } : { from: change.sinceMs, to: change.timeMs };
}

function sessionWrite(
  change: ObservedChange,
  events: readonly TranscriptEvent[],
): { event: ToolWriteEvent | ToolShellEvent; matched: boolean } | null {
  const { from, to } = span(change);
  let best: { event: ToolWriteEvent | ToolShellEvent; matched: boolean } | null = null;
  for (const event of events) {
    if (event.timeMs < from - SESSION_LOOKBACK_MS || event.timeMs > to + CLOCK_SLACK_MS) continue;
    let matched: boolean;
    if (event.kind === 'tool-write' && change.after !== null && names(change, event.filePath)) matched = contentMatches(event, change);
    else if (event.kind === 'tool-shell' && change.after === null && mentionsFile(event.command, change)) matched = true;
    else continue;
    if (!best || (matched && !best.matched) || (matched === best.matched && event.timeMs >= best.event.timeMs)) best = { event, matched };
  }
  return best;
}

function mentionsFile(command: string, change: ObservedChange): boolean {
  const base = change.path.split('/').pop() ?? change.path;
  return command.includes(base);
}

/** The prompt that started the turn holding `event`: the newest prompt before it in the same file. */
function turnOf(event: TranscriptEvent, events: readonly TranscriptEvent[]): TranscriptEvent | null {
  let prompt: TranscriptEvent | null = null;
  for (const candidate of events) {
    if (candidate.kind !== 'prompt' || candidate.file.path !== event.file.path || candidate.offset > event.offset) continue;
    if (!prompt || candidate.offset > prompt.offset) prompt = candidate;
  }
  return prompt;
}

/**
 * The first `memory_saved` line after a change that lists its file: extraction's (no verb) or a dream's
 * (`Improved`, whose list includes the files it deleted). Two events of one turn, an extraction and a dream
 * seconds later, each get the changes written before their own line.
 */
function firstSavedAfter(change: ObservedChange, events: readonly TranscriptEvent[], extractionPossible: boolean): MemorySavedEvent | null {
  const { from, to } = span(change);
  let found: MemorySavedEvent | null = null;
  for (const event of events) {
    if (event.kind !== 'memory-saved' || !listsFile(event, change)) continue;
    if (event.verb !== 'Improved' && !extractionPossible) continue;
    const limit = event.verb === 'Improved' ? DREAM_MAX_MS : EXTRACTION_SAVED_AFTER_MS;
    if (event.timeMs < from - SAVED_SLACK_MS || event.timeMs > to + limit) continue;
    if (!found || event.timeMs < found.timeMs) found = event;
  }
  return found;
}

/** Whether a change falls in the dream that took the lock at `dream.takenAtMs`, and has not ended before it. */
function inDream(change: ObservedChange, dream: DreamWindow, events: readonly TranscriptEvent[]): boolean {
  const { from, to } = span(change);
  if (to < dream.takenAtMs - CLOCK_SLACK_MS || from > dream.takenAtMs + DREAM_MAX_MS) return false;
  if (!change.timeKnown) return true;
  const last = dream.lastChangeMs ?? dream.takenAtMs;
  if (change.timeMs - last > DREAM_QUIET_MS) return false;
  // The dream said it was done: later changes are someone else's.
  return !events.some(
    (e) =>
      e.kind === 'memory-saved' &&
      e.verb === 'Improved' &&
      e.timeMs >= dream.takenAtMs - SAVED_SLACK_MS &&
      e.timeMs + SAVED_SLACK_MS < change.timeMs,
  );
}

function turnEndBefore(change: ObservedChange, events: readonly TranscriptEvent[]): TurnEndEvent | null {
  if (!change.timeKnown) return null;
  let found: TurnEndEvent | null = null;
  for (const event of events) {
    if (event.kind !== 'turn-end' || event.file.agentId !== null) continue;
    if (event.timeMs > change.timeMs + CLOCK_SLACK_MS || event.timeMs < change.timeMs - EXTRACTION_AFTER_TURN_MS) continue;
    if (!found || event.timeMs > found.timeMs) found = event;
  }
  // That turn's extraction (or dream) reported what it saved, and this file is not in it: someone else's change.
  const end = found;
  if (end && events.some((e) => e.kind === 'memory-saved' && e.file.path === end.file.path && e.timeMs >= end.timeMs)) return null;
  return found;
}

function eventKey(event: TranscriptEvent): string {
  return event.uuid ?? `${event.file.path}@${event.offset}`;
}

function asExtraction(marker: MemorySavedEvent | TurnEndEvent, reason: 'memory-saved' | 'end-of-turn'): Attribution {
  return {
    cause: 'extraction',
    evidence: { kind: 'extraction', reason, place: place(marker) },
    groupKey: `extraction:${marker.file.sessionId}:${eventKey(marker)}`,
    sessionId: marker.file.sessionId,
    source: sourceOf(marker),
  };
}

function attributeOne(change: ObservedChange, input: AttributionInput, dream: DreamWindow | null): Attribution {
  const { events } = input;
  const write = sessionWrite(change, events);
  const asSession = (found: { event: ToolWriteEvent | ToolShellEvent; matched: boolean }): Attribution => {
    const prompt = turnOf(found.event, events);
    return {
      cause: 'session',
      evidence: {
        kind: 'session',
        tool: found.event.kind === 'tool-write' ? found.event.tool : 'Bash',
        place: place(found.event),
        turnUuid: prompt?.uuid ?? null,
        contentMatched: found.matched,
      },
      groupKey: `session:${found.event.file.sessionId}:${eventKey(prompt ?? found.event)}`,
      sessionId: found.event.file.sessionId,
      source: sourceOf(found.event),
    };
  };
  if (write?.matched) return asSession(write);

  const saved = firstSavedAfter(change, events, input.extractionPossible);
  if (saved && saved.verb !== 'Improved') return asExtraction(saved, 'memory-saved');
  const improved = saved;
  const lockDream = dream && (!write || write.event.timeMs < dream.takenAtMs) && inDream(change, dream, events);
  if (lockDream || improved) {
    return {
      cause: 'dream',
      evidence: {
        kind: 'dream',
        lockTakenAt: lockDream && dream ? new Date(dream.takenAtMs).toISOString() : null,
        previousConsolidationAt: lockDream && dream && dream.previousMs !== null ? new Date(dream.previousMs).toISOString() : null,
        holderPid: lockDream && dream ? dream.holderPid : null,
        improved: improved ? place(improved) : null,
      },
      groupKey:
        lockDream && dream
          ? `dream:${input.memoryDir}:${dream.takenAtMs}`
          : `dream:${input.memoryDir}:${eventKey(improved as MemorySavedEvent)}`,
      sessionId: improved?.file.sessionId ?? null,
      source: sourceOf(improved),
    };
  }
  if (write) return asSession(write);

  if (input.extractionPossible) {
    const turnEnd = turnEndBefore(change, events);
    if (turnEnd) return asExtraction(turnEnd, 'end-of-turn');
  }
  return {
    cause: 'external',
    evidence: {
      kind: 'external',
      note: change.timeKnown ? 'No Claude Code activity explains it' : 'Found at start-up; no Claude Code activity explains it',
    },
    groupKey: 'external',
    sessionId: null,
    source: null,
  };
}

/**
 * Decides who made each change, with the evidence found (claude-code-state.md §7.1–§7.4): a session's own
 * Write/Edit/MultiEdit call on the file; a dream (the lock moved just before, or Claude Code reported
 * "Improved" memories after); extraction (`memory_saved` without a tool call, or writes right after a turn
 * ended); otherwise an outside change. Changes are taken in time order so a dream's window follows it.
 */
export function attributeChanges(input: AttributionInput): { attributions: Attribution[]; dream: DreamWindow | null } {
  let dream = input.dream;
  const order = input.changes.map((_, index) => index).sort((a, b) => input.changes[a].timeMs - input.changes[b].timeMs);
  const attributions = new Array<Attribution>(input.changes.length);
  for (const index of order) {
    const change = input.changes[index];
    const attribution = attributeOne(change, input, dream);
    attributions[index] = attribution;
    if (
      attribution.cause === 'dream' &&
      dream &&
      attribution.groupKey === `dream:${input.memoryDir}:${dream.takenAtMs}` &&
      change.timeKnown
    )
      dream = { ...dream, lastChangeMs: Math.max(dream.lastChangeMs ?? 0, change.timeMs) };
  }
  return { attributions, dream };
}
