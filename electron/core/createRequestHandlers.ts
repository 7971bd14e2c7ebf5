import type { RequestHandlers } from '../../shared/contract/api';
import type { EngineServices } from './engine';

/**
 * The engine's side of the contract, shared by the Electron and web shells. `rendererReady` is
 * answered by the shell itself (it flushes queued events), so the engine only acknowledges it.
 */
export function createRequestHandlers({ home }: EngineServices): RequestHandlers {
  return {
    getHome: () => home.getHome(),
    refreshHome: () => home.refresh(),
    openDemoHome: () => home.openDemo(),
    listSessions: (ref) => home.listSessions(ref),
    listMemoryFiles: (ref) => home.listMemoryFiles(ref),
    listAgentMemories: () => home.listAgentMemories(),
    rendererReady: () => Promise.resolve(null),
  };
}
