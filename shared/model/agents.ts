import type { ItemWarning } from './warnings';

export type AgentMemoryScope = 'user' | 'project' | 'local';

export interface AgentMemorySummary {
  /** The agent's folder name: its type, with a plugin agent's ':' written as '-' as Claude Code does. */
  readonly agentType: string;
  readonly scope: AgentMemoryScope;
  readonly dir: string;
  readonly projectPath: string | null;
  /** Every `*.md` in the folder, MEMORY.md included (Claude Code's own test for "has memory"). */
  readonly fileCount: number;
  readonly hasIndex: boolean;
  /** The committed snapshot folder for project agents, when one exists. */
  readonly snapshotDir: string | null;
  readonly warnings: readonly ItemWarning[];
}
