/**
 * The request channel names as a plain list, free of schema code, so the sandboxed preload and the
 * renderer can build their Api without bundling the validator. `requests.ts` checks it stays complete.
 */
export const requestNames = [
  'getHome',
  'refreshHome',
  'openDemoHome',
  'listSessions',
  'listMemoryFiles',
  'listAgentMemories',
  'rendererReady',
] as const;
