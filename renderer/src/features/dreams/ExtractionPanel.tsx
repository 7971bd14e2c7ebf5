import { useState } from 'react';
import type { ExtractionEstimate, ExtractionSource } from '../../../../shared/jobs/jobTypes';
import type { ProjectSummary } from '../../../../shared/model/home';
import type { SessionSummary } from '../../../../shared/model/session';
import { api } from '../../api/connectApi';
import { useMutation } from '../../components/useMutation';
import { useRequest } from '../../components/useRequest';
import { formatCost } from './JobProgressView';
import { startExtraction } from './jobsStore';

export interface ExtractionPanelProps {
  readonly project: ProjectSummary;
  readonly disabled: boolean;
}

function optionalTurn(text: string): number | undefined {
  const value = Number.parseInt(text, 10);
  return Number.isInteger(value) && value > 0 ? value : undefined;
}

/**
 * Sessions by their last message, newest first; those without a dated message (a file of bookkeeping lines only, such
 * as file-history snapshots, which has nothing to replay) after them, by file time. The first is the one offered.
 */
function newestConversationFirst(a: SessionSummary, b: SessionSummary): number {
  return (b.lastTimestamp ?? '').localeCompare(a.lastTimestamp ?? '') || b.mtime.localeCompare(a.mtime);
}

/** Replays Claude Code's memory extraction over a session, a range of its turns, or the last sessions. */
export function ExtractionPanel({ project, disabled }: ExtractionPanelProps) {
  const ref = { configRoot: project.configRoot, slug: project.slug };
  const sessions = useRequest(`${project.configRoot}\0${project.slug}`, () => api.listSessions(ref));
  const [mode, setMode] = useState<'session' | 'recent'>('session');
  const [sessionId, setSessionId] = useState('');
  const [fromTurn, setFromTurn] = useState('');
  const [toTurn, setToTurn] = useState('');
  const [count, setCount] = useState('5');
  const [estimate, setEstimate] = useState<{ key: string; value: ExtractionEstimate } | null>(null);
  const estimating = useMutation();
  const list = sessions.status === 'done' ? [...sessions.value].sort(newestConversationFirst) : [];
  const chosenSession = sessionId || list[0]?.sessionId || '';

  const source: ExtractionSource | null =
    mode === 'recent'
      ? { kind: 'recent', ...ref, count: Math.min(50, Math.max(1, optionalTurn(count) ?? 1)) }
      : chosenSession
        ? { kind: 'session', ...ref, sessionId: chosenSession, fromTurn: optionalTurn(fromTurn), toTurn: optionalTurn(toTurn) }
        : null;
  const sourceKey = JSON.stringify(source);
  const current = estimate?.key === sourceKey ? estimate.value : null;

  async function runEstimate(): Promise<void> {
    if (!source) return;
    const result = await estimating.run(() => api.estimateExtraction({ source }));
    if (result.ok) setEstimate({ key: sourceKey, value: result.value });
  }

  return (
    <section aria-label="Extraction replay">
      <h2>Extraction replay</h2>
      <p className="muted">
        Run a memory extraction pass over earlier conversations; what it would save is proposed for review like a dream.
      </p>
      <div className="actions" role="radiogroup" aria-label="What to read">
        <label>
          <input type="radio" name="extraction-mode" checked={mode === 'session'} onChange={() => setMode('session')} /> One session
        </label>
        <label>
          <input type="radio" name="extraction-mode" checked={mode === 'recent'} onChange={() => setMode('recent')} /> The last sessions
        </label>
      </div>
      {mode === 'session' ? (
        <>
          <div className="field">
            <label htmlFor="extraction-session">Session</label>
            <select id="extraction-session" value={chosenSession} onChange={(event) => setSessionId(event.target.value)}>
              {list.map((session) => (
                <option key={session.sessionId} value={session.sessionId}>
                  {session.title ?? session.sessionId} ({session.lastTimestamp?.slice(0, 10) ?? 'no date'})
                </option>
              ))}
            </select>
          </div>
          <div className="actions">
            <label>
              From turn <input type="number" min={1} value={fromTurn} onChange={(event) => setFromTurn(event.target.value)} size={5} />
            </label>
            <label>
              to turn <input type="number" min={1} value={toTurn} onChange={(event) => setToTurn(event.target.value)} size={5} />
            </label>
            <span className="muted">(empty: the whole session)</span>
          </div>
        </>
      ) : (
        <div className="field">
          <label htmlFor="extraction-count">How many of the latest sessions</label>
          <input id="extraction-count" type="number" min={1} max={50} value={count} onChange={(event) => setCount(event.target.value)} />
        </div>
      )}
      <div className="actions">
        <button type="button" disabled={!source} onClick={() => void runEstimate()}>
          Estimate cost
        </button>
        <button
          type="button"
          className="primary"
          disabled={disabled || !current || current.chunks === 0}
          onClick={() => source && void startExtraction(source)}
        >
          Start replay
        </button>
      </div>
      {current ? (
        <p aria-label="Estimate">
          {current.sessions} session(s), {current.messages} message(s) in {current.chunks} part(s): about{' '}
          {current.inputTokens.toLocaleString('en')} input tokens and at most {current.maxOutputTokens.toLocaleString('en')} output tokens,{' '}
          {formatCost(current.costUsd)} at most with {current.model}.
        </p>
      ) : null}
      {estimating.error ? <p className="error">{estimating.error}</p> : null}
    </section>
  );
}
