import { useState } from 'react';
import type { FileEdit } from '../../../../shared/transcript/transcriptEntry';

/** Diff lines shown before "Show all": a long edit stays collapsed. */
const COLLAPSED_LINES = 30;

export interface DiffViewProps {
  readonly edit: FileEdit;
  /** Show the file name above the diff (not needed when the call's summary already says it). */
  readonly showPath?: boolean;
}

/** An edit as a unified diff: hunk headers, removed lines in red, added lines in green; long ones collapsed. */
export function DiffView({ edit, showPath = true }: DiffViewProps) {
  const [open, setOpen] = useState(false);
  const total = edit.hunks.reduce((sum, hunk) => sum + hunk.lines.length + 1, 0);
  let budget = open ? Number.POSITIVE_INFINITY : COLLAPSED_LINES;
  return (
    <div className="tx-diff" aria-label={`Diff of ${edit.filePath}`}>
      {showPath ? <div className="tx-diff-file">{edit.filePath}</div> : null}
      {edit.hunks.length === 0 ? <p className="muted small">No change to show (the edit was too large to compare here).</p> : null}
      {edit.hunks.map((hunk, index) => {
        if (budget <= 0) return null;
        const lines = hunk.lines.slice(0, Math.max(0, budget - 1));
        budget -= lines.length + 1;
        return (
          <pre key={index} className="tx-diff-hunk">
            <span className="tx-diff-header">{`@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`}</span>
            {lines.map((line, lineIndex) => (
              <span
                key={lineIndex}
                className={line.startsWith('+') ? 'tx-diff-add' : line.startsWith('-') ? 'tx-diff-del' : 'tx-diff-context'}
              >
                {line}
              </span>
            ))}
          </pre>
        );
      })}
      {total > COLLAPSED_LINES ? (
        <button type="button" className="tx-link" onClick={() => setOpen(!open)}>
          {open ? 'Show less' : `Show the whole diff (${total} lines)`}
        </button>
      ) : null}
    </div>
  );
}
