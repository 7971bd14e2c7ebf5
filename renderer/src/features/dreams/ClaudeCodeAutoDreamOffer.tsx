import type { ClaudeCodeAutoDreamState } from '../../../../shared/jobs/backgroundJobs';
import { ErrorAlert } from '../../components/ErrorAlert';
import { RelativeTime } from '../../components/RelativeTime';
import { useMutation } from '../../components/useMutation';
import { turnOffClaudeCodeAutoDream, undoAutoDreamTurnOff } from './inboxStore';

/**
 * Offers to turn Claude Code's own auto-dream off, with the reason in plain words: with reviewed dreams on, two
 * consolidators would otherwise work on one memory, and Claude Code's edits land unreviewed. Shown where it is on
 * (or unset, so a server-side switch decides); once this app turned it off, says so and offers to undo it.
 */
export function ClaudeCodeAutoDreamOffer({ state }: { readonly state: ClaudeCodeAutoDreamState }) {
  const changing = useMutation();
  const { busy } = changing;
  const settingsFile = `${state.configRoot}/settings.json`;
  const problem = <ErrorAlert error={changing.error} />;
  if (state.autoDreamEnabled === false) {
    const record = state.turnedOffByApp;
    if (!record) return null;
    return (
      <div className="offer done" role="note" aria-label={`Claude Code auto-dream in ${state.configRoot}`}>
        <p>
          Claude Code&apos;s own auto-dream is off in <code>{settingsFile}</code> (turned off here <RelativeTime iso={record.at} />
          ): only reviewed dreams consolidate. The change is in history as change set <code>{record.changeSetId}</code>.
        </p>
        <button
          type="button"
          disabled={busy || state.cannotChange !== null}
          onClick={() => void changing.run(() => undoAutoDreamTurnOff(record.changeSetId))}
        >
          Undo: put settings.json back
        </button>
        {problem}
      </div>
    );
  }
  return (
    <div className="offer" role="note" aria-label={`Claude Code auto-dream in ${state.configRoot}`}>
      <p>
        Claude Code&apos;s own auto-dream is {state.autoDreamEnabled === true ? 'on' : 'not set, so a server-side switch decides'} in{' '}
        <code>{settingsFile}</code>. It may rewrite memory on its own, without review, before the app&apos;s reviewed dream gets its turn:
        two consolidators on one memory. Turning it off sets <code>&quot;autoDreamEnabled&quot;: false</code> there, so only reviewed dreams
        consolidate; Claude Code keeps saving memories as you work. The old file is kept in history, and you can undo this.
      </p>
      <button
        type="button"
        disabled={busy || state.cannotChange !== null}
        title={state.cannotChange ?? undefined}
        onClick={() => void changing.run(() => turnOffClaudeCodeAutoDream(state.configRoot))}
      >
        Turn off Claude Code&apos;s auto-dream
      </button>
      {state.cannotChange ? <p className="muted small">{state.cannotChange}</p> : null}
      {problem}
    </div>
  );
}
