import { useState, type FormEvent } from 'react';
import { replaceBody, setFrontmatterField } from '../../../../shared/memory/frontmatterPatch';
import type { MemoryFolderRef } from '../../../../shared/memory/memoryFolderRef';
import type { MemoryConflictDetails, MemoryFileContent } from '../../../../shared/memory/memoryReview';
import { MEMORY_TYPES, type MemoryType } from '../../../../shared/model/memory';
import { memoryConflictOf } from '../../../../shared/result';
import { ErrorAlert } from '../../components/ErrorAlert';
import { submitOnSaveShortcut } from '../../components/saveShortcut';
import { useMutation } from '../../components/useMutation';
import { ConflictView } from './ConflictView';
import { cancelEdit, saveMemory } from './memoryWrites';

export interface MemoryEditorProps {
  readonly folder: MemoryFolderRef;
  readonly file: MemoryFileContent;
}

function fieldValue(file: MemoryFileContent, key: string): string {
  return (file.fields.find((f) => f.key === key && !f.nested) ?? file.fields.find((f) => f.key === key))?.value ?? '';
}

interface Draft {
  readonly name: string;
  readonly description: string;
  readonly type: string;
  readonly body: string;
}

/** The edit the user asks for, applied to a text the way the engine will: for showing "your version". */
function applyDraft(text: string, initial: Draft, draft: Draft): string {
  let out = text;
  for (const key of ['name', 'description', 'type'] as const) {
    if (draft[key] !== initial[key]) out = setFrontmatterField(out, key, draft[key]) ?? out;
  }
  return draft.body !== initial.body ? replaceBody(out, draft.body) : out;
}

/** Edits a memory's name, description, type and body; the engine patches only what changed. */
export function MemoryEditor({ folder, file }: MemoryEditorProps) {
  const initial: Draft = {
    name: fieldValue(file, 'name'),
    description: fieldValue(file, 'description'),
    type: fieldValue(file, 'type'),
    body: file.body,
  };
  const [draft, setDraft] = useState<Draft>(initial);
  const [base, setBase] = useState({ hash: file.hash, text: file.text });
  const [conflict, setConflict] = useState<MemoryConflictDetails | null>(null);
  const saving = useMutation();
  const knownType = (MEMORY_TYPES as readonly string[]).includes(initial.type);

  const save = (baseHash: string) => {
    const fields: { name?: string; description?: string; type?: MemoryType } = {};
    if (draft.name !== initial.name) fields.name = draft.name;
    if (draft.description !== initial.description) fields.description = draft.description;
    if (draft.type !== initial.type && (MEMORY_TYPES as readonly string[]).includes(draft.type)) fields.type = draft.type as MemoryType;
    const request = {
      folder,
      relativePath: file.relativePath,
      baseHash,
      ...(Object.keys(fields).length > 0 ? { fields } : {}),
      ...(draft.body !== initial.body ? { body: draft.body } : {}),
    };
    void saving.run(() => saveMemory(request), {
      takeOver: (error) => {
        const details = memoryConflictOf(error);
        if (details) setConflict(details);
        return details !== null;
      },
    });
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save(base.hash);
  };

  const changed = JSON.stringify(draft) !== JSON.stringify(initial);
  if (conflict) {
    const current = conflict.currentHash;
    return (
      <ConflictView
        mine={applyDraft(base.text, initial, draft)}
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
  return (
    <form className="memory-form" aria-label="Edit memory" onSubmit={onSubmit} onKeyDown={submitOnSaveShortcut}>
      <label>
        Name
        <input value={draft.name} onChange={(e) => setDraft({ ...draft, name: e.target.value })} maxLength={500} />
      </label>
      <label>
        Description
        <input value={draft.description} onChange={(e) => setDraft({ ...draft, description: e.target.value })} maxLength={500} />
      </label>
      <label>
        Type
        <select value={draft.type} onChange={(e) => setDraft({ ...draft, type: e.target.value })}>
          {knownType ? null : <option value={initial.type}>{initial.type ? `${initial.type} (unknown)` : '(none)'}</option>}
          {MEMORY_TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
      </label>
      <label>
        Body
        <textarea value={draft.body} onChange={(e) => setDraft({ ...draft, body: e.target.value })} rows={14} spellCheck />
      </label>
      <ErrorAlert error={saving.error} />
      <div className="actions">
        <button type="submit" className="primary" disabled={!changed || saving.busy}>
          {saving.busy ? 'Saving…' : 'Save'}
        </button>
        <button type="button" onClick={cancelEdit}>
          Cancel
        </button>
      </div>
      <p className="muted small">Only the fields you change are rewritten; every other byte of the file stays as it is.</p>
    </form>
  );
}
