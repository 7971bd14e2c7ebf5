import type { ForkPoint } from '../../../../shared/transcript/transcriptOutline';
import { changeView } from './transcriptStore';
import { formatTime } from './transcriptFormat';
import { countOf } from '../../../../shared/text/plural';

/** Where the conversation split (an edited prompt, a rewind): every way on, the shown one marked. */
export function ForkSwitcher({ fork }: { readonly fork: ForkPoint }) {
  const current = fork.choices.findIndex((choice) => choice.current);
  return (
    <div className="tx-fork" role="group" aria-label="Branches">
      <span className="tx-fork-title">
        The conversation branches here · showing {current + 1} of {fork.choices.length}
      </span>
      <ol className="tx-fork-choices">
        {fork.choices.map((choice, index) => (
          <li key={choice.leafUuid + index}>
            <button
              type="button"
              className={choice.current ? 'tx-fork-choice current' : 'tx-fork-choice'}
              aria-pressed={choice.current}
              disabled={choice.current}
              onClick={() => void changeView({ leafUuid: choice.leafUuid }, fork.row)}
            >
              <span className="small muted">
                Branch {index + 1} · {countOf(choice.entryCount, 'entry', 'entries')} · {formatTime(choice.timestamp)}
              </span>
              <span className="tx-fork-preview">{choice.preview || '(no text)'}</span>
            </button>
          </li>
        ))}
      </ol>
    </div>
  );
}
