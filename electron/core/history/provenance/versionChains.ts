import type { Certainty, ChangeCause, ChangeEvidence, FileChangeKind, TranscriptPlace } from '../../../../shared/history/historyModel';
import { applyEdits, holdsNewText, type TextEdit } from './textEdits';

/** Who made a step, and how the step is grouped with others into one change set. */
export interface StepOrigin {
  readonly cause: ChangeCause;
  readonly sessionId: string | null;
  readonly turnUuid: string | null;
  readonly evidence: ChangeEvidence;
  /** Steps with the same key form one change set (one turn, one extraction, one dream). */
  readonly groupKey: string;
  readonly summary: string;
}

/** One thing the evidence says about one memory file at one time. */
export type Observation =
  | {
      /** A Write: the bytes after are known; `created` from the result's type (`create`/`update`) when given. */
      readonly kind: 'write';
      readonly timeMs: number;
      readonly text: string;
      readonly created: boolean | null;
      readonly origin: StepOrigin;
    }
  | {
      /** An Edit/MultiEdit: the bytes after when the result gave them, else replayed from the version before. */
      readonly kind: 'edit';
      readonly timeMs: number;
      readonly edits: readonly TextEdit[];
      readonly after: string | null;
      readonly origin: StepOrigin;
    }
  | {
      /** Extraction or a dream reported the file (`memory_saved`): it changed, the bytes are not known. */
      readonly kind: 'saved';
      readonly timeMs: number;
      /** A dream's list includes files it deleted. */
      readonly mayDelete: boolean;
      readonly origin: StepOrigin;
    }
  | {
      /** The file as it was at a time (a file-history backup, a call's `originalFile`); null text = absent. */
      readonly kind: 'state';
      readonly timeMs: number;
      readonly text: string | null;
    };

/** A call that removed files from a shell, for explaining a deletion that the evidence shows. */
export interface ShellRemoval {
  readonly timeMs: number;
  readonly command: string;
  readonly origin: StepOrigin;
}

/** The file when history began to record it itself (its first-sight version), or as it is now. */
export interface Anchor {
  /** Null: the file did not exist. */
  readonly text: string | null;
  readonly timeMs: number;
  /** The file's own mtime for that version, when known (it still has those bytes on disk). */
  readonly mtimeMs: number | null;
}

/** What the file's own frontmatter says: who wrote it (`originSessionId`) and when (`metadata.modified`). */
export interface FrontmatterStamp {
  readonly originSessionId: string;
  readonly modifiedMs: number | null;
  readonly modified: string | null;
}

export interface ChainInput {
  readonly memoryDir: string;
  readonly path: string;
  /** Oldest first; only what happened before the anchor. */
  readonly observations: readonly Observation[];
  readonly removals: readonly ShellRemoval[];
  readonly anchor: Anchor;
  /** Reads the stamp from a version's text (untrusted: checked by the caller's parser). */
  readonly stampOf: (text: string) => FrontmatterStamp | null;
  /** `.consolidate-lock` mtimes seen for this folder (dream starts), oldest first; empty for agent memory. */
  readonly lockTimes: readonly number[];
}

export type KnownText = { readonly known: true; readonly text: string | null } | { readonly known: false };

/** One reconstructed version of one file. */
export interface ChainVersion {
  readonly path: string;
  timeMs: number;
  timeKnown: boolean;
  readonly before: KnownText;
  after: KnownText;
  kind: FileChangeKind;
  readonly origin: StepOrigin;
  /** Why the story has a hole here, or null. */
  gap: string | null;
  /** What a later version must hold for this one's unknown bytes to be taken from it. */
  readonly fill: 'any' | 'present' | { readonly edits: readonly TextEdit[] };
}

/** A dream runs at most this long after taking the lock (Claude Code's HOLDER_STALE_MS). */
const DREAM_MAX_MS = 60 * 60_000;
/** Clocks of the transcript writer and the file system differ a little. */
const CLOCK_SLACK_MS = 5_000;
const INDEX_FILE = 'MEMORY.md';

function certainty(text: KnownText): Certainty {
  return text.known ? 'exact' : 'inferred';
}

export function versionCertainty(version: ChainVersion): Certainty {
  return certainty(version.after);
}

function kindOf(before: KnownText, after: KnownText, guess: FileChangeKind): FileChangeKind {
  if (after.known && after.text === null) return 'deleted';
  if (before.known) return before.text === null ? 'added' : 'modified';
  return guess;
}

function basename(path: string): string {
  return path.split('/').pop() ?? path;
}

function gapOrigin(input: ChainInput, timeMs: number, note: string): StepOrigin {
  return {
    cause: 'external',
    sessionId: null,
    turnUuid: null,
    evidence: { kind: 'external', note },
    groupKey: `gap:${input.memoryDir}:${input.path}:${timeMs}`,
    summary: note,
  };
}

