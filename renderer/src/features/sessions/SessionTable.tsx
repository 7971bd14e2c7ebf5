import { useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { SessionMemoryWrites } from '../../../../shared/history/historyModel';
import type { SessionCatalogEntry } from '../../../../shared/model/catalog';
import { PRICES_AS_OF } from '../../../../shared/model/modelPricing';
import { formatUsd } from '../../components/formatUsd';
import { RelativeTime } from '../../components/RelativeTime';
import { useUiPreferences } from '../../stores/uiPreferencesStore';
import { openTranscript } from '../../stores/navigationStore';
import { countOf } from '../../../../shared/text/plural';
import { compactNumber, formatBytes, formatDuration } from './formatNumbers';
import { sessionKey } from './sessionCatalogStore';
import { sessionCostUsd } from './sessionCost';
import { projectKeyOf, sessionTokens } from './timelineFilter';
import { moveFocusByArrows } from '../../components/listKeyboard';

export interface SessionTableProps {
  readonly sessions: readonly SessionCatalogEntry[];
  /** Show which project each session belongs to (when more than one is listed). */
  readonly showProject: boolean;
  /** Display names of projects by `configRoot\0slug`. */
  readonly projectNames: ReadonlyMap<string, string>;
  /** What memory history says each session changed; null until loaded (then the catalog's own count is shown). */
  readonly memoryWrites: ReadonlyMap<string, SessionMemoryWrites> | null;
}

const ROW_HEIGHT = 66;

/** The session's cost at API prices when the user pays them and it can be known; nothing otherwise. */
function SessionCost({ session }: { readonly session: SessionCatalogEntry }) {
  const costDisplay = useUiPreferences((s) => s.costDisplay);
  if (costDisplay !== 'api-prices') return null;
  const cost = sessionCostUsd(session);
  if (cost === null) return null;
  return <span title={`At API list prices as of ${PRICES_AS_OF}`}> · {formatUsd(cost)}</span>;
}

function SessionRow({
  session,
  projectName,
  history,
}: {
  readonly session: SessionCatalogEntry;
  readonly projectName: string | null;
  /** Memory history's record of the session (undefined: it changed no memory), or null while not loaded. */
  readonly history: SessionMemoryWrites | undefined | null;
}) {
  const writes = history === null ? session.memoryWrites : (history?.files ?? []);
  const open = () => openTranscript({ configRoot: session.configRoot, slug: session.slug, sessionId: session.sessionId });
  return (
    <div
      role="row"
      tabIndex={0}
      className="session-row"
      aria-label={session.title ?? session.sessionId}
      onClick={open}
      onKeyDown={(event) => {
        if (event.key === 'Enter') open();
      }}
    >
      <div role="cell" className="session-title-cell">
        <div className="session-title">{session.title ?? <span className="muted">untitled</span>}</div>
        <div className="session-sub muted small">
          {session.archived ? (
            <span
              className="badge archived-badge"
              title="Claude Code deleted this transcript (cleanupPeriodDays); the app's archive keeps a copy"
            >
              archived
            </span>
          ) : null}
          {projectName ? <span className="session-project">{projectName}</span> : null}
          {session.gitBranches.length > 0 ? <span className="badge">{session.gitBranches.at(-1)}</span> : null}
          {session.models.slice(0, 2).map((model) => (
            <span key={model} className="badge muted-badge">
              {model}
            </span>
          ))}
          {writes.length > 0 ? (
            <span className="badge mem-badge" title={writes.join('\n')}>
              {writes.length} memory {writes.length === 1 ? 'write' : 'writes'}
            </span>
          ) : null}
          {session.compactions.length > 0 ? (
            <span className="badge">
              {session.compactions.length} {session.compactions.length === 1 ? 'compaction' : 'compactions'}
            </span>
          ) : null}
          {session.hasSessionMemory ? <span className="badge">session memory</span> : null}
          {!session.mainTranscript ? (
            <span className="badge warn" title="The session's own transcript is gone; its sub-agents' files are left">
              no main transcript
            </span>
          ) : null}
          {session.mode === 'coordinator' ? <span className="badge">coordinator</span> : null}
          {session.prLinks.map((link) => (
            <a
              key={link.url}
              className="badge pr-badge"
              href={link.url}
              target="_blank"
              rel="noreferrer"
              title={link.repository ? `${link.repository} · ${link.url}` : link.url}
              onClick={(event) => event.stopPropagation()}
            >
              {link.number !== null ? `PR #${link.number}` : 'PR'}
            </a>
          ))}
          {session.badLines > 0 ? <span className="badge warn">{session.badLines} bad lines</span> : null}
        </div>
      </div>
      <div role="cell" className="session-when">
        <RelativeTime iso={session.lastTimestamp ?? session.mtime} />
        <div className="muted small">{formatDuration(session.durationMs)}</div>
      </div>
      {session.provisional ? (
        <>
          {/* Only the ends of the file are read yet: no count would be true, so none is shown until the catalog reads it. */}
          <div role="cell" className="session-counts small muted" title="Counts, tokens and cost come once the whole transcript is read">
            <span>reading…</span>
          </div>
          <div role="cell" className="session-counts small">
            <span className="muted">{formatBytes(session.bytes)}</span>
          </div>
        </>
      ) : (
        <>
          <div role="cell" className="session-counts small">
            <span title="Prompts you typed">{countOf(session.userPrompts, 'prompt')}</span>
            <span title="Assistant responses">{countOf(session.assistantTurns, 'turn')}</span>
            <span title="Tool calls">{countOf(session.toolCalls, 'tool call')}</span>
          </div>
          <div role="cell" className="session-counts small">
            <span>
              <span title="Tokens, cache included, with sub-agents">{compactNumber(sessionTokens(session))} tokens</span>
              <SessionCost session={session} />
            </span>
            <span title="Sub-agents">{countOf(session.subagents.length, 'sub-agent')}</span>
            <span className="muted">{formatBytes(session.bytes)}</span>
          </div>
        </>
      )}
    </div>
  );
}

/** The sessions as a virtualised table: only the rows in view are in the page, however many there are. */
export function SessionTable({ sessions, showProject, projectNames, memoryWrites }: SessionTableProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: sessions.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    getItemKey: (index) => sessionKey(sessions[index]),
  });
  return (
    <div
      role="table"
      aria-label="Sessions"
      aria-rowcount={sessions.length + 1}
      className="session-table"
      onKeyDown={(event) => moveFocusByArrows(event, '.session-row[tabindex="0"]')}
    >
      <div role="rowgroup">
        <div role="row" className="session-row session-header">
          <div role="columnheader">Session</div>
          <div role="columnheader">Last activity</div>
          <div role="columnheader">Activity</div>
          <div role="columnheader">Cost</div>
        </div>
      </div>
      <div ref={scrollRef} className="session-scroll" role="rowgroup">
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const session = sessions[item.index];
            return (
              <div
                key={item.key}
                className="session-row-slot"
                style={{
                  position: 'absolute',
                  top: 0,
                  left: 0,
                  width: '100%',
                  height: item.size,
                  transform: `translateY(${item.start}px)`,
                }}
              >
                <SessionRow
                  session={session}
                  projectName={showProject ? (projectNames.get(projectKeyOf(session)) ?? session.slug) : null}
                  history={memoryWrites === null ? null : memoryWrites.get(session.sessionId)}
                />
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
