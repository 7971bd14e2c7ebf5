import { create } from 'zustand';
import type { ConnectionState } from './reconnectLoop';

interface ConnectionStoreState {
  /** Always online in the desktop app, where the engine runs in the same program. */
  readonly state: ConnectionState;
  /** How many times the connection came back after a loss; views keyed on it read their data again. */
  readonly reconnections: number;
}

/** Whether the page can reach the engine; the web shell's banner and every view that must read again follow it. */
export const useConnectionStore = create<ConnectionStoreState>()(() => ({ state: { status: 'online' }, reconnections: 0 }));

const reconnectListeners = new Set<() => void>();
let retry: () => void = () => undefined;

export function reportConnection(state: ConnectionState): void {
  useConnectionStore.setState({ state });
}

export function reportReconnected(): void {
  useConnectionStore.setState((s) => ({ reconnections: s.reconnections + 1 }));
  for (const listener of reconnectListeners) listener();
}

/** Runs `listener` each time the connection is back: a store reads again what it shows (events were missed meanwhile). */
export function onReconnected(listener: () => void): () => void {
  reconnectListeners.add(listener);
  return () => reconnectListeners.delete(listener);
}

export function bindRetry(retryNow: () => void): void {
  retry = retryNow;
}

/** The banner's "Retry now". */
export function retryConnectionNow(): void {
  retry();
}
