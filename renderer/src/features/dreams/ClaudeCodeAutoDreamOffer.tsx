import type { ClaudeCodeAutoDreamState } from '../../../../shared/jobs/backgroundJobs';

/**
 * Offers to turn Claude Code's own auto-dream off, with the reason in plain words: with reviewed dreams on, two
 * consolidators would otherwise work on one memory, and Claude Code's edits land unreviewed. Shown only where it is on
 * (or unset, so a server-side flag decides).
 */
export function ClaudeCodeAutoDreamOffer({ state }: { readonly state: ClaudeCodeAutoDreamState }) {
  if (state.autoDreamEnabled === false) return null;
  const settingsFile = `${state.configRoot}/settings.json`;
  return (
    <div className="offer" role="note" aria-label={`Claude Code auto-dream in ${state.configRoot}`}>
      <p>
        Claude Code&apos;s own auto-dream is {state.autoDreamEnabled === true ? 'on' : 'not set, so a server-side switch decides'} in{' '}
        <code>{settingsFile}</code>. It may rewrite memory on its own, without review, before the app&apos;s reviewed dream gets its turn:
        two consolidators on one memory. Turning it off sets <code>&quot;autoDreamEnabled&quot;: false</code> there, so only reviewed dreams
        consolidate; Claude Code keeps saving memories as you work.
      </p>
      <button type="button" disabled={state.cannotChange !== null} aria-describedby={`offer-${state.configRoot}`}>
        Turn off Claude Code&apos;s auto-dream
      </button>
      {state.cannotChange ? (
        <p className="muted small" id={`offer-${state.configRoot}`}>
          {state.cannotChange}
        </p>
      ) : null}
    </div>
  );
}
