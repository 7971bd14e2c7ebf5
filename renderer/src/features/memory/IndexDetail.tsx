import { useShallow } from 'zustand/react/shallow';
import { FINDING_INFO } from '../../../../shared/memory/findingCodes';
import type { MemoryFolderRef } from '../../../../shared/memory/memoryFolderRef';
import type { IndexView, MemoryReview } from '../../../../shared/memory/memoryReview';
import { MAX_ENTRYPOINT_BYTES, MAX_ENTRYPOINT_LINES } from '../../../../shared/memory/modelView';
import { FindingActions } from './FindingActions';
import { IndexEditor } from './IndexEditor';
import { cutText, IndexText } from './IndexText';
import { FindingBadge } from './MemoryBadges';
import { setMode, useMemoryReviewStore } from './memoryReviewStore';
import { useMemoryFile } from './useMemoryFile';

export interface IndexDetailProps {
  readonly folder: MemoryFolderRef;
  readonly review: MemoryReview;
  readonly index: IndexView;
}

/** MEMORY.md (or team/MEMORY.md): the cut drawn where Claude Code stops loading, its findings with their cures, and the editor. */
export function IndexDetail({ folder, review, index }: IndexDetailProps) {
  const { mode, revision } = useMemoryReviewStore(useShallow((s) => ({ mode: s.mode, revision: s.revision })));
  const state = useMemoryFile(folder, index.relativePath, revision);
  const file = state.status === 'done' ? state.file : null;
  const findings = review.findings.filter((f) => f.file === index.relativePath);
  const canEdit = file !== null && file.editable && review.readOnlyReason === null;
  const { loaded } = index;
  return (
    <article className="file-detail" aria-label="Memory index">
      <header className="detail-header">
        <div>
          <h2>{index.relativePath}</h2>
          <p className="muted small">
            The index Claude Code loads into every session: {loaded.lineCount} of {MAX_ENTRYPOINT_LINES} lines,{' '}
            {loaded.charCount.toLocaleString('en-US')} of {MAX_ENTRYPOINT_BYTES.toLocaleString('en-US')} characters.
          </p>
        </div>
        <div className="actions">
          <button type="button" disabled={!canEdit || mode === 'edit'} onClick={() => setMode('edit')}>
            Edit
          </button>
        </div>
      </header>
      {file && !file.editable ? <p className="muted">Not editable here: {file.notEditableReason}</p> : null}
      {findings.length > 0 ? (
        <ul className="plain-list finding-list" aria-label="Findings for this file">
          {findings.map((f, position) => (
            <li key={`${f.code}:${f.line ?? ''}:${position}`}>
              <FindingBadge code={f.code} severity={f.severity} /> {f.message}
              <span className="muted small"> — {FINDING_INFO[f.code].help}</span> <FindingActions finding={f} review={review} />
            </li>
          ))}
        </ul>
      ) : null}
      {state.status === 'error' ? <p className="error">{state.message}</p> : null}
      {mode === 'edit' && file ? (
        <IndexEditor folder={folder} file={file} />
      ) : (
        <>
          <p className="small">{cutText(index.rawText)}</p>
          <IndexText text={index.rawText} label={`${index.relativePath} as written`} />
        </>
      )}
    </article>
  );
}
