import { useEffect, useMemo, useState, type KeyboardEvent } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { MemoryFolderListing } from '../../../shared/model/memory';
import { api } from '../api/connectApi';
import { Modal } from '../components/Modal';
import { loadSessionCatalog, useSessionCatalogStore } from '../features/sessions/sessionCatalogStore';
import { useHomeStore } from '../stores/homeStore';
import { useNavigationStore } from '../stores/navigationStore';
import { rankEntries, type EntryKind } from './commandRanking';
import { closeOverlay } from './overlayStore';
import { paletteEntries } from './paletteEntries';

const MAX_SHOWN = 60;

const KIND_NAMES: Readonly<Record<EntryKind, string>> = {
  page: 'Page',
  action: 'Action',
  project: 'Project',
  memory: 'Memory',
  session: 'Session',
};

/** Ctrl/Cmd+K: type to find a page, project, session, memory file or action; arrows choose, Enter goes, Esc closes. */
export function CommandPalette() {
  const projects = useHomeStore(useShallow((s) => s.home?.projects ?? []));
  const selected = useNavigationStore((s) => s.project);
  const sessions = useSessionCatalogStore((s) => s.sessions);
  const [memory, setMemory] = useState<MemoryFolderListing | null>(null);
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);

  useEffect(() => {
    void loadSessionCatalog();
    if (!selected) return;
    let current = true;
    void api.listMemoryFiles(selected).then((result) => current && result.ok && setMemory(result.value));
    return () => {
      current = false;
    };
  }, [selected]);

  const entries = useMemo(() => paletteEntries({ projects, selected, sessions, memory }), [projects, selected, sessions, memory]);
  const shown = useMemo(() => rankEntries(entries, query, MAX_SHOWN), [entries, query]);
  const activeIndex = Math.min(active, Math.max(0, shown.length - 1));

  useEffect(() => {
    document.getElementById(`palette-option-${activeIndex}`)?.scrollIntoView({ block: 'nearest' });
  }, [activeIndex, shown]);

  const choose = (index: number) => {
    const entry = shown[index];
    if (!entry) return;
    closeOverlay();
    entry.run();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const last = shown.length - 1;
    if (event.key === 'ArrowDown') setActive(activeIndex >= last ? 0 : activeIndex + 1);
    else if (event.key === 'ArrowUp') setActive(activeIndex <= 0 ? last : activeIndex - 1);
    else if (event.key === 'PageDown') setActive(Math.min(last, activeIndex + 10));
    else if (event.key === 'PageUp') setActive(Math.max(0, activeIndex - 10));
    else if (event.key === 'Enter') choose(activeIndex);
    else return;
    event.preventDefault();
  };

  return (
    <Modal label="Command palette" onClose={closeOverlay} className="palette">
      <input
        className="palette-input"
        type="text"
        role="combobox"
        aria-label="Go to or do"
        aria-expanded="true"
        aria-controls="palette-options"
        aria-autocomplete="list"
        aria-activedescendant={shown.length > 0 ? `palette-option-${activeIndex}` : undefined}
        placeholder="Go to a page, project, session or memory, or run an action…"
        autoFocus
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          setActive(0);
        }}
        onKeyDown={onKeyDown}
      />
      <ul className="palette-list" id="palette-options" role="listbox" aria-label="Results">
        {shown.map((entry, index) => (
          <li
            key={entry.id}
            id={`palette-option-${index}`}
            role="option"
            aria-selected={index === activeIndex}
            className="palette-item"
            onMouseMove={() => index !== activeIndex && setActive(index)}
            onClick={() => choose(index)}
          >
            <span className="palette-kind">{KIND_NAMES[entry.kind]}</span>
            <span className="palette-label">{entry.label}</span>
            {entry.detail ? <span className="palette-detail">{entry.detail}</span> : null}
            {entry.shortcut ? <kbd>{entry.shortcut}</kbd> : null}
          </li>
        ))}
      </ul>
      {shown.length === 0 ? <p className="muted palette-empty">Nothing matches “{query}”.</p> : null}
    </Modal>
  );
}
