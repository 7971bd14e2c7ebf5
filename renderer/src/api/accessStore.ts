import { create } from 'zustand';
import type { AccessProblem } from './webSocketApi';

interface AccessState {
  /** Null while the page can reach the engine (always in the desktop app). */
  readonly problem: AccessProblem | null;
}

/** Whether the web shell's page has a token the server accepts; the app shows what to do when it has not. */
export const useAccessStore = create<AccessState>()(() => ({ problem: null }));

export function reportAccessProblem(problem: AccessProblem): void {
  useAccessStore.setState({ problem });
}
