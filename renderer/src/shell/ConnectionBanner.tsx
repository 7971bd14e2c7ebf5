import { useEffect, useState } from 'react';
import { useAccessStore } from '../api/accessStore';
import { retryConnectionNow, useConnectionStore } from '../api/connectionStore';

/** The current time, again every second while `ticking`, for a countdown. */
function useSecondTicks(ticking: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!ticking) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [ticking]);
  return now;
}

/**
 * Says at once that the web shell lost its server (it stopped, a tunnel dropped), when the next try is, and offers
 * to try now; gone as soon as the connection is back, when every page reads its data again.
 */
export function ConnectionBanner() {
  const state = useConnectionStore((s) => s.state);
  // A server that turned the page's token down is not coming back for it: the access page says what to do instead.
  const refused = useAccessStore((s) => s.problem !== null);
  const retryAt = state.status === 'offline' ? state.retryAt : null;
  const now = useSecondTicks(retryAt !== null);
  if (state.status !== 'offline' || refused) return null;
  const seconds = retryAt === null ? 0 : Math.max(1, Math.ceil((retryAt - now) / 1000));
  return (
    <div className="connection-banner" role="region" aria-label="Connection">
      <p role="alert">Lost the connection to ccmem serve — reconnecting…</p>
      <span className="connection-next" aria-label="Next try">
        {retryAt === null ? 'Trying now…' : `Next try in ${seconds} s`}
        {state.attempt > 1 ? ` (try ${state.attempt})` : ''}
      </span>
      <button type="button" onClick={retryConnectionNow} disabled={retryAt === null}>
        Retry now
      </button>
    </div>
  );
}
