import { diffArrays } from 'diff';
import type { BlameLine, Certainty, ChangeCause, TranscriptPlace } from '../../../../shared/history/historyModel';
import { afterKnown, beforeKnown, type HistoryEntry } from '../../changes/HistoryStore';
import { decodeText } from '../versionText';

/** One version of a file with what is known of who made it. */
export interface BlameStep {
  readonly entry: HistoryEntry;
  readonly time: string;
  readonly cause: ChangeCause;
  readonly sessionId: string | null;
  readonly turnUuid: string | null;
  readonly place: TranscriptPlace | null;
  /** The first record of a file that was already there: nobody is known to have written its lines. */
  readonly firstSight: boolean;
}

type Origin = Omit<BlameLine, 'line' | 'text'>;

/** Keeps texts diffed within reason: longer lines lists are compared as a whole replacement. */
const MAX_DIFF_LINES = 20_000;

function linesOf(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

function originOf(step: BlameStep, certainty: Certainty): Origin {
  return {
    version: step.entry.after,
    changeSetId: step.entry.changeSetId,
    time: step.time,
    cause: step.firstSight ? null : step.cause,
    sessionId: step.firstSight ? null : step.sessionId,
    turnUuid: step.firstSight ? null : step.turnUuid,
    certainty: step.firstSight ? 'inferred' : certainty,
    place: step.firstSight ? null : step.place,
  };
}

/**
 * `git blame` for a memory file: walks its versions oldest first and carries each line's origin along
 * through line diffs, so every line of the newest known version names the version that brought it in.
 * Across versions whose bytes are unknown, a line that appears is given to the first known version that
 * holds it, marked `inferred` (it may have come in with the unknown ones); lines of a first sight have no
 * known author.
 */
export async function blameChain(
  steps: readonly BlameStep[],
  readBlob: (hash: string) => Promise<Buffer>,
): Promise<{ version: string | null; lines: BlameLine[] }> {
  const target = steps.findLastIndex((step) => afterKnown(step.entry) && step.entry.after !== null);
  if (target === -1) return { version: null, lines: [] };
  let lines: string[] | null = null;
  let origins: Origin[] = [];
  /** Whether versions with unknown bytes came since `lines` was known. */
  let unknownSince = false;
  for (let i = 0; i <= target; i++) {
    const step = steps[i];
    const { entry } = step;
    if (!afterKnown(entry)) {
      unknownSince = true;
      continue;
    }
    if (entry.after === null) {
      lines = [];
      origins = [];
      unknownSince = false;
      continue;
    }
    const text = decodeText(await readBlob(entry.after));
    if (text === null) return { version: entry.after, lines: [] };
    const next = linesOf(text);
    const certain = !unknownSince && beforeKnown(entry);
    if (lines === null) {
      // The oldest known bytes: every line is this version's, certainly so only if it created the file.
      const created = beforeKnown(entry) && entry.before === null && !unknownSince;
      origins = next.map(() => originOf(step, created ? 'exact' : 'inferred'));
    } else if (lines.length + next.length > MAX_DIFF_LINES) {
      origins = next.map(() => originOf(step, 'inferred'));
    } else {
      const carried: Origin[] = [];
      let at = 0;
      for (const part of diffArrays(lines, next)) {
        if (part.removed) at += part.value.length;
        else if (part.added) for (let k = 0; k < part.value.length; k++) carried.push(originOf(step, certain ? 'exact' : 'inferred'));
        else
          for (let k = 0; k < part.value.length; k++) {
            carried.push(origins[at]);
            at++;
          }
      }
      origins = carried;
    }
    lines = next;
    unknownSince = false;
  }
  const final = lines ?? [];
  return {
    version: steps[target].entry.after,
    lines: final.map((text, index) => ({ line: index + 1, text, ...origins[index] })),
  };
}
