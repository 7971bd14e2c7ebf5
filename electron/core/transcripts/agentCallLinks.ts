import { AGENT_TOOLS } from '../../../shared/claude/agentTools';
import type { IndexedLine } from '../../../shared/transcript/indexedLine';

/** An Agent/Task call of a session file, as its line index knows it. */
export interface AgentCall {
  readonly id: string;
  readonly line: number;
}

/** What a session file's lines say of the sub-agent runs it started, without reading a byte of it. */
export interface AgentCallLinks {
  /** Every Agent/Task call, in file order. */
  readonly calls: readonly AgentCall[];
  /** A run's agent id → the call its tool result answers (2.1.x results name the agent). */
  readonly byResult: ReadonlyMap<string, string>;
  /** A run's agent id → the call its legacy `agent_progress` lines name. */
  readonly byProgress: ReadonlyMap<string, string>;
}

/**
 * The calls and the links to them, from the line index in one walk. A document works them out once per version (and
 * keeps them with its saved index): on 500 MB the walks over 147,000 lines in cold code, and the tool-use lists they
 * made, took 40–60 ms of the first open.
 */
export function agentCallLinks(lines: readonly IndexedLine[]): AgentCallLinks {
  const calls: AgentCall[] = [];
  const byResult = new Map<string, string>();
  const byProgress = new Map<string, string>();
  for (const line of lines) {
    if (line.resultAgentId !== null && line.toolResultIds.length > 0) byResult.set(line.resultAgentId, line.toolResultIds[0]);
    if (line.progressAgentId !== null && line.parentToolUseId !== null) byProgress.set(line.progressAgentId, line.parentToolUseId);
    for (const use of line.toolUses) if (AGENT_TOOLS.has(use.name)) calls.push({ id: use.id, line: line.line });
  }
  return { calls, byResult, byProgress };
}
