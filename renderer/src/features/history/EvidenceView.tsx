import { useEffect } from 'react';
import { CAUSE_LABELS, type ChangeCause, type ChangeEvidence, type TranscriptPlace } from '../../../../shared/history/historyModel';
import { RelativeTime } from '../../components/RelativeTime';
import { TranscriptPlaceLink } from './TranscriptPlaceLink';
import { loadSessionCatalog, useSessionCatalogStore } from '../sessions/sessionCatalogStore';

export function CauseBadge({ cause }: { readonly cause: ChangeCause }) {
  return <span className={`badge cause-${cause}`}>{CAUSE_LABELS[cause]}</span>;
}

/** Whether the session's transcript is only in the app's archive (Claude Code deleted it); false until the catalog has loaded. */
function useArchivedOnly(place: TranscriptPlace): boolean {
  useEffect(() => void loadSessionCatalog(), []);
  return useSessionCatalogStore((state) =>
    state.sessions.some(
      (session) =>
        session.archived && session.sessionId === place.sessionId && session.slug === place.slug && session.configRoot === place.configRoot,
    ),
  );
}

function OpenTurn({ place, label }: { readonly place: TranscriptPlace; readonly label: string }) {
  const archived = useArchivedOnly(place);
  return (
    <>
      {archived ? (
        <>
          <span className="badge archived-badge" title="Claude Code deleted this transcript; it opens from the app's archived copy">
            archived
          </span>{' '}
        </>
      ) : null}
      <TranscriptPlaceLink place={place} label={label} />
    </>
  );
}

function placeText(place: TranscriptPlace): string {
  const where = place.agentId
    ? `sub-agent ${place.agentId} of session ${place.sessionId.slice(0, 8)}`
    : `session ${place.sessionId.slice(0, 8)}`;
  return place.line !== null ? `${where}, line ${place.line}` : where;
}

/** Why history gave a change its cause, in words, with a way into the transcript it came from. */
export function EvidenceView({ evidence }: { readonly evidence: ChangeEvidence | null }) {
  if (!evidence) return <p className="muted small">No evidence was recorded for this change.</p>;
  switch (evidence.kind) {
    case 'app-edit':
      return <p className="small">Made in this app: {evidence.summary}.</p>;
    case 'session':
      return (
        <p className="small">
          A {evidence.tool} call in {placeText(evidence.place)}
          {evidence.contentMatched ? ' wrote exactly this content' : ' names this file'}.{' '}
          <OpenTurn place={evidence.place} label="Open the transcript at that turn" />
        </p>
      );
    case 'extraction':
      return (
        <p className="small">
          {evidence.reason === 'memory-saved'
            ? `Claude Code reported saving it ("memory_saved") in ${placeText(evidence.place)}, with no tool call of the session writing it.`
            : `Written right after a turn of ${placeText(evidence.place)} ended, with no tool call writing it: Claude Code's memory extraction.`}{' '}
          <OpenTurn place={evidence.place} label="Open the transcript there" />
        </p>
      );
    case 'dream':
      return (
        <p className="small">
          {evidence.lockTakenAt ? (
            <>
              The dream lock was taken <RelativeTime iso={evidence.lockTakenAt} />
              {evidence.holderPid !== null ? ` by process ${evidence.holderPid}` : ''} and several files changed together.{' '}
            </>
          ) : null}
          {evidence.improved ? (
            <>
              Claude Code reported &quot;Improved&quot; memories in {placeText(evidence.improved)}.{' '}
              <OpenTurn place={evidence.improved} label="Open the transcript there" />
            </>
          ) : null}
        </p>
      );
    case 'external':
      return <p className="small">{evidence.note}.</p>;
    case 'frontmatter':
      return (
        <p className="small">
          The file&apos;s own frontmatter says it was written in session {evidence.originSessionId.slice(0, 8)}
          {evidence.modified ? (
            <>
              {' '}
              (<code>modified: {evidence.modified}</code>)
            </>
          ) : null}
          ; no transcript of that write is left.
        </p>
      );
    case 'first-sight':
      return (
        <p className="small">
          {evidence.rebuilt
            ? 'History was deleted and rebuilt from the files as they were: earlier history is gone.'
            : 'The first record of files that were already there: history starts here.'}
        </p>
      );
  }
}
