import { useEffect, useState } from 'react';
import type { Result } from '../../../shared/result';

export type RequestState<T> =
  { readonly status: 'loading' } | { readonly status: 'error'; readonly message: string } | { readonly status: 'done'; readonly value: T };

/** Runs an Api request whenever `key` changes; stale answers for an older key are dropped. */
export function useRequest<T>(key: string | null, run: () => Promise<Result<T>>): RequestState<T> {
  const [state, setState] = useState<RequestState<T>>({ status: 'loading' });
  useEffect(() => {
    if (key === null) return;
    let current = true;
    setState({ status: 'loading' });
    void run().then((result) => {
      if (!current) return;
      setState(result.ok ? { status: 'done', value: result.value } : { status: 'error', message: result.error.message });
    });
    return () => {
      current = false;
    };
    // `run` is recreated on every render; `key` says when the request really changes.
  }, [key]);
  return state;
}
