import { useEffect, useState, type FormEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { FINDING_INFO } from '../../../../shared/memory/findingCodes';
import { resolveIndexTarget } from '../../../../shared/memory/memoryIndex';
import type { MemoryFolderRef } from '../../../../shared/memory/memoryFolderRef';
import type { MemoryFileContent, MemoryReview, ReviewedMemoryFile } from '../../../../shared/memory/memoryReview';
import { api } from '../../api/connectApi';
import { MarkdownView } from '../../components/MarkdownView';
import { FindingActions } from './FindingActions';
import { SecretsNotice, useCanRevealSecrets } from '../../components/SecretsNotice';
import { FileProvenance } from './FileProvenance';
import { FindingBadge, TypeBadge } from './MemoryBadges';
import { MemoryEditor } from './MemoryEditor';
import { offerUndo, refreshAll, selectFile, setMode, useMemoryReviewStore } from './memoryReviewStore';
import { useMemoryFile } from './useMemoryFile';

const TABS = ['Rendered', 'Raw', 'Frontmatter', 'As recalled'] as const;
type Tab = (typeof TABS)[number];

export interface FileDetailProps {
  readonly folder: MemoryFolderRef;
  readonly review: MemoryReview;
  readonly entry: ReviewedMemoryFile;
}

function folderOf(relativePath: string): string {
  return relativePath.includes('/') ? relativePath.slice(0, relativePath.lastIndexOf('/')) : '';
}

function RenameForm({ folder, file }: { readonly folder: MemoryFolderRef; readonly file: MemoryFileContent }) {
  const [to, setTo] = useState(file.relativePath);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const result = await api.renameMemoryFile({ folder, from: file.relativePath, to: to.trim(), baseHash: file.hash });
    if (!result.ok) return setError(result.error.message);
    offerUndo({ changeSetId: result.value.changeSetId, message: result.value.description });
    selectFile(result.value.relativePath);
    refreshAll();
  };
  return (
    <form className="inline-form" aria-label="Rename memory" onSubmit={(e) => void submit(e)}>
      <label>
        New file name
        <input value={to} onChange={(e) => setTo(e.target.value)} />
      </label>
      <button type="submit" className="primary" disabled={to.trim() === file.relativePath || !to.trim().endsWith('.md')}>
        Rename
      </button>
      <button type="button" onClick={() => setMode('view')}>
        Cancel
      </button>
      <p className="muted small">Pointers in MEMORY.md follow the file.</p>
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
    </form>
  );
}

