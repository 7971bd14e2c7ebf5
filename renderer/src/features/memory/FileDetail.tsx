import { useEffect, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { resolveIndexTarget } from '../../../../shared/memory/memoryIndex';
import type { MemoryFolderRef } from '../../../../shared/memory/memoryFolderRef';
import type { MemoryFileContent, MemoryReview, ReviewedMemoryFile } from '../../../../shared/memory/memoryReview';
import { PendingState } from '../../components/PendingState';
import { SecretsNotice, useCanRevealSecrets } from '../../components/SecretsNotice';
import { FileFindings } from './FileFindings';
import { FileProvenance } from './FileProvenance';
import { FileViews, type FileTab } from './FileViews';
import { TypeBadge } from './MemoryBadges';
import { MemoryEditor } from './MemoryEditor';
import { selectFile, setMode, useMemoryReviewStore } from './memoryReviewStore';
import { PruneConfirm } from './PruneConfirm';
import { RenameForm } from './RenameForm';
import { useMemoryFile } from './useMemoryFile';
import { useSecretReveal } from './useSecretReveal';

export interface FileDetailProps {
  readonly folder: MemoryFolderRef;
  readonly review: MemoryReview;
  readonly entry: ReviewedMemoryFile;
}

function folderOf(relativePath: string): string {
  return relativePath.includes('/') ? relativePath.slice(0, relativePath.lastIndexOf('/')) : '';
}

/** One memory: rendered, raw, its frontmatter fields and what the model gets when it is recalled; edit, rename, prune. */
export function FileDetail({ folder, review, entry }: FileDetailProps) {
  const { mode, revision, changedAt } = useMemoryReviewStore(
    useShallow((s) => ({ mode: s.mode, revision: s.revision, changedAt: s.changed[entry.relativePath] ?? 0 })),
  );
  const state = useMemoryFile(folder, entry.relativePath, revision);
  const [tab, setTab] = useState<FileTab>('Rendered');
  const [editing, setEditing] = useState<{ file: MemoryFileContent; since: number } | null>(null);
  const canReveal = useCanRevealSecrets();
  const secrets = useSecretReveal(folder, entry.relativePath, state);
  useEffect(() => {
    if (mode !== 'edit') setEditing(null);
  }, [mode]);
  const title = entry.name ?? entry.relativePath;
  const readOnly = review.readOnlyReason;
  const loaded = state.status === 'done' ? state.file : null;
  const file = secrets.revealed ?? loaded;
  const canChange = file !== null && file.editable && readOnly === null;
  // The editor needs the real text (masks saved back would destroy the secret): only where it can be revealed.
  const canEdit = canChange && (file.secretsMasked === 0 || canReveal);
  const startEditing = async () => {
    const real = file && file.secretsMasked > 0 ? await secrets.read() : file;
    if (!real) return;
    setEditing({ file: real, since: Date.now() });
    setMode('edit');
  };
  const openLink = (target: string) => {
    const path = resolveIndexTarget(folderOf(entry.relativePath), target);
    if (path && review.files.some((f) => f.relativePath === path)) selectFile(path);
  };
  return (
    <article className="file-detail" aria-label="Memory file">
      <header className="detail-header">
        <div>
          <h2>{title}</h2>
          <code className="muted">{entry.relativePath}</code> <TypeBadge file={entry} /> <span className="badge">{entry.scope}</span>{' '}
          <span className="muted">changed {entry.age}</span>
        </div>
        <div className="actions">
          <button type="button" disabled={!canEdit || mode === 'edit'} onClick={() => void startEditing()}>
            Edit
          </button>
          <button type="button" disabled={!canChange} onClick={() => setMode('rename')}>
            Rename
          </button>
          <button type="button" disabled={file === null || readOnly !== null || entry.isSymlink} onClick={() => setMode('prune')}>
            Prune
          </button>
        </div>
      </header>
      <FileProvenance folder={folder} path={entry.relativePath} revision={revision + changedAt} />
      {file && !file.editable ? <p className="muted">Not editable here: {file.notEditableReason}</p> : null}
      {file && file.editable && !canEdit && readOnly === null ? (
        <p className="muted">
          Not editable here: it holds what looks like a secret, which the web shell never shows. Edit it in the desktop app.
        </p>
      ) : null}
      {file && mode !== 'edit' ? (
        <SecretsNotice
          masked={file.secretsMasked}
          revealed={secrets.revealed !== null}
          onReveal={canReveal ? secrets.show : null}
          onHide={secrets.hide}
        />
      ) : null}
      {secrets.error ? <p className="error">{secrets.error}</p> : null}
      <FileFindings review={review} path={entry.relativePath} />
      {state.status === 'loading' ? <PendingState label="Reading the file" /> : null}
      {state.status === 'error' ? <p className="error">{state.message}</p> : null}
      {mode === 'edit' && editing ? (
        <>
          {changedAt > editing.since ? (
            <p role="status" className="warning">
              This file just changed on disk. Saving will show both versions; nothing is overwritten without asking.
            </p>
          ) : null}
          <MemoryEditor folder={folder} file={editing.file} />
        </>
      ) : null}
      {mode === 'rename' && file ? <RenameForm folder={folder} file={file} /> : null}
      {mode === 'prune' && file ? <PruneConfirm folder={folder} file={file} title={title} /> : null}
      {mode !== 'edit' && file ? <FileViews entry={entry} file={file} tab={tab} onTab={setTab} onLocalLink={openLink} /> : null}
    </article>
  );
}
