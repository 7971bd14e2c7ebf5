import { useMemo } from 'react';
import { diffTexts, foldUnchanged, type DiffLine } from '../../../../shared/history/textDiff';
import type { SnapshotDiffEntry } from '../../../../shared/model/agents';

function lineText(line: Exclude<DiffLine, { kind: 'skipped' }>): string {
  return line.kind === 'same' ? line.text : line.segments.map((segment) => segment.text).join('');
}

export interface SnapshotFileDiffProps {
  readonly entry: SnapshotDiffEntry;
}

/** One file's lines as local memory has them (−) against the snapshot's (+): what taking the snapshot's version would change. */
export function SnapshotFileDiff({ entry }: SnapshotFileDiffProps) {
  const unshowable = (entry.local && entry.local.text === null) || (entry.snapshot && entry.snapshot.text === null);
  const lines = useMemo(
    () => (unshowable ? [] : foldUnchanged(diffTexts(entry.local?.text ?? null, entry.snapshot?.text ?? null).lines)),
    [entry, unshowable],
  );
  if (unshowable) return <p className="muted small">Binary, not UTF-8 or too large to show; compared by content hash only.</p>;
  if (lines.length === 0) return <p className="muted small">Both are empty.</p>;
  return (
    <pre className="snapshot-diff" aria-label={`Differences in ${entry.name}`}>
      {lines.map((line, index) =>
        line.kind === 'skipped' ? (
          <div key={index} className="diff-skipped">
            … {line.count} unchanged {line.count === 1 ? 'line' : 'lines'}
          </div>
        ) : (
          <div key={index} className={`diff-${line.kind}`}>
            {line.kind === 'removed' ? '− ' : line.kind === 'added' ? '+ ' : '  '}
            {lineText(line)}
          </div>
        ),
      )}
    </pre>
  );
}
