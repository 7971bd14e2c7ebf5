import { useState } from 'react';

/** Picks the day before which archived sessions are removed; removing asks to be confirmed first. */
export function ArchivePruneForm({ disabled, onAsk }: { readonly disabled: boolean; readonly onAsk: (before: string) => void }) {
  const [before, setBefore] = useState('');
  return (
    <form
      className="field"
      onSubmit={(event) => {
        event.preventDefault();
        if (before !== '') onAsk(before);
      }}
    >
      <label htmlFor="archive-prune">Remove archived sessions last active before</label>
      <input id="archive-prune" type="date" value={before} onChange={(event) => setBefore(event.target.value)} />
      <div className="dialog-buttons">
        <button type="submit" disabled={disabled || before === ''}>
          Prune…
        </button>
      </div>
    </form>
  );
}