/**
 * Builds one memory file's version chain, oldest first, from what the evidence says (claude-code-state.md
 * §2.5, §2.7, §2.11, §6.2): Writes give the bytes after; Edits are replayed on the version before (or their
 * result's patch gives the bytes); `memory_saved` lines say a change happened without its bytes; backups and
 * `originalFile` say what the file was at a time; the anchor (the first version history recorded itself, or
 * the file now) closes the chain. Unknown bytes are filled in only from a later known version that fits (an
 * Edit's new text must be in it); otherwise they stay unknown and the hole is marked, never invented.
 */
export function buildVersionChain(input: ChainInput): ChainVersion[] {
  const versions: ChainVersion[] = [];
  let state: KnownText = { known: false };
  /** The time of the last observation: a change that no evidence explains happened after it. */
  let lastTimeMs = Number.NEGATIVE_INFINITY;

  const push = (version: Omit<ChainVersion, 'path'>): void => {
    versions.push({ path: input.path, ...version });
    state = version.after;
    lastTimeMs = Math.max(lastTimeMs, version.timeMs);
  };

  /** Gives the last (inferred) version the bytes of a later state, when they fit what it did. */
  const fill = (text: string | null): boolean => {
    const last = versions[versions.length - 1];
    if (!last || last.after.known) return false;
    const fits = last.fill === 'any' || (text !== null && (last.fill === 'present' || holdsNewText(text, last.fill.edits)));
    if (!fits) return false;
    last.after = { known: true, text };
    last.kind = kindOf(last.before, last.after, last.kind);
    state = last.after;
    return true;
  };

  /** A state seen at a time: confirms the chain, fills an unknown version, or reveals a change nothing explains. */
  const observeState = (text: string | null, timeMs: number): void => {
    if (!state.known) {
      if (versions.length === 0) {
        state = { known: true, text };
        return;
      }
      if (fill(text)) return;
    } else if (state.text === text) return;
    const note = 'Changed with no trace left between the versions around it';
    push({
      timeMs: lastTimeMs === Number.NEGATIVE_INFINITY ? timeMs : lastTimeMs,
      timeKnown: false,
      before: state,
      after: { known: true, text },
      kind: kindOf(state, { known: true, text }, 'modified'),
      origin: gapOrigin(input, timeMs, note),
      gap: note,
      fill: 'any',
    });
  };

  for (const observation of input.observations) {
    processObservation(observation);
    lastTimeMs = Math.max(lastTimeMs, observation.timeMs);
  }
  close(
    input,
    versions,
    () => state,
    push,
    fill,
    () => lastTimeMs,
  );
  return versions.filter((v) => !(v.before.known && v.after.known && v.before.text === v.after.text));

  function processObservation(observation: Observation): void {
    switch (observation.kind) {
      case 'state':
        observeState(observation.text, observation.timeMs);
        break;
      case 'write': {
        if (!state.known && versions.length === 0 && observation.created === true) state = { known: true, text: null };
        if (state.known && state.text === observation.text) break;
        const after: KnownText = { known: true, text: observation.text };
        push({
          timeMs: observation.timeMs,
          timeKnown: true,
          before: state,
          after,
          kind: kindOf(state, after, observation.created === false ? 'modified' : 'added'),
          origin: observation.origin,
          gap: null,
          fill: 'any',
        });
        break;
      }
      case 'edit': {
        let after: KnownText = { known: false };
        let gap: string | null = null;
        if (observation.after !== null) after = { known: true, text: observation.after };
        else if (state.known) {
          const replayed = applyEdits(state.text, observation.edits);
          if (replayed.ok) after = { known: true, text: replayed.text };
          else
            gap = `This ${observation.origin.evidence.kind === 'session' ? observation.origin.evidence.tool : 'edit'} does not replay: ${replayed.reason}`;
        }
        if (after.known && state.known && after.text === state.text) break;
        push({
          timeMs: observation.timeMs,
          timeKnown: true,
          before: state,
          after,
          // An edit needs a file to edit, unless it writes an empty one from nothing.
          kind: kindOf(state, after, observation.edits.some((e) => e.oldString === '') ? 'added' : 'modified'),
          origin: observation.origin,
          gap,
          fill: { edits: observation.edits },
        });
        break;
      }
      case 'saved':
        push({
          timeMs: observation.timeMs,
          timeKnown: true,
          before: state,
          after: { known: false },
          // Extraction mostly creates topic files and updates the index; a dream mostly rewrites.
          kind: kindOf(state, { known: false }, basename(input.path) === INDEX_FILE || observation.mayDelete ? 'modified' : 'added'),
          origin: observation.origin,
          gap: null,
          fill: observation.mayDelete ? 'any' : 'present',
        });
        break;
    }
  }
  close(
    input,
    versions,
    () => state,
    push,
    fill,
    () => lastTimeMs,
  );
  return versions.filter((v) => !(v.before.known && v.after.known && v.before.text === v.after.text));
}

