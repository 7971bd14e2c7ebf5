import { useCallback, useState } from 'react';
import type { AppError, Result } from '../../../shared/result';

export interface Mutation {
  /** A write is on its way. */
  readonly busy: boolean;
  /** Why the last write failed, until the next one starts (shown with ErrorAlert). */
  readonly error: string | null;
  /**
   * Runs a write (a store's action), keeping `busy` and `error`. `takeOver` may claim an error the component shows
   * its own way (a conflict shown with both versions), which then is not shown as a message.
   */
  readonly run: <T>(write: () => Promise<Result<T>>, takeOver?: (error: AppError) => boolean) => Promise<Result<T>>;
  /** Forgets the last failure (what it was about is gone). */
  readonly clear: () => void;
}

/** The state of a component's writes: one place for "busy", "failed because…", and clearing it when it runs again. */
export function useMutation(): Mutation {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = useCallback(async <T>(write: () => Promise<Result<T>>, takeOver?: (error: AppError) => boolean): Promise<Result<T>> => {
    setBusy(true);
    setError(null);
    const result = await write();
    setBusy(false);
    if (!result.ok && !takeOver?.(result.error)) setError(result.error.message);
    return result;
  }, []);
  const clear = useCallback(() => setError(null), []);
  return { busy, error, run, clear };
}
