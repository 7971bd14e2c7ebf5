import { parseArgs } from 'node:util';
import type { SnapshotAction } from '../../../shared/agents/snapshotStatus';
import type { AgentMemoryScope, AgentMemorySummary, SnapshotSide } from '../../../shared/model/agents';
import { createCliEngine } from '../cliEngine';
import type { CliIo } from '../cliIo';
import { formatTable } from '../textTable';
import { listAgentMemories } from '../../core/agents/agentMemoryListing';

/** One element of `ccmem agents --json`; a stable schema scripts rely on. */
export interface AgentJson {
  readonly agentType: string;
  readonly scope: AgentMemoryScope;
  readonly dir: string;
  readonly projectPath: string | null;
  readonly fileCount: number;
  readonly snapshot: {
    readonly dir: string | null;
    readonly updatedAt: string | null;
    readonly syncedFrom: string | null;
    readonly action: SnapshotAction;
  };
  /** Its folders that lead outside its project (or config root): `local`, `snapshot`; never read or written. */
  readonly outsideRoot: readonly SnapshotSide[];
}

export function toAgentJson(agent: AgentMemorySummary): AgentJson {
  return {
    agentType: agent.agentType,
    scope: agent.scope,
    dir: agent.dir,
    projectPath: agent.projectPath,
    fileCount: agent.fileCount,
    snapshot: {
      dir: agent.snapshot.dir,
      updatedAt: agent.snapshot.updatedAt,
      syncedFrom: agent.snapshot.syncedFrom,
      action: agent.snapshot.action,
    },
    outsideRoot: agent.outsideRoot,
  };
}

/** Lists agent memories with the engine of a read-only CLI command; nothing is written anywhere. */
export async function readAgentMemories(io: CliIo): Promise<AgentMemorySummary[]> {
  const engine = await createCliEngine(io, { readOnly: true });
  try {
    return await listAgentMemories(engine.home);
  } finally {
    await engine.dispose();
  }
}

const ACTION_TEXT: Readonly<Record<SnapshotAction, string>> = {
  none: '-',
  initialize: 'initialize',
  'prompt-update': 'update available',
};

/** `ccmem agents [--json]`: every agent memory in the user, project and local scopes, with its snapshot status. Reads only. */
export async function runAgents(argv: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({ args: [...argv], options: { json: { type: 'boolean', default: false } }, strict: true });
  const agents = await readAgentMemories(io);
  if (values.json) {
    io.stdout(`${JSON.stringify(agents.map(toAgentJson), null, 2)}\n`);
  } else if (agents.length === 0) {
    io.stdout('No agent memory found.\n');
  } else {
    const rows = [
      ['AGENT', 'SCOPE', 'PROJECT', 'FILES', 'SNAPSHOT', 'UPDATED', 'SYNCED FROM'],
      ...agents.map((a) => [
        a.agentType,
        a.scope,
        a.projectPath ?? '(all projects)',
        String(a.fileCount),
        a.snapshot.dir ? ACTION_TEXT[a.snapshot.action] : '-',
        a.snapshot.updatedAt ?? '-',
        a.snapshot.syncedFrom ?? '-',
      ]),
    ];
    io.stdout(`${formatTable(rows)}\n`);
  }
  for (const agent of agents) for (const item of agent.warnings) io.stderr(`warning: ${item.path ?? agent.dir}: ${item.message}\n`);
  return 0;
}
