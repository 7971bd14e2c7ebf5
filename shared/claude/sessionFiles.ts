/** Only UUID-named `.jsonl` files are sessions; `agent-*.jsonl` and others are not (Claude Code's own rule). */
const SESSION_FILE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl$/i;

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
