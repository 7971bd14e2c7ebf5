import { useMemo } from 'react';
import {
  diffTexts,
  foldUnchanged,
  toSideBySide,
  type DiffLine,
  type DiffSegment,
  type SideCell,
} from '../../../../shared/history/textDiff';
import type { DiffLayout } from './historyStore';

export interface DiffViewerProps {
  /** Null where the file did not exist on that side. */
  readonly before: string | null;
  readonly after: string | null;
  readonly layout: DiffLayout;
  /** Names the diff for screen readers and tests. */
  readonly label: string;
}

function Segments({ segments, kind }: { readonly segments: readonly DiffSegment[]; readonly kind: 'same' | 'removed' | 'added' }) {
  return (
    <>
      {segments.map((segment, index) =>
        segment.changed ? (
          <mark key={index} className={kind === 'removed' ? 'word-removed' : 'word-added'}>
            {segment.text}
          </mark>
        ) : (
          <span key={index}>{segment.text}</span>
        ),
      )}
    </>
  );
}

const SIGN = { same: ' ', removed: '−', added: '+' } as const;

function InlineRow({ line }: { readonly line: DiffLine }) {
  if (line.kind === 'skipped')
    return (
      <tr className="diff-fold">
        <td colSpan={4}>… {line.count} unchanged lines …</td>
      </tr>
    );
  const segments = line.kind === 'same' ? [{ text: line.text, changed: false }] : line.segments;
  return (
    <tr className={`diff-${line.kind}`}>
      <td className="diff-num">{line.kind === 'added' ? '' : line.oldLine}</td>
      <td className="diff-num">{line.kind === 'removed' ? '' : line.newLine}</td>
      <td className="diff-sign">{SIGN[line.kind]}</td>
      <td className="diff-text">
        <Segments segments={segments} kind={line.kind} />
      </td>
    </tr>
  );
}

function Cell({ cell }: { readonly cell: SideCell | null }) {
  if (!cell)
    return (
      <>
        <td className="diff-num diff-empty" />
        <td className="diff-text diff-empty" />
      </>
    );
  return (
    <>
      <td className={`diff-num diff-${cell.kind}`}>{cell.line}</td>
      <td className={`diff-text diff-${cell.kind}`}>
        <Segments segments={cell.segments} kind={cell.kind} />
      </td>
    </>
  );
}

/**
 * Two versions of a file, side by side or inline, with the changed words highlighted inside changed lines.
 * Drawn here from the shared line/word diff; long unchanged stretches are folded.
 */
export function DiffViewer({ before, after, layout, label }: DiffViewerProps) {
  const diff = useMemo(() => diffTexts(before, after), [before, after]);
  const lines = useMemo(() => foldUnchanged(diff.lines), [diff]);
  if (before === after) return <p className="muted">No difference.</p>;
  return (
    <div className="diff-viewer">
      <p className="muted small">
        {before === null ? 'New file' : after === null ? 'Deleted' : 'Changed'} · +{diff.linesAdded} −{diff.linesRemoved}
        {diff.approximate ? ' · too different to compare line by line; shown as a whole replacement' : ''}
      </p>
      <table className={`diff-table diff-${layout}`} aria-label={label}>
        {/* The columns' widths, whatever the first row is (a folded stretch spans them all). */}
        {layout === 'inline' ? (
          <colgroup>
            <col className="diff-num-col" />
            <col className="diff-num-col" />
            <col className="diff-sign-col" />
            <col />
          </colgroup>
        ) : (
          <colgroup>
            <col className="diff-num-col" />
            <col />
            <col className="diff-num-col" />
            <col />
          </colgroup>
        )}
        <tbody>
          {layout === 'inline'
            ? lines.map((line, index) => <InlineRow key={index} line={line} />)
            : toSideBySide(lines).map((row, index) =>
                row.kind === 'skipped' ? (
                  <tr key={index} className="diff-fold">
                    <td colSpan={4}>… {row.count} unchanged lines …</td>
                  </tr>
                ) : (
                  <tr key={index}>
                    <Cell cell={row.left} />
                    <Cell cell={row.right} />
                  </tr>
                ),
              )}
        </tbody>
      </table>
    </div>
  );
}
