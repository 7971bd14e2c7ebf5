import type { KeyboardEvent } from 'react';

/** Ctrl+S (Cmd+S on a Mac) inside a form submits it, as Save would; the browser's "save page" never opens. */
export function submitOnSaveShortcut(event: KeyboardEvent<HTMLFormElement>): void {
  if (!(event.ctrlKey || event.metaKey) || event.altKey || event.key.toLowerCase() !== 's') return;
  event.preventDefault();
  const submit = event.currentTarget.querySelector<HTMLButtonElement>('button[type="submit"]');
  if (submit && !submit.disabled) event.currentTarget.requestSubmit(submit);
}
