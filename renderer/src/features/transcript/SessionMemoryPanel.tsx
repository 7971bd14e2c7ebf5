import { MarkdownView } from '../../components/MarkdownView';
import { useRequest } from '../../components/useRequest';
import { api } from '../../api/connectApi';
import type { SessionKey } from './transcriptStore';
import { formatTime } from './transcriptFormat';
import { PendingState } from '../../components/PendingState';

/** The session's rolling notes (`<session>/session-memory/summary.md`), section by section. */
export function SessionMemoryPanel({ session, generation }: { readonly session: SessionKey; readonly generation: number }) {
  const state = useRequest(`${session.configRoot}\0${session.slug}\0${session.sessionId}\0${generation}`, () =>
    api.readSessionMemory(session),
  );
  if (state.status === 'loading') return <PendingState label="Reading session memory" />;
  if (state.status === 'error') return <p className="error small">{state.message}</p>;
  const memory = state.value;
  if (!memory.exists) return <p className="muted small">This session has no session memory.</p>;
  return (
    <div className="tx-session-memory" aria-label="Session memory">
      <p className="muted small">
        <code>{memory.path}</code>
        {memory.modified ? ` · updated ${formatTime(memory.modified)}` : ''}
      </p>
      {memory.sections.map((section, index) => (
        <details key={`${section.title}${index}`} open={section.content !== ''} className="tx-memory-section">
          <summary>{section.title || '(before the first section)'}</summary>
          {section.description ? <p className="muted small">{section.description}</p> : null}
          {section.content !== '' ? <MarkdownView text={section.content} /> : <p className="muted small">(empty)</p>}
        </details>
      ))}
    </div>
  );
}
