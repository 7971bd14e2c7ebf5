import { basename } from 'node:path';
import { parseArgs } from 'node:util';
import { agentTypeToFolderName } from '../../../shared/claude/sessionFiles';
import type { AgentMemorySummary, SnapshotCommand, SnapshotOperation, SnapshotPlan, SnapshotRefusal } from '../../../shared/model/agents';
import { CodedError } from '../../../shared/result';
import { newerSnapshotMessage } from '../../core/agents/AgentSnapshotService';
import type { Engine } from '../../core/engine';
import { createCliEngine } from '../cliEngine';
import { CliError, type CliIo } from '../cliIo';
import { bindOptionValues } from '../optionValues';
import { listAgentMemories } from '../../core/agents/agentMemoryListing';

const COMMAND_FLAGS = { create: 'create', initialize: 'initialize', replace: 'replace' } as const satisfies Record<string, SnapshotCommand>;

function chosenCommand(values: Readonly<Record<keyof typeof COMMAND_FLAGS, boolean>>): SnapshotCommand {
  const chosen = (Object.keys(COMMAND_FLAGS) as (keyof typeof COMMAND_FLAGS)[]).filter((flag) => values[flag]);
  if (chosen.length !== 1) throw new CliError('give exactly one of --create, --initialize, --replace', 2);
  return COMMAND_FLAGS[chosen[0]];
}

async function projectPathFor(engine: Engine, slug: string): Promise<string> {
  const paths = new Set((await engine.home.getHome()).projects.filter((p) => p.slug === slug).map((p) => p.path));
  if (paths.size === 0) throw new CliError(`no project ${slug} (see ccmem projects)`);
  if (paths.has(null)) throw new CliError(`the real path of project ${slug} is not known, so its snapshots cannot be found`);
  if (paths.size > 1) throw new CliError(`the slug ${slug} names different folders in different config roots`);
  return [...paths][0] as string;
}

function findAgent(
  agents: readonly AgentMemorySummary[],
  projectPath: string,
  agentType: string,
  scope: string | undefined,
): AgentMemorySummary {
  const folder = agentTypeToFolderName(agentType);
  const matches = agents.filter(
    (a) =>
      a.projectPath === projectPath &&
      (scope === undefined || a.scope === scope) &&
      (a.agentType === agentType || basename(a.dir) === folder),
  );
  if (matches.length === 0) throw new CliError(`no memory and no snapshot of agent ${agentType} in ${projectPath}`);
  if (matches.length > 1)
    throw new CliError(`agent ${agentType} has memory in both the project and the local scope; add --scope project|local`);
  return matches[0];
}

function describe(operation: SnapshotOperation, plan: SnapshotPlan): string {
  const dir = (side: 'local' | 'snapshot') => (side === 'local' ? plan.agentDir : plan.snapshotDir);
  switch (operation.kind) {
    case 'copy':
      return `${operation.replaces ? 'overwrite' : 'create'} ${dir(operation.to)}/${operation.name}`;
    case 'delete':
      return `delete ${dir(operation.from)}/${operation.name} (a copy is kept in history)`;
    case 'write-meta':
      return `write ${dir(operation.to)}/${operation.name}: ${operation.text.trim()}`;
  }
}

function refusalText(refusal: SnapshotRefusal): string {
  const secrets = (refusal.secrets ?? []).map((secret) => `\n  ${secret.name}:${secret.line}: ${secret.kind}`);
  return `${refusal.message}${secrets.join('')}`;
}

function printPlan(io: CliIo, plan: SnapshotPlan, dryRun: boolean): void {
  if (plan.operations.length === 0) {
    io.stdout('Nothing to do: already up to date.\n');
    return;
  }
  io.stdout(dryRun ? `Dry run: ${plan.command} would\n` : `${plan.command}:\n`);
  for (const operation of plan.operations) io.stdout(`  ${describe(operation, plan)}\n`);
  if (plan.updatedAt) io.stdout(`Snapshot updatedAt: ${plan.updatedAt}\n`);
}

/**
 * `ccmem snapshot --agent TYPE --project SLUG (--create | --initialize | --replace) [--scope project|local] [--dry-run]
 * [--overwrite-newer]`: the snapshot actions of the Agents page. `--dry-run` writes nothing and prints what would
 * change; `--create` over a newer committed snapshot (a teammate's update) is refused unless `--overwrite-newer`.
 */
export async function runSnapshot(argv: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseArgs({
    args: bindOptionValues(argv, ['--agent', '--project', '--scope']),
    options: {
      agent: { type: 'string' },
      project: { type: 'string' },
      scope: { type: 'string' },
      create: { type: 'boolean', default: false },
      initialize: { type: 'boolean', default: false },
      replace: { type: 'boolean', default: false },
      'dry-run': { type: 'boolean', default: false },
      'overwrite-newer': { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (!values.agent || !values.project) throw new CliError('--agent TYPE and --project SLUG are required', 2);
  if (values.scope !== undefined && values.scope !== 'project' && values.scope !== 'local')
    throw new CliError('--scope is project or local (user-scope memory has no project snapshot)', 2);
  const command = chosenCommand(values);
  const dryRun = values['dry-run'];
  const engine = await createCliEngine(io, { readOnly: dryRun });
  try {
    const projectPath = await projectPathFor(engine, values.project);
    const agent = findAgent(await listAgentMemories(engine.home), projectPath, values.agent, values.scope);
    const request = {
      ref: { dir: agent.dir },
      command,
      ...(values.agent !== agent.agentType ? { agentType: values.agent } : {}),
      overwriteNewer: values['overwrite-newer'],
    };
    const plan = await engine.agentSnapshots.plan(request);
    if (plan.refusal) throw new CliError(refusalText(plan.refusal));
    if (dryRun) {
      if (plan.newerSnapshot) io.stderr(`warning: ${newerSnapshotMessage(plan.newerSnapshot)}\n`);
      printPlan(io, plan, true);
      return 0;
    }
    if (plan.newerSnapshot && !values['overwrite-newer'])
      throw new CliError(`${newerSnapshotMessage(plan.newerSnapshot)} (take files with the app's merge, or pass --overwrite-newer)`);
    const result = await engine.agentSnapshots.apply(request);
    printPlan(io, result.plan, false);
    return 0;
  } catch (error) {
    if (error instanceof CodedError) throw new CliError(error.message);
    throw error;
  } finally {
    await engine.dispose();
  }
}
