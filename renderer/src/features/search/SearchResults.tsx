import { useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { SearchHit } from '../../../../shared/model/search';
import { navigate, openTranscript } from '../../stores/navigationStore';
import { moveFocusByArrows } from '../../components/listKeyboard';
import { projectKeyOf } from '../sessions/timelineFilter';

export interface SearchResultsProps {
  readonly hits: readonly SearchHit[];
  /** Display names of projects by `configRoot\0slug`. */
  readonly projectNames: ReadonlyMap<string, string>;
  /** Titles of sessions by `configRoot\0slug\0sessionId`. */
  readonly sessionTitles: ReadonlyMap<string, string>;
  /** The text searched for, which a transcript opened from a hit finds again. */
  readonly query: string;
}

const ROW_HEIGHT = 62;

function fileLabel(hit: SearchHit): string {
  const name = hit.path.split(/[/\\]/).slice(-1)[0];
  if (hit.kind === 'memory') return name;
  if (hit.kind === 'agent-memory') return `${hit.agentType ?? 'agent'} › ${name}`;
  if (hit.kind === 'tool-output') return `${hit.sessionId?.slice(0, 8) ?? 'session'} › tool output ${name}`;
  if (hit.kind === 'session-memory') return `${hit.sessionId?.slice(0, 8) ?? 'session'} › session memory`;
  const session = hit.sessionId ? hit.sessionId.slice(0, 8) : 'session';
  return hit.agentId ? `${session} › sub-agent ${hit.agentId}` : session;
}

function Preview({ hit }: { readonly hit: SearchHit }) {
  if (hit.matchLength === 0) return <span>{hit.preview}</span>;
  const end = hit.matchStart + hit.matchLength;
  return (
    <span>
      {hit.preview.slice(0, hit.matchStart)}
      <mark>{hit.preview.slice(hit.matchStart, end)}</mark>
      {hit.preview.slice(end)}
    </span>
  );
}

function open(hit: SearchHit, query: string): void {
  if (hit.kind === 'agent-memory') {
    navigate({ page: 'agents' });
    return;
  }
  if (hit.kind === 'memory' || hit.sessionId === null) {
    navigate({ page: 'memory', project: { configRoot: hit.configRoot, slug: hit.slug } });
    return;
  }
  // A spilled output or a session memory opens its session; a transcript line opens where it is.
  const inTranscript = hit.kind === 'transcript';
  openTranscript({
    configRoot: hit.configRoot,
    slug: hit.slug,
    sessionId: hit.sessionId,
    line: inTranscript ? hit.line : undefined,
    agentId: inTranscript ? hit.agentId : null,
    // The transcript opens with the searched words marked, at the hit.
    find: inTranscript ? query : null,
  });
}

/** Search hits in the order they came (newest file first), virtualised; each opens where it was found. */
export function SearchResults({ hits, projectNames, sessionTitles, query }: SearchResultsProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: hits.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
  });
  return (
    <div
      ref={scrollRef}
      className="search-results"
      role="list"
      aria-label="Search results"
      onKeyDown={(event) => moveFocusByArrows(event, '.search-hit')}
    >
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const hit = hits[item.index];
          return (
            <div
              key={item.key}
              role="listitem"
              style={{ position: 'absolute', top: 0, left: 0, width: '100%', height: item.size, transform: `translateY(${item.start}px)` }}
            >
              <button type="button" className="search-hit" onClick={() => open(hit, query)} title={`${hit.path}:${hit.line}`}>
                <span className="search-hit-where small">
                  <span className="badge">{hit.kind}</span>
                  {hit.archived ? (
                    <span className="badge archived-badge" title="Claude Code deleted this transcript; found in the app's archived copy">
                      archived
                    </span>
                  ) : null}
                  {hit.sessionId !== null ? (
                    <span className="search-hit-title">
                      {sessionTitles.get(`${hit.configRoot}\0${hit.slug}\0${hit.sessionId}`) ?? 'untitled session'}
                    </span>
                  ) : null}
                  {hit.requestRecord ? <span className="badge muted-badge">API request record</span> : null}
                  <span className="muted search-hit-project">{projectNames.get(projectKeyOf(hit)) ?? hit.slug}</span>
                  <code>
                    {fileLabel(hit)}:{hit.line}
                  </code>
                </span>
                <span className="search-hit-preview">
                  <Preview hit={hit} />
                </span>
              </button>
            </div>
          );
        })}
      </div>
    </div>
  );
}
