import { useEffect, useState } from 'react';

export interface PendingStateProps {
  /** What is being done, as a step the reader understands: "Reading the history", not "Loading". */
  readonly label: string;
  /** How far it got, when the engine says: a bar and "350 of 1,000 files". */
  readonly done?: number;
  readonly total?: number;
  /** What `done` and `total` count, in the number `total` asks for: "files". */
  readonly unit?: string;
}

/** After this long a wait also shows how long it has lasted, so a slow step is seen to be alive. */
const SHOW_ELAPSED_AFTER_S = 3;

function useElapsedSeconds(): number {
  const [started] = useState(() => Date.now());
  const [elapsed, setElapsed] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setElapsed(Math.floor((Date.now() - started) / 1000)), 1000);
    return () => clearInterval(timer);
  }, [started]);
  return elapsed;
}

/**
 * A wait that says what it is waiting for: the step, a bar (with counts when they are known, moving otherwise) and,
 * after a few seconds, how long it has taken. Never a bare "Loading…".
 */
export function PendingState({ label, done, total, unit }: PendingStateProps) {
  const elapsed = useElapsedSeconds();
  const counted = done !== undefined && total !== undefined && total > 0;
  return (
    <div className="pending-state" role="status" aria-label={label}>
      <span>{label}…</span>
      {counted ? <progress max={total} value={Math.min(done, total)} aria-label={label} /> : <progress aria-label={label} />}
      {counted ? (
        <span className="muted small">
          {done.toLocaleString('en')} of {total.toLocaleString('en')}
          {unit ? ` ${unit}` : ''}
        </span>
      ) : null}
      {elapsed >= SHOW_ELAPSED_AFTER_S ? (
        // Not read out: a screen reader would announce every second.
        <span className="muted small" aria-hidden="true">
          {elapsed} s
        </span>
      ) : null}
    </div>
  );
}
