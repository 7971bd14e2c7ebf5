import type { TranscriptOutline } from '../../../../shared/transcript/transcriptOutline';
import { SessionMemoryChanges } from '../history/SessionMemoryChanges';
import { SessionMemoryPanel } from './SessionMemoryPanel';
import { changeView, scrollToRow } from './transcriptStore';
import { UsageChart } from './UsageChart';
import { formatBytes, formatCount, formatTime, shortId } from './transcriptFormat';
import { countOf } from '../../../../shared/text/plural';
import { MiddleTruncate } from '../../components/MiddleTruncate';

export interface SessionSidePanelProps {
  readonly outline: TranscriptOutline;
  readonly onOpenSubagent: (agentId: string) => void;
}

const LAYOUT_NAMES = {
  inline: 'inline (Claude Code 1.0)',
  'sibling-file': 'file beside the session (2.0)',
  'subagents-folder': 'subagents folder (2.1+)',
} as const;

/** Beside the transcript: the session memory, the memory changes it caused, the sub-agent runs, the compactions, other conversations, the file's health. */
export function SessionSidePanel({ outline, onOpenSubagent }: SessionSidePanelProps) {
  const session = { configRoot: outline.configRoot, slug: outline.slug, sessionId: outline.sessionId };
  return (
    <aside className="tx-side" aria-label="Session details" tabIndex={0}>
      {!outline.mainTranscript ? (
        <p className="notice small" role="note">
          This session's own transcript is gone (Claude Code's cleanup, or a partial backup); what its sub-agents did is left.
        </p>
      ) : null}
      {/* Claude Code 2.1.328 no longer writes session memory: its absence is no finding, so only a present one is shown. */}
      {outline.hasSessionMemory ? (
        <section aria-label="Session memory panel">
          <h2>Session memory</h2>
          <SessionMemoryPanel session={session} generation={outline.generation} />
        </section>
      ) : null}
      <section aria-label="Token use">
        <h2>Token use</h2>
        <UsageChart outline={outline} />
      </section>
      <SessionMemoryChanges {...session} />
      {outline.subagents.length > 0 ? (
        <section>
          <h2>Sub-agents ({outline.subagents.length})</h2>
          <ul className="plain-list" aria-label="Sub-agents">
            {outline.subagents.map((agent) => (
              <li key={agent.agentId} className="tx-side-item" style={{ marginLeft: `${(agent.depth - 1) * 1.2}em` }}>
                <button type="button" className="tx-link" onClick={() => onOpenSubagent(agent.agentId)} title={agent.path}>
                  {agent.agentType ?? 'Sub-agent'} <code>{shortId(agent.agentId)}</code>
                </button>
                <div className="muted small">{agent.description ?? ''}</div>
                <div className="muted small">
                  {LAYOUT_NAMES[agent.layout]}
                  {agent.parentAgentId !== null ? ` · started by ${shortId(agent.parentAgentId)}` : ''}
                  {agent.workflowRunId !== null ? ` · workflow ${agent.workflowRunId}` : ''}
                  {agent.toolUseId === null ? ' · not linked to a call' : ''}
                </div>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {outline.compactions.length > 0 ? (
        <section>
          <h2>Compactions ({outline.compactions.length})</h2>
          <ul className="plain-list" aria-label="Compactions">
            {outline.compactions.map((mark) => (
              <li key={mark.row}>
                <button type="button" className="tx-link" onClick={() => scrollToRow(mark.row)}>
                  {formatTime(mark.timestamp)} · {mark.trigger ?? 'compaction'}
                  {mark.preTokens !== null ? ` · ${formatCount(mark.preTokens)} tokens` : ''}
                </button>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {outline.otherRoots.length > 0 ? (
        <section>
          <h2>Other conversations in this file ({outline.otherRoots.length})</h2>
          <ul className="plain-list" aria-label="Other conversations">
            {outline.otherRoots.map((root) => (
              <li key={root.leafUuid}>
                <button type="button" className="tx-link" onClick={() => void changeView({ leafUuid: root.leafUuid })}>
                  {root.preview || '(no text)'}
                </button>
                <div className="muted small">
                  {countOf(root.entryCount, 'entry', 'entries')} · {formatTime(root.timestamp)}
                </div>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section>
        <h2>File</h2>
        <dl className="facts small" aria-label="File facts">
          <dt>Path</dt>
          <dd>
            <MiddleTruncate code text={outline.shownPath} />
          </dd>
          {outline.shownPath !== outline.path ? null : outline.mainTranscript ? (
            <>
              <dt>Size</dt>
              <dd>{formatBytes(outline.bytes)}</dd>
            </>
          ) : (
            <>
              <dt>Size</dt>
              <dd>gone from the disk</dd>
            </>
          )}
          <dt>Lines</dt>
          <dd>{formatCount(outline.stats.lines)}</dd>
          <dt>Bad lines</dt>
          <dd>
            {formatCount(outline.stats.badLines)}
            {outline.stats.tooLongLines > 0 ? ` (${outline.stats.tooLongLines} too long, skipped)` : ''}
          </dd>
          {outline.stats.danglingParents + outline.stats.cycles + outline.stats.duplicateUuids > 0 ? (
            <>
              <dt>Chain</dt>
              <dd>
                {countOf(outline.stats.danglingParents, 'dangling parent')} (shown after the line before them),{' '}
                {countOf(outline.stats.cycles, 'cycle')} cut, {countOf(outline.stats.duplicateUuids, 'repeated uuid')}
              </dd>
            </>
          ) : null}
          {outline.stats.unreachableLines > 0 ? (
            <>
              <dt>On no branch</dt>
              <dd aria-label="Messages on no branch">
                {outline.unreachable
                  .map((item) => `line ${item.line} (${item.reason === 'no-uuid' ? 'no uuid' : 'uuid reused later'})`)
                  .join(', ')}
                {outline.stats.unreachableLines > outline.unreachable.length
                  ? ` and ${outline.stats.unreachableLines - outline.unreachable.length} more`
                  : ''}
              </dd>
            </>
          ) : null}
        </dl>
      </section>
    </aside>
  );
}
