import { useEffect, useRef, useState } from 'react';
import { clearFind, findInTranscript, stepFind, useTranscriptStore } from './transcriptStore';

/** Find within the shown conversation: Enter searches (and then steps to the next hit), Shift+Enter steps back. */
export function FindBar() {
  const find = useTranscriptStore((s) => s.find);
  const [query, setQuery] = useState('');
  const input = useRef<HTMLInputElement>(null);
  // A find started elsewhere (a search hit opened here) shows its text in the box, to step through or change.
  const foundQuery = find?.query;
  useEffect(() => {
    if (foundQuery !== undefined) setQuery(foundQuery);
  }, [foundQuery]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 'f') {
        event.preventDefault();
        input.current?.focus();
        input.current?.select();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const status = !find
    ? null
    : find.busy
      ? 'Searching…'
      : find.hits.length === 0
        ? 'No matches'
        : `${find.index + 1} of ${find.hits.length}${find.truncated ? '+' : ''}`;
  return (
    <form
      className="tx-find"
      role="search"
      aria-label="Find in transcript"
      onSubmit={(event) => {
        event.preventDefault();
        if (find && find.query === query && !find.busy) stepFind(1);
        else void findInTranscript(query);
      }}
    >
      <input
        ref={input}
        type="search"
        aria-label="Find in transcript"
        placeholder="Find in transcript"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            setQuery('');
            clearFind();
          } else if (event.key === 'Enter' && event.shiftKey) {
            event.preventDefault();
            stepFind(-1);
          }
        }}
      />
      <button type="button" aria-label="Previous match" disabled={!find || find.hits.length === 0} onClick={() => stepFind(-1)}>
        ↑
      </button>
      <button type="button" aria-label="Next match" disabled={!find || find.hits.length === 0} onClick={() => stepFind(1)}>
        ↓
      </button>
      {status ? (
        <span className="muted small" aria-live="polite" aria-label="Find status">
          {status}
        </span>
      ) : null}
    </form>
  );
}