/** Ends the chain at the anchor: confirms it, fills the last unknown version, or explains the last step. */
function close(
  input: ChainInput,
  versions: ChainVersion[],
  current: () => KnownText,
  push: (version: Omit<ChainVersion, 'path'>) => void,
  fill: (text: string | null) => boolean,
  lastTime: () => number,
): void {
  const { anchor } = input;
  const state = current();
  if (versions.length === 0 && !state.known) {
    // No evidence at all: only the file's own frontmatter can tell where it came from.
    if (anchor.text !== null) {
      const stamp = frontmatterStep(input, anchor.text, Number.NEGATIVE_INFINITY);
      // `originSessionId` names the session the memory originated in: it created the file.
      const created: KnownText = { known: true, text: null };
      if (stamp) push({ ...stamp, before: created, after: { known: true, text: anchor.text }, kind: 'added', gap: null, fill: 'any' });
    }
    return;
  }
  if (state.known && state.text === anchor.text) return;
  const since = lastTime();
  // The file's own time says whether it was written again after the last version: then its bytes are not that version's.
  const writtenSince = anchor.mtimeMs !== null && anchor.mtimeMs > since + CLOCK_SLACK_MS;
  if (!state.known && !writtenSince && fill(anchor.text)) return;
  const before = current();
  const after: KnownText = { known: true, text: anchor.text };
  const kind = kindOf(before, after, 'modified');
  if (anchor.text === null) {
    const removal = input.removals.find(
      (r) => r.timeMs >= since - CLOCK_SLACK_MS && r.timeMs <= anchor.timeMs && r.command.includes(basename(input.path)),
    );
    if (removal) {
      push({ timeMs: removal.timeMs, timeKnown: true, before, after, kind, origin: removal.origin, gap: null, fill: 'any' });
      return;
    }
  } else {
    const stamp = frontmatterStep(input, anchor.text, since);
    if (stamp) {
      push({ ...stamp, before, after, kind, gap: null, fill: 'any' });
      return;
    }
    const changedMs = anchor.mtimeMs;
    const lock = changedMs === null ? undefined : [...input.lockTimes].reverse().find((t) => t <= changedMs + CLOCK_SLACK_MS && t >= since);
    if (changedMs !== null && lock !== undefined && changedMs <= lock + DREAM_MAX_MS) {
      push({
        timeMs: changedMs,
        timeKnown: true,
        before,
        after,
        kind,
        origin: {
          cause: 'dream',
          sessionId: null,
          turnUuid: null,
          evidence: {
            kind: 'dream',
            lockTakenAt: new Date(lock).toISOString(),
            previousConsolidationAt: null,
            holderPid: null,
            improved: null,
          },
          groupKey: `dream-lock:${input.memoryDir}:${lock}`,
          summary: 'Dream (memory consolidation), from the lock it took',
        },
        gap: null,
        fill: 'any',
      });
      return;
    }
  }
  const note = anchor.text === null ? 'Deleted, with no trace of who deleted it' : 'Changed with no trace left of who changed it';
  const known = anchor.mtimeMs !== null && anchor.mtimeMs >= since;
  const timeMs = known ? (anchor.mtimeMs as number) : Number.isFinite(since) ? since : anchor.timeMs;
  push({
    timeMs,
    timeKnown: known,
    before,
    after,
    kind,
    // Keyed on the step's own time: a folder history has not recorded yet is anchored at "now", which moves every build.
    origin: gapOrigin(input, timeMs, note),
    gap: note,
    fill: 'any',
  });
}

/** A step taken from the file's frontmatter stamp, when it names a session and is newer than `sinceMs`. */
function frontmatterStep(input: ChainInput, text: string, sinceMs: number): Pick<ChainVersion, 'timeMs' | 'timeKnown' | 'origin'> | null {
  const stamp = input.stampOf(text);
  if (!stamp) return null;
  const { anchor } = input;
  const timeMs = stamp.modifiedMs !== null && stamp.modifiedMs <= anchor.timeMs + CLOCK_SLACK_MS ? stamp.modifiedMs : anchor.mtimeMs;
  if (timeMs === null ? Number.isFinite(sinceMs) : timeMs <= sinceMs) return null;
  return {
    timeMs: timeMs ?? anchor.timeMs,
    timeKnown: timeMs !== null,
    origin: {
      cause: 'session',
      sessionId: stamp.originSessionId,
      turnUuid: null,
      evidence: { kind: 'frontmatter', originSessionId: stamp.originSessionId, modified: stamp.modified },
      groupKey: `frontmatter:${input.memoryDir}:${input.path}:${stamp.originSessionId}:${timeMs ?? 'unknown'}`,
      summary: `Written in session ${stamp.originSessionId.slice(0, 8)}, as its frontmatter says`,
    },
  };
}

/** Where a step's evidence sits in a transcript, for the change set note. */
export function placeOf(origin: StepOrigin): TranscriptPlace | null {
  const { evidence } = origin;
  if (evidence.kind === 'session' || evidence.kind === 'extraction') return evidence.place;
  if (evidence.kind === 'dream') return evidence.improved;
  return null;
}
