/** The tools whose calls start a sub-agent run: `Task` until Claude Code 2.1.3x, `Agent` after. */
export const AGENT_TOOLS: ReadonlySet<string> = new Set(['Agent', 'Task']);