function PruneConfirm({
  folder,
  file,
  title,
}: {
  readonly folder: MemoryFolderRef;
  readonly file: MemoryFileContent;
  readonly title: string;
}) {
  const [error, setError] = useState<string | null>(null);
  const prune = async () => {
    const result = await api.pruneMemoryFile({ folder, relativePath: file.relativePath, baseHash: file.hash });
    if (!result.ok) return setError(result.error.message);
    offerUndo({ changeSetId: result.value.changeSetId, message: `Pruned ${title}` });
    selectFile(null);
    refreshAll();
  };
  return (
    <div className="inline-form" role="group" aria-label="Prune memory">
      <p>
        Prune <strong>{title}</strong> and its pointer in MEMORY.md? Both are kept in history, so you can undo it.
      </p>
      <button type="button" className="danger" onClick={() => void prune()}>
        Prune
      </button>
      <button type="button" onClick={() => setMode('view')}>
        Cancel
      </button>
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** One memory: rendered, raw, its frontmatter fields and what the model gets when it is recalled; edit, rename, prune. */
export function FileDetail({ folder, review, entry }: FileDetailProps) {
  const { mode, revision, changedAt } = useMemoryReviewStore(
    useShallow((s) => ({ mode: s.mode, revision: s.revision, changedAt: s.changed[entry.relativePath] ?? 0 })),
  );
  const state = useMemoryFile(folder, entry.relativePath, revision);
  const [tab, setTab] = useState<Tab>('Rendered');
  const [editing, setEditing] = useState<{ file: MemoryFileContent; since: number } | null>(null);
  const canReveal = useCanRevealSecrets();
  /** The file with its secrets shown, after an explicit click (desktop only); cleared when the file changes. */
  const [revealed, setRevealed] = useState<MemoryFileContent | null>(null);
  const [revealError, setRevealError] = useState<string | null>(null);
  useEffect(() => {
    if (mode !== 'edit') setEditing(null);
  }, [mode]);
  useEffect(() => {
    setRevealed(null);
    setRevealError(null);
  }, [state]);
  const findings = review.findings.filter((f) => f.file === entry.relativePath);
  const title = entry.name ?? entry.relativePath;
  const readOnly = review.readOnlyReason;
  const loaded = state.status === 'done' ? state.file : null;
  const file = revealed ?? loaded;
  const canChange = file !== null && file.editable && readOnly === null;
  // The editor needs the real text (masks saved back would destroy the secret): only where it can be revealed.
  const canEdit = canChange && (file.secretsMasked === 0 || canReveal);
  const reveal = async (): Promise<MemoryFileContent | null> => {
    const result = await api.readMemoryFile({ folder, relativePath: entry.relativePath, revealSecrets: true });
    if (!result.ok) {
      setRevealError(result.error.message);
      return null;
    }
    return result.value;
  };
  const startEditing = async () => {
    const real = file && file.secretsMasked > 0 ? await reveal() : file;
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
          revealed={revealed !== null}
          onReveal={canReveal ? () => void reveal().then(setRevealed) : null}
          onHide={() => setRevealed(null)}
        />
      ) : null}
      {revealError ? <p className="error">{revealError}</p> : null}
      {findings.length > 0 ? (
        <ul className="plain-list finding-list" aria-label="Findings for this file">
          {findings.map((f, index) => (
            <li key={`${f.code}:${f.line ?? ''}:${index}`}>
              <FindingBadge code={f.code} severity={f.severity} /> {f.message}
              {f.code === 'duplicate.near' && f.related ? (
                <>
                  {' '}
                  <button type="button" className="link" onClick={() => selectFile(f.related)}>
                    open {f.related}
                  </button>
                </>
              ) : null}
              <span className="muted small"> — {FINDING_INFO[f.code].help}</span> <FindingActions finding={f} review={review} />
            </li>
          ))}
        </ul>
      ) : null}
      {state.status === 'loading' ? <p className="muted">Loading…</p> : null}
      {state.status === 'error' ? <p className="error">{state.message}</p> : null}
      {mode === 'edit' && editing ? (
        <>
          {changedAt > editing.since ? (
            <p role="status" className="warning">
              This file just changed on disk. Saving will show both versions; nothing is overwritten without asking.
            </p>
          ) : null}
          <MemoryEditor
            folder={folder}
            file={editing.file}
            onSaved={(result) => {
              offerUndo({ changeSetId: result.changeSetId, message: result.description });
              setMode('view');
              refreshAll();
            }}
            onCancel={() => {
              setMode('view');
              refreshAll();
            }}
          />
        </>
      ) : null}
      {mode === 'rename' && file ? <RenameForm folder={folder} file={file} /> : null}
      {mode === 'prune' && file ? <PruneConfirm folder={folder} file={file} title={title} /> : null}
      {mode !== 'edit' && file ? (
        <>
          <div className="subtabs" role="tablist" aria-label="File views">
            {TABS.map((t) => (
              <button
                key={t}
                type="button"
                role="tab"
                aria-selected={t === tab}
                className={t === tab ? 'tab active' : 'tab'}
                onClick={() => setTab(t)}
              >
                {t}
              </button>
            ))}
          </div>
          {tab === 'Rendered' ? <MarkdownView text={file.body} onLocalLink={openLink} label="Rendered memory" /> : null}
          {tab === 'Raw' ? (
            <pre className="raw-text" aria-label="Raw text">
              {file.text}
            </pre>
          ) : null}
          {tab === 'Frontmatter' ? (
            <div>
              <p className="muted">
                Layout: {file.variant}
                {file.frontmatterError ? ` — ${file.frontmatterError}` : ''}
              </p>
              {file.fields.length > 0 ? (
                <dl className="facts" aria-label="Frontmatter fields">
                  {file.fields.map((f) => (
                    <div key={`${f.nested ? 'metadata.' : ''}${f.key}`} className="fact">
                      <dt>{f.nested ? `metadata.${f.key}` : f.key}</dt>
                      <dd>{f.value}</dd>
                    </div>
                  ))}
                </dl>
              ) : (
                <p className="muted">No fields.</p>
              )}
              {file.frontmatterText !== null ? <pre className="raw-text">{file.frontmatterText}</pre> : null}
            </div>
          ) : null}
          {tab === 'As recalled' ? (
            <div>
              <p>
                {entry.inScan ? 'Offered for recall' : 'Never offered for recall (older than the 200 newest files)'}. Read up to 200 lines /
                4,096 bytes:{' '}
                {entry.recall.truncated
                  ? `cut after ${entry.recall.lines} of ${entry.recall.totalLines} lines (${entry.recall.reason === 'bytes' ? '4,096-byte limit' : '200-line limit'}).`
                  : 'read whole.'}
              </p>
              <p className="muted">
                Manifest line: <code>{entry.manifestLine}</code>
              </p>
              {entry.freshnessNote ? (
                <p className="warning">Age note given to the model: {entry.freshnessNote}</p>
              ) : (
                <p className="muted">No age note: it is a day old or newer.</p>
              )}
              <pre className="raw-text" aria-label="As the model gets it">
                {file.recalledText}
              </pre>
            </div>
          ) : null}
        </>
      ) : null}
    </article>
  );
}
