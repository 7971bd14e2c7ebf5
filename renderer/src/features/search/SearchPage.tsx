import { useEffect, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { countOf } from '../../../../shared/text/plural';
import { useHomeStore } from '../../stores/homeStore';
import { loadSessionCatalog, sessionKey, useSessionCatalogStore } from '../sessions/sessionCatalogStore';
import '../sessions/timeline.css';
import { SearchFilterBar } from './SearchFilterBar';
import { SearchResults } from './SearchResults';
import { SEARCH_LIMIT, startSearch, stopSearch, useSearchStore } from './searchStore';
import './search.css';
import { projectNamesOf } from '../sessions/timelineFilter';

function formatMegabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(bytes < 10_000_000 ? 1 : 0)} MB`;
}

/**
 * Search over every transcript, spilled tool output, session memory and memory file (projects' and agents'); hits
 * stream in, newest file first.
 */
export function SearchPage() {
  const state = useSearchStore(
    useShallow((s) => ({ query: s.query, filters: s.filters, hits: s.hits, running: s.running, done: s.done, error: s.error })),
  );
  const [text, setText] = useState(state.query);
  const [requestRecords, setRequestRecords] = useState(false);
  const projects = useHomeStore(useShallow((s) => s.home?.projects ?? []));
  const projectNames = useMemo(() => projectNamesOf(projects), [projects]);
  const sessions = useSessionCatalogStore((s) => s.sessions);
  // Hits name their session by id; the catalog gives its title.
  const sessionTitles = useMemo(
    () => new Map(sessions.filter((s) => s.title !== null).map((s) => [sessionKey(s), s.title as string])),
    [sessions],
  );
  useEffect(() => {
    void loadSessionCatalog();
  }, []);
  return (
    <section aria-label="Search" className="search-page">
      <header className="page-header">
        <h1>Search</h1>
      </header>
      <form
        className="search-form"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          void startSearch(text, requestRecords);
        }}
      >
        <input
          type="search"
          aria-label="Search text"
          placeholder="Search every transcript and memory file"
          value={text}
          maxLength={500}
          onChange={(event) => setText(event.target.value)}
        />
        <button type="submit" className="primary" disabled={text.trim() === ''}>
          Search
        </button>
        <label className="small" title="Claude Code 2.1.3xx also records every API request it sends (prompts included) in the transcript">
          <input type="checkbox" checked={requestRecords} onChange={(event) => setRequestRecords(event.target.checked)} /> API request
          records
        </label>
        {state.running ? (
          <button type="button" onClick={() => void stopSearch()}>
            Stop
          </button>
        ) : null}
      </form>
      <SearchFilterBar filters={state.filters} projects={projects} />
      <p className="muted small" role="status" aria-label="Search status">
        {state.running ? `Searching… ${countOf(state.hits.length, 'hit')} so far` : null}
        {!state.running && state.done
          ? `${countOf(state.done.hitCount, 'hit')} in ${countOf(state.done.filesScanned, 'file')} (${formatMegabytes(state.done.bytesScanned)})` +
            (state.done.truncated ? `; stopped at ${SEARCH_LIMIT}` : '') +
            (state.done.cancelled ? '; stopped' : '')
          : null}
      </p>
      {state.error ? <p className="error">{state.error}</p> : null}
      {state.hits.length > 0 ? (
        <SearchResults hits={state.hits} projectNames={projectNames} sessionTitles={sessionTitles} query={state.query} />
      ) : null}
      {!state.running && state.done && state.hits.length === 0 ? <p className="muted">Nothing found.</p> : null}
    </section>
  );
}
