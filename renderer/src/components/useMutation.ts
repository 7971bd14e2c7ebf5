import { useCallback, useState } from 'react';
import type { AppError, Result } from '../../../shared/result';

export interface MutationOptions<T> {
  /** Claims an error the component shows its own way (a conflict shown with both versions): it is then no message. */
  readonly takeOver?: (error: AppError) => boolean;
  /** What to say when the write worked (a settings form's "Saved."); nothing is said without it. */
  readonly done?: (value: T) => string;
}

export interface Mutation {
  /** A write is on its way. */
  readonly busy: boolean;
  /** Why the last write failed, until the next one starts (shown with ErrorAlert). */
  readonly error: string | null;
  /** What the last write that worked said about itself (see `done`), until the next one starts. */
  readonly notice: string | null;
  /** Runs a write (a store's action), keeping `busy`, `error` and `notice`. */
  readonly run: <T>(write: () => Promise<Result<T>>, options?: MutationOptions<T>) => Promise<Result<T>>;
  /** Forgets what the last write said (what it was about is gone). */
  readonly clear: () => void;
}

/** The state of a component's writes: one place for "busy", "failed because…", and clearing it when it runs again. */
export function useMutation(): Mutation {
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState<{ readonly error: string | null; readonly notice: string | null }>({ error: null, notice: null });
  const run = useCallback(async <T>(write: () => Promise<Result<T>>, options: MutationOptions<T> = {}): Promise<Result<T>> => {
    setBusy(true);
    setSaid({ error: null, notice: null });
    const result = await write();
    setBusy(false);
    if (result.ok) setSaid({ error: null, notice: options.done ? options.done(result.value) : null });
    else if (!options.takeOver?.(result.error)) setSaid({ error: result.error.message, notice: null });
    return result;
  }, []);
  const clear = useCallback(() => setSaid({ error: null, notice: null }), []);
  return { busy, error: said.error, notice: said.notice, run, clear };
}
