import type { Mutation } from './useMutation';

/** The line under a settings form: what the last save said, or why it failed; read out as it changes. */
export function MutationStatus({ mutation, small = false }: { readonly mutation: Mutation; readonly small?: boolean }) {
  const text = mutation.error ?? mutation.notice;
  if (text === null) return null;
  const look = mutation.error !== null ? 'error' : 'muted';
  return (
    <p className={small ? `${look} small` : look} role="status">
      {text}
    </p>
  );
}
