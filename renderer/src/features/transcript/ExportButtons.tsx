import { useState } from 'react';
import type { TranscriptExportFormat } from '../../../../shared/transcript/transcriptOutline';
import { api } from '../../api/connectApi';
import type { SessionKey } from './transcriptStore';
import { countOf } from '../../../../shared/text/plural';

/** Fetches an export chunk by chunk (the engine never builds it whole) and hands the file to the browser as a download. */
async function exportSession(
  session: SessionKey,
  format: TranscriptExportFormat,
  onProgress: (done: number, total: number) => void,
): Promise<void> {
  const parts: string[] = [];
  let fileName = '';
  let mimeType = 'text/plain';
  for (let cursor: number | null = 0; cursor !== null;) {
    const result = await api.exportTranscript({ ...session, format, cursor });
    if (!result.ok) throw new Error(result.error.message);
    parts.push(result.value.text);
    fileName = result.value.fileName;
    mimeType = result.value.mimeType;
    cursor = result.value.nextCursor;
    onProgress(cursor ?? result.value.totalRows, result.value.totalRows);
  }
  const url = URL.createObjectURL(new Blob(parts, { type: `${mimeType};charset=utf-8` }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  // Give the download a moment to start before the object URL goes away.
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export function ExportButtons({ session }: { readonly session: SessionKey }) {
  const [status, setStatus] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (format: TranscriptExportFormat) => {
    setBusy(true);
    try {
      await exportSession(session, format, (done, total) => setStatus(`Exporting ${done} of ${countOf(total, 'entry', 'entries')}…`));
      setStatus(null);
    } catch (error) {
      setStatus(`Export failed: ${(error as Error).message}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <span className="tx-export" role="group" aria-label="Export">
      <button type="button" disabled={busy} onClick={() => void run('markdown')}>
        Export Markdown
      </button>
      <button type="button" disabled={busy} onClick={() => void run('html')}>
        Export HTML
      </button>
      {status ? <span className="muted small">{status}</span> : null}
    </span>
  );
}
