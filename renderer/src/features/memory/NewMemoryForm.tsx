import { useState, type FormEvent } from 'react';
import type { MemoryFolderRef } from '../../../../shared/memory/memoryFolderRef';
import { suggestFileName } from '../../../../shared/memory/memoryTemplate';
import { MEMORY_TYPES, type MemoryType } from '../../../../shared/model/memory';
import { ErrorAlert } from '../../components/ErrorAlert';
import { submitOnSaveShortcut } from '../../components/saveShortcut';
import { useMutation } from '../../components/useMutation';
import { setMode } from './memoryReviewStore';
import { createMemory } from './memoryWrites';

const TYPE_HINTS: Readonly<Record<MemoryType, string>> = {
  user: 'who the user is: role, goals, preferences',
  feedback: 'how to work: a correction or a confirmed approach (with Why / How to apply)',
  project: 'ongoing work, decisions, deadlines (with Why / How to apply; use absolute dates)',
  reference: 'where to find things in other systems',
};

/** A new memory from Claude Code's own template, with its pointer line added to the index. */
export function NewMemoryForm({ folder, allowTeam }: { readonly folder: MemoryFolderRef; readonly allowTeam: boolean }) {
  const [type, setType] = useState<MemoryType>('feedback');
  const [scope, setScope] = useState<'private' | 'team'>('private');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [body, setBody] = useState('');
  const [fileName, setFileName] = useState<string | null>(null);
  const creating = useMutation();
  const shownFileName = fileName ?? suggestFileName(type, name);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const request = { folder, scope, fileName: shownFileName, name: name.trim(), description: description.trim(), type, body };
    void creating.run(() => createMemory(request));
  };
  return (
    <form className="memory-form" aria-label="New memory" onSubmit={submit} onKeyDown={submitOnSaveShortcut}>
      <h2>New memory</h2>
      <label>
        Type
        <select value={type} onChange={(e) => setType(e.target.value as MemoryType)}>
          {MEMORY_TYPES.map((t) => (
            <option key={t} value={t}>
              {t} — {TYPE_HINTS[t]}
            </option>
          ))}
        </select>
      </label>
      {allowTeam ? (
        <label>
          Scope
          <select value={scope} onChange={(e) => setScope(e.target.value as 'private' | 'team')}>
            <option value="private">private</option>
            <option value="team">team (shared; never put secrets here)</option>
          </select>
        </label>
      ) : null}
      <label>
        Name
        <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
      </label>
      <label>
        Description (one line; what recall uses to judge relevance)
        <input value={description} onChange={(e) => setDescription(e.target.value)} required maxLength={300} />
      </label>
      <label>
        File name
        <input value={shownFileName} onChange={(e) => setFileName(e.target.value)} />
      </label>
      <label>
        {type === 'feedback' || type === 'project' ? 'The rule or fact (Why and How to apply lines are added)' : 'The memory'}
        <textarea value={body} onChange={(e) => setBody(e.target.value)} rows={6} />
      </label>
      <ErrorAlert error={creating.error} />
      <div className="actions">
        <button type="submit" className="primary" disabled={!name.trim() || !description.trim()}>
          Create
        </button>
        <button type="button" onClick={() => setMode('view')}>
          Cancel
        </button>
      </div>
    </form>
  );
}
