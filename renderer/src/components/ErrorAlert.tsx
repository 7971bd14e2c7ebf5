import type { ReactNode } from 'react';

/** What went wrong with the last action, announced to screen readers; nothing when nothing did. */
export function ErrorAlert({ error, children }: { readonly error: string | null; readonly children?: ReactNode }) {
  if (!error) return null;
  return (
    <p className="error" role="alert">
      {error}
      {children}
    </p>
  );
}
