import { useState } from 'react';
import { containsText } from '../../components/textMatches';
import { useTranscriptStore } from './transcriptStore';

export interface CollapsibleTextProps {
  readonly text: string;
  /** Lines shown before "Show all". */
  readonly maxLines?: number;
  /** Characters shown before "Show all", for long lines. */
  readonly maxChars?: number;
  readonly className?: string;
  /** Characters the engine left out of a long page (the full text stays in the transcript). */
  readonly omittedChars?: number;
}

/** Long text shown collapsed, with a button to show it all; it opens by itself while find matches its hidden part. */
export function CollapsibleText({ text, maxLines = 16, maxChars = 2000, className = 'tx-text', omittedChars = 0 }: CollapsibleTextProps) {
  const findQuery = useTranscriptStore((s) => (s.find && s.find.hits.length > 0 ? s.find.query : null));
  const [chosen, setOpen] = useState<boolean | null>(null);
  const lines = text.split('\n');
  const long = lines.length > maxLines || text.length > maxChars;
  const collapsed = lines.slice(0, maxLines).join('\n').slice(0, maxChars);
  const open = chosen ?? (long && containsText(text, findQuery) && !containsText(collapsed, findQuery));
  const shown = open || !long ? text : collapsed;
  return (
    <div className="tx-collapsible">
      <div className={className}>{shown}</div>
      {long ? (
        <button type="button" className="tx-link" onClick={() => setOpen(!open)}>
          {open ? 'Show less' : `Show all (${lines.length.toLocaleString('en-US')} lines)`}
        </button>
      ) : null}
      {omittedChars > 0 && (open || !long) ? (
        <p className="muted small">{omittedChars.toLocaleString('en-US')} more characters are in the transcript file.</p>
      ) : null}
    </div>
  );
}
