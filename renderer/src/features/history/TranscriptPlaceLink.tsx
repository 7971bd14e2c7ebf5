import type { TranscriptPlace } from '../../../../shared/history/historyModel';
import { openTranscript } from '../../stores/navigationStore';

/** What the link needs of a place: a memory file's origin may know only the session, not the line. */
export type LinkedPlace = Pick<TranscriptPlace, 'configRoot' | 'slug' | 'sessionId' | 'line' | 'agentId'>;

/** A link that opens the transcript at the line a piece of history points to (a session's or a sub-agent's). */
export function TranscriptPlaceLink({ place, label }: { readonly place: LinkedPlace; readonly label: string }) {
  return (
    <button
      type="button"
      className="link"
      onClick={() =>
        openTranscript({
          configRoot: place.configRoot,
          slug: place.slug,
          sessionId: place.sessionId,
          line: place.line,
          agentId: place.agentId,
        })
      }
    >
      {label}
    </button>
  );
}
