import { promises as fs } from 'node:fs';
import { basename, join } from 'node:path';
import { agentTypeToFolderName } from '../../../shared/claude/sessionFiles';
import { compareSnapshotSides, localMemoryFiles } from '../../../shared/agents/snapshotComparison';
import { planSnapshotAction } from '../../../shared/agents/snapshotPlanner';
import { parseSnapshotMeta, parseSyncedMeta, SNAPSHOT_META_FILE, SYNCED_META_FILE } from '../../../shared/agents/snapshotStatus';
import type {
  AgentMemorySummary,
  AgentRef,
  AgentSnapshotDiff,
  SnapshotActionResult,
  SnapshotCommand,
  SnapshotNewerWarning,
  SnapshotOperation,
  SnapshotPlan,
  SnapshotSecret,
  SnapshotSide,
} from '../../../shared/model/agents';
import { CodedError } from '../../../shared/result';
import { contentHash } from '../fs/contentHash';
import type { ChangeSetWriter, FileChange } from '../changes/changeSetWriter';
import { agentMemoryRoot, agentSnapshotRoot, type WriteRoot } from '../changes/writeRoot';
import { SecretScanner } from '../secrets/secretScan';
import { agentBoundary, snapshotDirFor } from '../layout/agentMemoryDiscovery';
import { readMetaFile, readSnapshotFolder, type SnapshotFolderContents } from './snapshotFolderReader';

export interface AgentSnapshotServiceDeps {
  /** Every agent memory the engine knows right now (freshly discovered). */
  readonly listAgents: () => Promise<readonly AgentMemorySummary[]>;
  /** Every file an action changes goes through it, and every version it overwrites or deletes into history. */
  readonly writer: ChangeSetWriter;
  readonly now?: () => Date;
}

export interface SnapshotActionRequest {
  readonly ref: AgentRef;
  readonly command: SnapshotCommand;
  /** `merge`: the files to take from the snapshot. */
  readonly files?: readonly string[];
  /**
   * `create` for an agent without a snapshot yet: its real type, when the memory folder's name lost a plugin
   * agent's ':' (`plugin:agent` lives in `plugin-agent`); the snapshot folder must carry the real type.
   */
  readonly agentType?: string;
  /**
   * `create` over a snapshot newer than local memory (a teammate's update not pulled): overwrite it anyway. Without
   * it such a plan is refused, so nobody's update is overwritten unseen.
   */
  readonly overwriteNewer?: boolean;
}

type ProjectAgent = AgentMemorySummary & { readonly projectPath: string };

interface Sides {
  readonly agent: ProjectAgent;
  readonly snapshotDir: string;
  /** Where each side is written: both must lie in the agent's project. */
  readonly roots: Readonly<Record<SnapshotSide, WriteRoot>>;
  readonly local: SnapshotFolderContents;
  readonly snapshot: SnapshotFolderContents;
  readonly token: string;
}

const SUMMARIES: Readonly<Record<SnapshotCommand, string>> = {
  create: 'Snapshot created from local agent memory',
  initialize: 'Agent memory initialised from the snapshot',
  replace: 'Agent memory replaced from the snapshot',
  'mark-synced': 'Agent memory marked as synced with the snapshot',
  merge: 'Files merged from the snapshot into agent memory',
};

/** Why creating the snapshot now waits for the person: whose update it would overwrite, and what to do instead. */
export function newerSnapshotMessage(newer: SnapshotNewerWarning): string {
  const synced = newer.syncedFrom === null ? 'never synced from it' : `last synced from ${newer.syncedFrom}`;
  return (
    `The committed snapshot (updated ${newer.snapshotUpdatedAt}) is newer than this agent's memory (${synced}): ` +
    `creating it now would overwrite ${newer.files.join(', ')}. Merge the snapshot's changes first, or overwrite it on purpose.`
  );
}

/** A write the plan makes: the side it lands on and the change. */
interface PreparedStep {
  readonly side: SnapshotSide;
  readonly change: FileChange;
}

