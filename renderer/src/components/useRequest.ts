import { useEffect, useRef, useState } from 'react';
import type { Result } from '../../../shared/result';
import { useConnectionStore } from '../api/connectionStore';

export type RequestState<T> =
  { readonly status: 'loading' } | { readonly status: 'error'; readonly message: string } | { readonly status: 'done'; readonly value: T };

/**
 * Runs an Api request whenever `key` changes, and again when the connection to the engine comes back after a loss
 * (keeping what it shows meanwhile); stale answers for an older key are dropped.
 */
export function useRequest<T>(key: string | null, run: () => Promise<Result<T>>): RequestState<T> {
  const [state, setState] = useState<RequestState<T>>({ status: 'loading' });
  const reconnections = useConnectionStore((s) => s.reconnections);
  const shownKey = useRef<string | null>(null);
  useEffect(() => {
    if (key === null) return;
    let current = true;
    // A new key starts over; the same key read again after a reconnection keeps its answer on screen until the new one.
    if (shownKey.current !== key) setState({ status: 'loading' });
    shownKey.current = key;
    void run().then((result) => {
      if (!current) return;
      setState(result.ok ? { status: 'done', value: result.value } : { status: 'error', message: result.error.message });
    });
    return () => {
      current = false;
    };
    // `run` is recreated on every render; `key` says when the request really changes.
  }, [key, reconnections]);
  return state;
}
