import { useState, type FormEvent } from 'react';
import type { MemoryFolderRef } from '../../../../shared/memory/memoryFolderRef';
import type { MemoryFileContent } from '../../../../shared/memory/memoryReview';
import { ErrorAlert } from '../../components/ErrorAlert';
import { useMutation } from '../../components/useMutation';
import { setMode } from './memoryReviewStore';
import { renameMemory } from './memoryWrites';

/** Renames a memory file; its pointer in MEMORY.md follows. */
export function RenameForm({ folder, file }: { readonly folder: MemoryFolderRef; readonly file: MemoryFileContent }) {
  const [to, setTo] = useState(file.relativePath);
  const renaming = useMutation();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void renaming.run(() => renameMemory({ folder, from: file.relativePath, to: to.trim(), baseHash: file.hash }));
  };
  return (
    <form className="inline-form" aria-label="Rename memory" onSubmit={submit}>
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
      <ErrorAlert error={renaming.error} />
    </form>
  );
}