/**
 * Snapshots of project agents' memory (claude-code-state.md §7.6): compares a committed snapshot with the
 * agent's memory, plans each action as Claude Code would run it, and applies the plan through the change-set
 * writer, which stores every version it overwrites or deletes in history first. Both folders must lie in the
 * agent's project by real path; one that leads out of it is neither read nor written.
 */
export class AgentSnapshotService {
  private readonly now: () => Date;
  private readonly secrets = new SecretScanner();

  constructor(private readonly deps: AgentSnapshotServiceDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  async diff(ref: AgentRef): Promise<AgentSnapshotDiff> {
    const sides = await this.readSides(await this.requireProjectAgent(ref), null);
    const entries = compareSnapshotSides(sides.local.listing, sides.snapshot.listing).map((file) => ({
      name: file.name,
      state: file.state,
      local: sides.local.facts.get(file.name) ?? null,
      snapshot: sides.snapshot.facts.get(file.name) ?? null,
    }));
    return { agent: sides.agent, entries, token: sides.token, warnings: [...sides.local.warnings, ...sides.snapshot.warnings] };
  }

  /** What the action would do; writes nothing. A refused action comes back with its refusal, not as an error. */
  async plan(request: SnapshotActionRequest): Promise<SnapshotPlan> {
    const sides = await this.readSides(await this.requireProjectAgent(request.ref), request.agentType ?? null);
    return this.planFor(sides, request);
  }

  /** Runs the action; `expectedToken` (from `diff`) refuses it when either side changed since the user looked. */
  async apply(request: SnapshotActionRequest, expectedToken?: string): Promise<SnapshotActionResult> {
    const sides = await this.readSides(await this.requireProjectAgent(request.ref), request.agentType ?? null);
    if (expectedToken !== undefined && expectedToken !== sides.token)
      throw new CodedError('CONFLICT', 'The snapshot or the local memory changed on disk since they were compared; look again');
    const plan = await this.planFor(sides, request);
    if (plan.refusal)
      throw new CodedError(plan.refusal.code, plan.refusal.message, plan.refusal.secrets ? { secrets: plan.refusal.secrets } : undefined);
    if (plan.newerSnapshot && !request.overwriteNewer)
      throw new CodedError('CONFLICT', newerSnapshotMessage(plan.newerSnapshot), { newerSnapshot: plan.newerSnapshot });
    const steps = await Promise.all(plan.operations.map((operation) => this.prepare(operation, sides)));
    await this.run(steps, sides.roots, SUMMARIES[request.command]);
    const after = (await this.deps.listAgents()).find((agent) => agent.dir === sides.agent.dir);
    return { plan, agent: after ?? sides.agent };
  }

  private async requireProjectAgent(ref: AgentRef): Promise<ProjectAgent> {
    const agent = (await this.deps.listAgents()).find((candidate) => candidate.dir === ref.dir);
    if (!agent) throw new CodedError('NOT_FOUND', `No known agent memory at ${ref.dir}`);
    const { projectPath } = agent;
    if (projectPath === null)
      throw new CodedError('INVALID_INPUT', 'User-scope agent memory belongs to no project, so it has no project snapshot');
    return { ...agent, projectPath };
  }

  private async readSides(agent: ProjectAgent, agentType: string | null): Promise<Sides> {
    let snapshotDir = agent.snapshot.dir ?? snapshotDirFor(agent.projectPath, agent.agentType);
    if (agentType !== null && agentType !== agent.agentType) {
      if (agent.snapshot.dir !== null || agentTypeToFolderName(agentType) !== basename(agent.dir))
        throw new CodedError('INVALID_INPUT', `${agentType} is not the type of the agent whose memory is in ${agent.dir}`);
      snapshotDir = snapshotDirFor(agent.projectPath, agentType);
    }
    const boundary = agentBoundary(agent);
    const roots = {
      local: agentMemoryRoot(agent.dir, boundary, { kind: 'top-level-files' }),
      snapshot: agentSnapshotRoot(snapshotDir, boundary),
    };
    // Neither side is read before both are known to lie in the project: a repository may point either elsewhere.
    await Promise.all([this.deps.writer.checkRoot(roots.local), this.deps.writer.checkRoot(roots.snapshot)]);
    const [local, snapshot] = await Promise.all([readSnapshotFolder(agent.dir), readSnapshotFolder(snapshotDir)]);
    const token = contentHash(
      JSON.stringify([local.exists, local.listing, [...local.metaHashes], snapshot.exists, snapshot.listing, [...snapshot.metaHashes]]),
    );
    return { agent, snapshotDir, roots, local, snapshot, token };
  }

  private async planFor(sides: Sides, request: SnapshotActionRequest): Promise<SnapshotPlan> {
    return planSnapshotAction({
      command: request.command,
      agentDir: sides.agent.dir,
      snapshotDir: sides.snapshotDir,
      snapshotFolderExists: sides.snapshot.exists,
      unusableFolder: [sides.local, sides.snapshot].find((side) => !side.plain)?.dir ?? null,
      local: sides.local.listing,
      snapshot: sides.snapshot.listing,
      snapshotMeta: await readMetaFile(sides.snapshot, SNAPSHOT_META_FILE, parseSnapshotMeta),
      syncedMeta: await readMetaFile(sides.local, SYNCED_META_FILE, parseSyncedMeta),
      now: this.now().toISOString(),
      secrets: request.command === 'create' ? await this.secretsIn(sides.local) : [],
      files: request.files,
    });
  }

  private async secretsIn(local: SnapshotFolderContents): Promise<SnapshotSecret[]> {
    const found: SnapshotSecret[] = [];
    for (const file of localMemoryFiles(local.listing)) {
      const bytes = await this.readExact(local.dir, file.name, file.hash);
      for (const hit of await this.secrets.scan(file.hash, bytes.toString('utf8')))
        found.push({ name: file.name, line: hit.line, kind: hit.kind });
    }
    return found;
  }

  /** Reads a file and checks it still is the version the plan was made from. */
  private async readExact(dir: string, name: string, hash: string): Promise<Buffer> {
    const bytes = await fs.readFile(join(dir, name)).catch(() => null);
    if (!bytes || contentHash(bytes) !== hash)
      throw new CodedError('CONFLICT', `${join(dir, name)} changed on disk; nothing more was changed`);
    return bytes;
  }

  /** The change one operation makes, with the bytes it copies checked to be the version the plan was made from. */
  private async prepare(operation: SnapshotOperation, sides: Sides): Promise<PreparedStep> {
    const dirOf = (side: SnapshotSide) => (side === 'local' ? sides.agent.dir : sides.snapshotDir);
    switch (operation.kind) {
      case 'copy': {
        const from: SnapshotSide = operation.to === 'local' ? 'snapshot' : 'local';
        const bytes = await this.readExact(dirOf(from), operation.name, operation.hash);
        return { side: operation.to, change: { path: operation.name, base: operation.replaces, after: bytes } };
      }
      case 'delete':
        return { side: operation.from, change: { path: operation.name, base: operation.hash, after: null } };
      case 'write-meta':
        // The markers are bookkeeping, not memory: history keeps the files.
        return {
          side: operation.to,
          change: { path: operation.name, base: operation.replaces, after: operation.text, journaled: false },
        };
    }
  }

  /**
   * Writes in plan order (a new snapshot.json only after the files it describes): each run of steps on one side is
   * one change set of that folder, and a failed write ends the action there.
   */
  private async run(steps: readonly PreparedStep[], roots: Sides['roots'], summary: string): Promise<void> {
    for (let start = 0; start < steps.length;) {
      const side = steps[start].side;
      let end = start;
      while (end < steps.length && steps[end].side === side) end++;
      const changes = steps.slice(start, end).map((step) => step.change);
      await this.deps.writer.apply({ root: roots[side], changes, cause: 'app-edit', summary });
      start = end;
    }
  }
}
