import { join } from 'node:path';
import { CHANGE_CAUSES, type ChangeCause, type ChangeEvidence, type DreamDecision } from '../../../shared/history/historyModel';
import { JsonlLog } from './jsonlLog';

/**
 * What the journal line cannot say about a change set: when it really happened, who caused it and the
 * evidence for that. Written right after the journal lines it describes; a change set whose note was lost
 * in a crash is still listed, with the journal's cause and time.
 */
export interface ChangeSetNote {
  readonly v: 1;
  readonly changeSetId: string;
  /** When the change happened: the file's mtime, or the time a deletion was noticed. */
  readonly time: string;
  readonly cause: ChangeCause;
  readonly sessionId: string | null;
  /** The first record of files that were already there when history started (or was rebuilt). */
  readonly firstSight: boolean;
  /** Found when the app started, so it happened while it was closed. */
  readonly foundAtStartup: boolean;
  readonly evidence: ChangeEvidence | null;
}

function mergeEvidence(a: ChangeEvidence | null, b: ChangeEvidence | null): ChangeEvidence | null {
  if (a?.kind === 'dream' && b?.kind === 'dream')
    return {
      kind: 'dream',
      lockTakenAt: a.lockTakenAt ?? b.lockTakenAt,
      previousConsolidationAt: a.previousConsolidationAt ?? b.previousConsolidationAt,
      holderPid: a.holderPid ?? b.holderPid,
      improved: a.improved ?? b.improved,
    };
  return a ?? b;
}

/**
 * One change set noted more than once (a dream or a turn recorded over several batches): its earliest time,
 * the first session and evidence found, and what each note adds to a dream's evidence.
 */
export function mergeNotes(a: ChangeSetNote, b: ChangeSetNote): ChangeSetNote {
  const [first, second] = b.time < a.time ? [b, a] : [a, b];
  return {
    ...first,
    sessionId: first.sessionId ?? second.sessionId,
    firstSight: a.firstSight && b.firstSight,
    foundAtStartup: a.foundAtStartup || b.foundAtStartup,
    evidence: mergeEvidence(first.evidence, second.evidence),
  };
}

/**
 * Whether this app's own writer made a change set (an edit, a restore, an applied job): its note says so. A journal
 * from before every app change set was noted has no note for them; there, any change set without a note whose
 * cause is not one only the recorder gives was the app's.
 */
export function madeByThisApp(note: ChangeSetNote | null, cause: ChangeCause): boolean {
  if (note) return note.evidence?.kind === 'app-edit';
  return cause !== 'external' && cause !== 'session';
}

export function isNote(value: unknown): value is ChangeSetNote {
  const note = value as Partial<ChangeSetNote> | null;
  return (
    typeof note === 'object' &&
    note !== null &&
    note.v === 1 &&
    typeof note.changeSetId === 'string' &&
    typeof note.time === 'string' &&
    !Number.isNaN(Date.parse(note.time)) &&
    (CHANGE_CAUSES as readonly unknown[]).includes(note.cause) &&
    (note.sessionId === null || typeof note.sessionId === 'string') &&
    typeof note.firstSight === 'boolean' &&
    typeof note.foundAtStartup === 'boolean' &&
    (note.evidence === null || (typeof note.evidence === 'object' && typeof (note.evidence as { kind?: unknown }).kind === 'string'))
  );
}

export function changeSetNotesLog(historyDir: string): JsonlLog<ChangeSetNote> {
  return new JsonlLog(join(historyDir, 'change-set-notes.jsonl'), isNote);
}

/** A person reviewed a detected dream: kept it, or reverted all of it. */
export interface DreamReviewRecord {
  readonly v: 1;
  readonly changeSetId: string;
  readonly decision: DreamDecision;
  readonly time: string;
}

function isReview(value: unknown): value is DreamReviewRecord {
  const review = value as Partial<DreamReviewRecord> | null;
  return (
    typeof review === 'object' &&
    review !== null &&
    review.v === 1 &&
    typeof review.changeSetId === 'string' &&
    (review.decision === 'kept' || review.decision === 'reverted') &&
    typeof review.time === 'string'
  );
}

export function dreamReviewsLog(historyDir: string): JsonlLog<DreamReviewRecord> {
  return new JsonlLog(join(historyDir, 'dream-reviews.jsonl'), isReview);
}
