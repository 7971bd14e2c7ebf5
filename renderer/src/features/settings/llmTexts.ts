import type { LlmBackend } from '../../../../shared/jobs/llmSettings';

/** How the page names each backend a job can run through. */
export const BACKEND_TEXT: Readonly<Record<LlmBackend, string>> = { api: 'the API key', 'claude-code': 'Claude Code' };
