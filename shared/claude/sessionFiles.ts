import { UUID_SOURCE } from './sessionIds';

/** Only UUID-named `.jsonl` files are sessions; `agent-*.jsonl` and others are not (Claude Code's own rule). */
const SESSION_FILE = new RegExp(`^${UUID_SOURCE}\\.jsonl$`, 'i');

export function isSessionFileName(name: string): boolean {
  return SESSION_FILE.test(name);
}

export function sessionIdFromFileName(name: string): string {
  return name.slice(0, -'.jsonl'.length);
}

/** Agent types may contain ':' (plugin agents); Claude Code names their memory folders with '-' instead. */
export function agentTypeToFolderName(agentType: string): string {
  return agentType.replace(/:/g, '-');
}

/**
 * Claude Code's helper agents carry their purpose in their id, `a<purpose>-<hex>`: `acompact-9a97b2` (the
 * compaction summariser, 2.1.3x), `aprompt_suggestion-…`, `aside_question-…` (a side question). Returns the purpose
 * (`compact`, `prompt_suggestion`, `side_question`) as the agent's type, or null for an ordinary agent id.
 */
export function helperAgentType(agentId: string): string | null {
  return /^a([a-z][a-z_]*)-[0-9a-f]+$/.exec(agentId)?.[1] ?? null;
}

/** The workflow run a sub-agent file belongs to (`<session>/subagents/workflows/<runId>/agent-*.jsonl`), or null. */
export function workflowRunOf(agentPath: string): string | null {
  return /[\\/]subagents[\\/]workflows[\\/]([^\\/]+)[\\/][^\\/]+$/.exec(agentPath)?.[1] ?? null;
}
