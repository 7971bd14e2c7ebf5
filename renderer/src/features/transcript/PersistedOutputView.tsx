import { useState } from 'react';
import type { PersistedOutput } from '../../../../shared/transcript/transcriptEntry';
import type { ToolOutputPage } from '../../../../shared/transcript/transcriptOutline';
import { api } from '../../api/connectApi';
import { formatBytes } from '../sessions/formatNumbers';
import { useTranscriptStore } from './transcriptStore';

export interface PersistedOutputViewProps {
  readonly output: PersistedOutput;
}

/**
 * A tool output Claude Code spilled to the session's `tool-results/` folder (the result shows only its preview):
 * read there page by page on demand.
 */
export function PersistedOutputView({ output }: PersistedOutputViewProps) {
  const session = useTranscriptStore((state) => state.session);
  const [pages, setPages] = useState<readonly ToolOutputPage[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const last = pages.at(-1);
  const read = async (offset: number): Promise<void> => {
    if (!session) return;
    setBusy(true);
    try {
      const result = await api.readToolOutput({ ...session, fileName: output.fileName, offset });
      if (!result.ok) throw new Error(result.error.message);
      setPages((known) => [...known, result.value]);
      setError(null);
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : String(caught));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="tx-persisted" aria-label="Full output">
      <p className="muted small">
        Claude Code kept this preview in the transcript; the whole output{output.bytes !== null ? ` (${formatBytes(output.bytes)})` : ''} is
        in <code title={output.recordedPath}>tool-results/{output.fileName}</code>.
      </p>
      {pages.length === 0 ? (
        <button type="button" disabled={busy || !session} onClick={() => void read(0)}>
          Show full output
        </button>
      ) : null}
      {last && !last.exists ? (
        <p className="muted small">That file is not on this machine (it was not copied, or Claude Code removed it).</p>
      ) : null}
      {pages.some((page) => page.exists) ? <pre className="tx-pre tx-full-output">{pages.map((page) => page.text).join('')}</pre> : null}
      {last?.nextOffset !== null && last?.nextOffset !== undefined ? (
        <button type="button" disabled={busy} onClick={() => void read(last.nextOffset as number)}>
          Show more ({formatBytes(last.totalBytes - last.nextOffset)} left)
        </button>
      ) : null}
      {error ? <p className="error small">{error}</p> : null}
    </div>
  );
}
