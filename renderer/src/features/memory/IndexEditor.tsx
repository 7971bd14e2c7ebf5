import { useRef, useState, type FormEvent } from 'react';
import type { MemoryFolderRef } from '../../../../shared/memory/memoryFolderRef';
import type { MemoryConflictDetails, MemoryFileContent } from '../../../../shared/memory/memoryReview';
import { truncateEntrypoint, MAX_ENTRYPOINT_BYTES, MAX_ENTRYPOINT_LINES } from '../../../../shared/memory/modelView';
import { estimateTokens } from '../../../../shared/memory/textMetrics';
import { memoryConflictOf } from '../../../../shared/result';
import { ErrorAlert } from '../../components/ErrorAlert';
import { submitOnSaveShortcut } from '../../components/saveShortcut';
import { useMutation } from '../../components/useMutation';
import { ConflictView } from './ConflictView';
import { cutText, IndexText } from './IndexText';
import { cancelEdit, saveMemory } from './memoryWrites';

export interface IndexEditorProps {
  readonly folder: MemoryFolderRef;
  readonly file: MemoryFileContent;
}

/**
 * MEMORY.md in the same safe editor as a topic file (saved against the version it was opened from; a change on
 * disk meanwhile shows both versions), with the cut drawn behind the text as you type and, beside it, exactly what
 * the model will load.
 */
export function IndexEditor({ folder, file }: IndexEditorProps) {
  // Only the body is edited: frontmatter, if an index has any, stays as it is (and counts towards the cut).
  const prefix = file.text.slice(0, file.text.length - file.body.length);
  const [draft, setDraft] = useState(file.body);
  const [base, setBase] = useState({ hash: file.hash, text: file.text });
  const [conflict, setConflict] = useState<MemoryConflictDetails | null>(null);
  const saving = useMutation();
  const backdrop = useRef<HTMLDivElement>(null);
  const whole = prefix + draft;
  const loaded = truncateEntrypoint(whole);

  const save = (baseHash: string) => {
    void saving.run(() => saveMemory({ folder, relativePath: file.relativePath, baseHash, body: draft }), {
      takeOver: (error) => {
        const details = memoryConflictOf(error);
        if (details) setConflict(details);
        return details !== null;
      },
    });
  };

  if (conflict) {
    const current = conflict.currentHash;
    return (
      <ConflictView
        mine={whole}
        conflict={conflict}
        onUseDisk={cancelEdit}
        onKeepMine={
          current === null || conflict.currentText === null
            ? null
            : () => {
                setBase({ hash: current, text: conflict.currentText ?? '' });
                setConflict(null);
                save(current);
              }
        }
      />
    );
  }
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save(base.hash);
  };
  return (
    <form
      className="memory-form index-editor-form"
      aria-label={`Edit ${file.relativePath}`}
      onSubmit={onSubmit}
      onKeyDown={submitOnSaveShortcut}
    >
      <p className="muted small" role="status" aria-label="Where loading stops">
        {loaded.lineCount} of {MAX_ENTRYPOINT_LINES} lines · {loaded.charCount.toLocaleString('en-US')} of{' '}
        {MAX_ENTRYPOINT_BYTES.toLocaleString('en-US')} characters · {cutText(whole)}
      </p>
      <div className="index-editor">
        <div className="index-editor-backdrop" aria-hidden="true" ref={backdrop}>
          <IndexText text={whole} hidden={prefix.length} />
        </div>
        <textarea
          aria-label={`${file.relativePath} text`}
          value={draft}
          spellCheck={false}
          rows={24}
          onChange={(event) => setDraft(event.target.value)}
          onScroll={(event) => {
            if (backdrop.current) backdrop.current.scrollTop = event.currentTarget.scrollTop;
          }}
        />
      </div>
      <details open>
        <summary>What the model will load (about {estimateTokens(loaded.content).toLocaleString('en-US')} tokens, estimated)</summary>
        <pre className="raw-text model-text" aria-label="What the model will load" tabIndex={0}>
          {loaded.content}
        </pre>
      </details>
      <ErrorAlert error={saving.error} />
      <div className="actions">
        <button type="submit" className="primary" disabled={draft === file.body || saving.busy}>
          {saving.busy ? 'Saving…' : 'Save'}
        </button>
        <button type="button" onClick={cancelEdit}>
          Cancel
        </button>
      </div>
    </form>
  );
}
