import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { ProjectSummary } from '../../../../shared/model/home';
import { navigate, openTranscript, type TranscriptRoute } from '../../stores/navigationStore';
import { ExportButtons } from './ExportButtons';
import { FindBar } from './FindBar';
import { ResumeActions } from './ResumeActions';
import { SessionSidePanel } from './SessionSidePanel';
import { TranscriptList } from './TranscriptList';
import { changeView, findInTranscript, openSessionTranscript, useTranscriptStore } from './transcriptStore';
import { formatBytes, formatTime, shortId } from './transcriptFormat';
import './transcript.css';
import { MiddleTruncate } from '../../components/MiddleTruncate';
import { PendingState } from '../../components/PendingState';

export interface TranscriptPageProps {
  readonly project: ProjectSummary;
  readonly route: TranscriptRoute;
}

/** A session's conversation: the live branch by default, its forks, compactions, sub-agent runs, session memory and resume. */
export function TranscriptPage({ project, route }: TranscriptPageProps) {
  const { outline, error, view } = useTranscriptStore(useShallow((s) => ({ outline: s.outline, error: s.error, view: s.view })));
  const session = { configRoot: project.configRoot, slug: project.slug, sessionId: route.sessionId };

  useEffect(() => {
    let left = false;
    void openSessionTranscript(session, route.agentId, route.line).then(() => {
      // Not after the reader has moved on to another session or line.
      if (route.find && !left) void findInTranscript(route.find, route.line);
    });
    return () => {
      left = true;
    };
    // The session key, agent, line and text to find say when to (re)open; `session` is rebuilt on every render.
  }, [project.configRoot, project.slug, route.sessionId, route.agentId, route.line, route.find]);

  const openSubagent = (agentId: string) => openTranscript({ ...session, agentId });
  const backToMain = () => openTranscript({ ...session, agentId: null, line: outline?.agent?.callLine ?? null });

  return (
    <section className="tx-page" aria-label="Transcript">
      <header className="tx-header">
        <button type="button" className="tx-link" onClick={() => navigate({ page: 'sessions' })}>
          ← Sessions
        </button>
        <h1>{outline?.title ?? 'Transcript'}</h1>
        {outline ? (
          <p className="muted small tx-facts">
            <code>{outline.sessionId}</code>
            {outline.cwd ? (
              <>
                {' · '}
                <MiddleTruncate code text={outline.cwd} />
              </>
            ) : null}
            {outline.gitBranch ? ` · ${outline.gitBranch}` : ''}
            {outline.version ? ` · Claude Code ${outline.version}` : ''} · {formatBytes(outline.bytes)} ·{' '}
            {formatTime(outline.firstTimestamp)} – {formatTime(outline.lastTimestamp)}
          </p>
        ) : null}
      </header>
      {error ? <p className="error">{error}</p> : null}
      {outline?.archived ? (
        <p className="tx-archived small" role="note" aria-label="Archived copy">
          <span className="badge archived-badge">archived</span> Claude Code deleted this transcript (it removes sessions older than
          cleanupPeriodDays). You are reading the copy this app kept in its archive.
        </p>
      ) : null}
      {outline?.indexing ? (
        <p className="muted small" role="status" aria-label="Indexing">
          Reading the transcript… {formatBytes(outline.indexing.indexedBytes)} of {formatBytes(outline.indexing.totalBytes)}{' '}
          <progress max={outline.indexing.totalBytes} value={outline.indexing.indexedBytes} />
        </p>
      ) : null}
      {outline ? (
        <>
          <ResumeActions outline={outline} />
          {outline.agent ? (
            <nav className="tx-breadcrumb" aria-label="Sub-agent">
              <button type="button" className="tx-link" onClick={backToMain}>
                Main conversation
              </button>
              <span> › </span>
              <strong>{outline.agent.agentType ?? 'Sub-agent'}</strong> <code>{shortId(outline.agent.agentId)}</code>
              {outline.agent.description ? <span className="muted"> · {outline.agent.description}</span> : null}
            </nav>
          ) : null}
          <div className="tx-toolbar">
            <FindBar />
            <label className="tx-toggle">
              <input type="checkbox" checked={view.showMeta} onChange={(event) => void changeView({ showMeta: event.target.checked })} />{' '}
              Show meta lines
            </label>
            <label className="tx-toggle">
              <input
                type="checkbox"
                checked={view.showMetadata}
                onChange={(event) => void changeView({ showMetadata: event.target.checked })}
              />{' '}
              Show bookkeeping lines
            </label>
            {!outline.isLiveBranch ? (
              <button type="button" onClick={() => void changeView({ leafUuid: null })}>
                Back to the live branch
              </button>
            ) : null}
            {outline.agent === null ? <ExportButtons session={session} /> : null}
          </div>
          <div className="tx-body">
            <TranscriptList outline={outline} onOpenSubagent={openSubagent} />
            <SessionSidePanel outline={outline} onOpenSubagent={openSubagent} />
          </div>
        </>
      ) : error ? null : (
        <PendingState label="Opening the transcript" />
      )}
    </section>
  );
}
